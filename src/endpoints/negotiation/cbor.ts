/**
 * CBOR serving (feature gate CBORServingAndStorage): objects in their JSON form ⇄ CBOR as kube-apiserver encodes
 * its typed objects. The JSON form writes `[]byte` fields (Secret `data`, ConfigMap `binaryData`, CSR `request`,
 * …) as base64 text; CBOR writes them as byte strings. The kind's type description (src/apply/schema-view.ts)
 * tells which places are `[]byte`; every other string is a text string. Places without a schema (custom
 * resources, unknown kinds) have no bytes fields: everything is text, as kube's unstructured encoding.
 *
 * Decoding is the reverse: a byte string at a `[]byte` place becomes base64 text; elsewhere its bytes are read
 * as text (kube decodes byte strings into strings too).
 */
import { rootNodeFor, UNTYPED, type SchemaNode } from '../../apply/schema-view.ts';
import { CborByteString, CborRaw, decodeCbor, encodeCborTagged } from './cbor-codec.ts';

export const CBOR = 'application/cbor';
export const CBOR_SEQ = 'application/cbor-seq';
export const APPLY_PATCH_CBOR = 'application/apply-patch+cbor';

export { CborDecodeError, decodeCborSequence, SELF_DESCRIBED_CBOR } from './cbor-codec.ts';

function isBytesPlace(node: SchemaNode): boolean {
  return node.kind === 'scalar' && node.goType === '[]uint8';
}

/** The node for an object value: its own kind's schema when the place has none and it names one. */
function objectNode(node: SchemaNode, v: Record<string, unknown>): SchemaNode {
  const open = node.kind === 'untyped' || (node.kind === 'struct' && node.open) || (node.kind === 'scalar' && node.special !== undefined);
  if (!open) return node;
  const av = v['apiVersion'];
  const k = v['kind'];
  if (typeof av === 'string' && typeof k === 'string' && av && k) return rootNodeFor(av, k) ?? node;
  return node;
}

function childNode(node: SchemaNode, key: string): SchemaNode {
  if (node.kind === 'struct') return node.field(key)?.node ?? UNTYPED;
  if (node.kind === 'map') return node.value;
  return UNTYPED;
}

/** JSON form → values for the CBOR encoder (base64 `[]byte` fields become bytes). */
function toWire(v: unknown, node: SchemaNode): unknown {
  if (v instanceof CborRaw) return v;
  if (typeof v === 'string') return isBytesPlace(node) ? Buffer.from(v, 'base64') : v;
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const el = node.kind === 'list' ? node.element : UNTYPED;
    return v.map((x) => toWire(x, el));
  }
  const obj = v as Record<string, unknown>;
  const n = objectNode(node, obj);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(obj)) {
    if (x === undefined) continue;
    out[k] = toWire(x, childNode(n, k));
  }
  return out;
}

/** Decoded CBOR → JSON form (byte strings become base64 at `[]byte` places, text elsewhere). */
function fromWire(v: unknown, node: SchemaNode): unknown {
  if (v instanceof CborByteString) {
    return isBytesPlace(node) ? Buffer.from(v.bytes).toString('base64') : Buffer.from(v.bytes).toString('utf8');
  }
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const el = node.kind === 'list' ? node.element : UNTYPED;
    return v.map((x) => fromWire(x, el));
  }
  const obj = v as Record<string, unknown>;
  const n = objectNode(node, obj);
  for (const [k, x] of Object.entries(obj)) obj[k] = fromWire(x, childNode(n, k));
  return obj;
}

/** An object (or list, Status, WatchEvent, any JSON value) as kube's CBOR serializer writes it. */
export function encodeCborValue(value: unknown): Buffer {
  return encodeCborTagged(toWire(value, UNTYPED));
}

/**
 * A request body in CBOR → the JSON form. Throws CborDecodeError (fxamacker's wording) for malformed or
 * invalid input.
 */
export function decodeCborValue(body: Uint8Array): unknown {
  return fromWire(decodeCbor(body), UNTYPED);
}

/**
 * One watch event of a `application/cbor-seq` stream: `{type, object}` where the object is its own tagged CBOR
 * (kube embeds the object's encoding as a RawExtension), so a cached object encoding is reused as it is.
 */
export function cborWatchEvent(type: string, objectCbor: Uint8Array): Buffer {
  return encodeCborTagged({ type, object: new CborRaw(objectCbor) });
}
