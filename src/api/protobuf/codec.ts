/**
 * `application/vnd.kubernetes.protobuf`: objects ↔ bytes, driven by the message descriptions in ./messages.
 *
 * Envelope (SPEC "Content negotiation"): the 4-byte magic `k8s\0`, then a `runtime.Unknown` message with
 * typeMeta (1), raw (2: the object's own message), contentEncoding (3) and contentType (4).
 *
 * JSON mapping follows Go's encoding/json of the Kubernetes types: int64 as numbers, bytes as base64, Time as
 * RFC 3339, IntOrString as number or string, Quantity as its string, FieldsV1/RawExtension as embedded JSON.
 * Decoding never drops data silently: a field number the schema does not know is an error.
 */
import { hasMessage, messageSpec, type FieldSpec, type MessageSpec, type ScalarType, type ValueType } from './schema.ts';
import { ProtobufDecodeError, Reader, WIRE_FIXED64, WIRE_LEN, WIRE_VARINT, Writer } from './wire.ts';
import './messages/index.ts';

export const PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

// ---- encoding ---------------------------------------------------------------------------------------------

function wireOf(t: ValueType): number {
  if (t.kind === 'message') return WIRE_LEN;
  switch (t.scalar) {
    case 'string': case 'bytes': return WIRE_LEN;
    case 'double': return WIRE_FIXED64;
    default: return WIRE_VARINT;
  }
}

function writeScalar(w: Writer, s: ScalarType, v: unknown): void {
  switch (s) {
    case 'string': w.string(typeof v === 'string' ? v : v == null ? '' : String(v)); return;
    case 'bytes': w.bytes(typeof v === 'string' ? Buffer.from(v, 'base64') : new Uint8Array()); return;
    case 'bool': w.varint(v === true ? 1 : 0); return;
    case 'double': w.double(typeof v === 'number' ? v : 0); return;
    default: w.signedVarint(typeof v === 'number' ? Math.trunc(v) : typeof v === 'string' && v !== '' ? Number(v) : 0);
  }
}

function writeValue(w: Writer, field: number, t: ValueType, v: unknown): void {
  w.tag(field, wireOf(t));
  if (t.kind === 'scalar') writeScalar(w, t.scalar, v);
  else w.bytes(encodeMessage(v, messageSpec(t.name)));
}

function parseTime(v: unknown): { seconds: number; nanos: number } | undefined {
  if (typeof v !== 'string' || v === '') return undefined;
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) throw new ProtobufDecodeError(`invalid time ${JSON.stringify(v)}`);
  const frac = /\.(\d+)/.exec(v)?.[1] ?? '';
  const nanos = frac ? Number(frac.padEnd(9, '0').slice(0, 9)) : 0;
  return { seconds: Math.floor(ms / 1000), nanos };
}

/** Encodes one message body (no envelope) from its JSON form. */
export function encodeMessage(v: unknown, spec: MessageSpec): Uint8Array {
  const w = new Writer();
  if (spec.special) {
    encodeSpecial(w, spec, v);
    return w.finish();
  }
  const obj = (v && typeof v === 'object' ? v : {}) as Record<string, unknown>;
  for (const f of spec.fields) writeField(w, f, f.inline ? obj : obj[f.json]);
  return w.finish();
}

function writeField(w: Writer, f: FieldSpec, v: unknown): void {
  if (f.mapKey) {
    if (!v || typeof v !== 'object') return;
    for (const k of Object.keys(v).sort()) {
      const entry = new Writer();
      entry.tag(1, wireOf({ kind: 'scalar', scalar: f.mapKey }));
      writeScalar(entry, f.mapKey, k);
      writeValue(entry, 2, f.type, (v as Record<string, unknown>)[k]);
      w.tag(f.number, WIRE_LEN);
      w.bytes(entry.finish());
    }
    return;
  }
  if (f.repeated) {
    if (Array.isArray(v)) for (const item of v) writeValue(w, f.number, f.type, item);
    return;
  }
  if (v === undefined || v === null) {
    if (f.pointer) return;
    // Non-pointer fields are always written, as zero values or empty messages.
  }
  writeValue(w, f.number, f.type, v);
}

function encodeSpecial(w: Writer, spec: MessageSpec, v: unknown): void {
  switch (spec.special) {
    case 'time': case 'microtime': {
      const t = parseTime(v);
      if (!t) return; // zero time: empty message
      w.tag(1, WIRE_VARINT); w.signedVarint(t.seconds);
      w.tag(2, WIRE_VARINT); w.signedVarint(spec.special === 'time' ? 0 : t.nanos - (t.nanos % 1000));
      return;
    }
    case 'duration': w.tag(1, WIRE_VARINT); w.signedVarint(parseGoDuration(String(v ?? '0s'))); return;
    case 'quantity': w.tag(1, WIRE_LEN); w.string(v == null ? '0' : String(v)); return;
    case 'intorstring': {
      const isStr = typeof v === 'string';
      w.tag(1, WIRE_VARINT); w.varint(isStr ? 1 : 0);
      w.tag(2, WIRE_VARINT); w.signedVarint(isStr ? 0 : Number(v ?? 0));
      w.tag(3, WIRE_LEN); w.string(isStr ? v : '');
      return;
    }
    case 'rawextension': case 'json': case 'fieldsv1':
      if (v === undefined) return;
      w.tag(1, WIRE_LEN); w.bytes(Buffer.from(JSON.stringify(v)));
      return;
    case 'stringlist':
      if (Array.isArray(v)) for (const s of v) { w.tag(1, WIRE_LEN); w.string(String(s)); }
      return;
    case 'schemaorbool': case 'schemaorarray': case 'schemaorstringarray':
      encodeSchemaOr(w, spec.special, v);
      return;
  }
}

const JSON_SCHEMA_PROPS = 'apiextensions.v1.JSONSchemaProps';

/**
 * apiextensions' schema-or-X values. OrBool: `allows` (1) and `schema` (2), an object meaning allows=true;
 * OrArray: `schema` (1) or repeated `JSONSchemas` (2); OrStringArray: `schema` (1) or repeated `property` (2).
 */
function encodeSchemaOr(w: Writer, form: 'schemaorbool' | 'schemaorarray' | 'schemaorstringarray', v: unknown): void {
  const schema = messageSpec(JSON_SCHEMA_PROPS);
  const isObject = v !== null && typeof v === 'object' && !Array.isArray(v);
  if (form === 'schemaorbool') {
    w.tag(1, WIRE_VARINT); w.varint(isObject || v === true ? 1 : 0);
    if (isObject) { w.tag(2, WIRE_LEN); w.bytes(encodeMessage(v, schema)); }
    return;
  }
  if (isObject) { w.tag(1, WIRE_LEN); w.bytes(encodeMessage(v, schema)); return; }
  if (!Array.isArray(v)) return;
  for (const item of v) {
    w.tag(2, WIRE_LEN);
    if (form === 'schemaorarray') w.bytes(encodeMessage(item, schema));
    else w.string(String(item));
  }
}

function decodeSchemaOr(r: Reader, form: 'schemaorbool' | 'schemaorarray' | 'schemaorstringarray'): Json {
  const schema = messageSpec(JSON_SCHEMA_PROPS);
  let allows = false;
  let object: Json | undefined;
  const list: Json[] = [];
  while (!r.done()) {
    const key = r.varint();
    const num = Math.floor(key / 8);
    const wire = key & 7;
    if (form === 'schemaorbool' && num === 1 && wire === WIRE_VARINT) allows = r.varint() !== 0;
    else if (wire !== WIRE_LEN) r.skip(wire);
    else if ((form === 'schemaorbool' && num === 2) || (form !== 'schemaorbool' && num === 1)) object = decodeMessage(r.bytes(), schema);
    else if (num === 2 && form === 'schemaorarray') list.push(decodeMessage(r.bytes(), schema));
    else if (num === 2) list.push(Buffer.from(r.bytes()).toString('utf8'));
    else r.bytes();
  }
  if (object !== undefined) return object;
  return form === 'schemaorbool' ? allows : list;
}

// ---- decoding ---------------------------------------------------------------------------------------------

function readScalar(r: Reader, s: ScalarType, wire: number): Json {
  switch (s) {
    case 'string': expectWire(wire, WIRE_LEN); return Buffer.from(r.bytes()).toString('utf8');
    case 'bytes': expectWire(wire, WIRE_LEN); return Buffer.from(r.bytes()).toString('base64');
    case 'bool': expectWire(wire, WIRE_VARINT); return r.varint() !== 0;
    case 'double': expectWire(wire, WIRE_FIXED64); return r.double();
    case 'int32': expectWire(wire, WIRE_VARINT); return (r.varint() << 0);
    default: expectWire(wire, WIRE_VARINT); return r.varint();
  }
}

function expectWire(got: number, want: number): void {
  if (got !== want) throw new ProtobufDecodeError(`unexpected wire type ${got} (want ${want})`);
}

function readValue(r: Reader, t: ValueType, wire: number): Json {
  if (t.kind === 'scalar') return readScalar(r, t.scalar, wire);
  expectWire(wire, WIRE_LEN);
  return decodeMessage(r.bytes(), messageSpec(t.name));
}

function isZero(v: Json): boolean {
  return v === '' || v === 0 || v === false;
}

/** Decodes one message body (no envelope) into its JSON form. */
export function decodeMessage(bytes: Uint8Array, spec: MessageSpec): Json {
  const r = new Reader(bytes);
  if (spec.special) return decodeSpecial(r, spec);
  const out: JsonObject = {};
  while (!r.done()) {
    const key = r.varint();
    const num = Math.floor(key / 8);
    const wire = key & 7;
    const f = spec.byNumber.get(num);
    if (!f) throw new ProtobufDecodeError(`field number ${num} is not known in ${spec.fullName}`);
    if (f.mapKey) {
      expectWire(wire, WIRE_LEN);
      const entry = new Reader(r.bytes());
      let k: Json = '';
      let v: Json = f.type.kind === 'scalar' ? (f.type.scalar === 'string' || f.type.scalar === 'bytes' ? '' : 0) : {};
      while (!entry.done()) {
        const ek = entry.varint();
        if (ek >> 3 === 1) k = readScalar(entry, f.mapKey, ek & 7);
        else if (ek >> 3 === 2) v = readValue(entry, f.type, ek & 7);
        else entry.skip(ek & 7);
      }
      const map = (out[f.json] ??= {}) as JsonObject;
      map[String(k)] = v;
    } else if (f.repeated) {
      const list = (out[f.json] ??= []) as Json[];
      if (wire === WIRE_LEN && f.type.kind === 'scalar' && f.type.scalar !== 'string' && f.type.scalar !== 'bytes') {
        const packed = new Reader(r.bytes());
        while (!packed.done()) list.push(readScalar(packed, f.type.scalar, f.type.scalar === 'double' ? WIRE_FIXED64 : WIRE_VARINT));
      } else {
        list.push(readValue(r, f.type, wire));
      }
    } else if (f.inline) {
      Object.assign(out, readValue(r, f.type, wire) as JsonObject);
    } else {
      const v = readValue(r, f.type, wire);
      // Go's encoding/json: omitempty drops zero scalars of non-pointer fields, but struct fields are always
      // written, so a zero Time in a non-pointer field is `null` (e.g. a pod template's creationTimestamp).
      if (v === null ? f.pointer : !f.pointer && isZero(v)) delete out[f.json];
      else out[f.json] = v;
    }
  }
  return out;
}

function decodeSpecial(r: Reader, spec: MessageSpec): Json {
  if (spec.special === 'schemaorbool' || spec.special === 'schemaorarray' || spec.special === 'schemaorstringarray') return decodeSchemaOr(r, spec.special);
  const fields = new Map<number, Json>();
  const repeated: Json[] = [];
  let rawBytes: Buffer | undefined;
  while (!r.done()) {
    const key = r.varint();
    const num = Math.floor(key / 8);
    const wire = key & 7;
    if (wire === WIRE_LEN) {
      const b = r.bytes();
      if (spec.special === 'stringlist') repeated.push(Buffer.from(b).toString('utf8'));
      else if (spec.special === 'rawextension' || spec.special === 'json' || spec.special === 'fieldsv1') rawBytes = Buffer.from(b);
      else fields.set(num, Buffer.from(b).toString('utf8'));
    } else if (wire === WIRE_VARINT) {
      fields.set(num, r.varint());
    } else {
      r.skip(wire);
    }
  }
  switch (spec.special) {
    case 'time': case 'microtime': {
      const s = fields.get(1) as number | undefined;
      const n = (fields.get(2) as number | undefined) ?? 0;
      if (!s && !n) return null;
      const iso = new Date(s! * 1000).toISOString().slice(0, 19);
      return spec.special === 'time' ? `${iso}Z` : `${iso}.${String(Math.floor(n / 1000)).padStart(6, '0')}Z`;
    }
    case 'duration': return formatGoDuration((fields.get(1) as number | undefined) ?? 0);
    case 'quantity': return (fields.get(1) as string | undefined) ?? '0';
    case 'intorstring': return fields.get(1) === 1 ? ((fields.get(3) as string | undefined) ?? '') : ((fields.get(2) as number | undefined) ?? 0);
    case 'rawextension': case 'json': case 'fieldsv1': {
      if (!rawBytes || rawBytes.length === 0) return null;
      try {
        return JSON.parse(rawBytes.toString('utf8')) as Json;
      } catch {
        throw new ProtobufDecodeError(`${spec.fullName} holds data that is not JSON`);
      }
    }
    case 'stringlist': return repeated;
    default: return null;
  }
}

// ---- Go durations -------------------------------------------------------------------------------------------

const UNITS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

export function parseGoDuration(s: string): number {
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let sign = 1;
  let rest = s;
  if (rest.startsWith('-')) { sign = -1; rest = rest.slice(1); }
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(rest))) {
    total += Number(m[1]) * UNITS[m[2]!]!;
    consumed = re.lastIndex;
  }
  if (consumed !== rest.length || consumed === 0) throw new ProtobufDecodeError(`invalid duration ${JSON.stringify(s)}`);
  return sign * Math.round(total);
}

/** Go's time.Duration.String(): `1h0m0s`, `1m30s`, `500ms`, `0s`. */
export function formatGoDuration(ns: number): string {
  if (ns === 0) return '0s';
  const neg = ns < 0;
  let v = Math.abs(ns);
  let out: string;
  if (v < 1e9) {
    out = v < 1e3 ? `${v}ns` : v < 1e6 ? `${trimZeros(v / 1e3)}µs` : `${trimZeros(v / 1e6)}ms`;
  } else {
    const h = Math.floor(v / 3600e9); v -= h * 3600e9;
    const m = Math.floor(v / 60e9); v -= m * 60e9;
    const sec = trimZeros(v / 1e9);
    out = h ? `${h}h${m}m${sec}s` : m ? `${m}m${sec}s` : `${sec}s`;
  }
  return neg ? `-${out}` : out;
}

function trimZeros(n: number): string {
  return String(Number(n.toFixed(9)));
}

// ---- envelope and type lookup -------------------------------------------------------------------------------

/** Protobuf package of an API group version, e.g. `core.v1`, `apps.v1`, `rbac.v1` (first DNS label of the group). */
/**
 * Built-in API groups → the package prefix of their message descriptions. Only these groups have typed
 * schemas: a custom resource group that merely starts the same way (`batch.tutorial.kubebuilder.io`,
 * `apps.example.com`) must never be mistaken for the built-in one.
 */
const GROUP_PACKAGES: Readonly<Record<string, string>> = {
  '': 'core', apps: 'apps', batch: 'batch', autoscaling: 'autoscaling', policy: 'policy',
  'admissionregistration.k8s.io': 'admissionregistration', 'internal.apiserver.k8s.io': 'apiserverinternal',
  'authentication.k8s.io': 'authentication', 'authorization.k8s.io': 'authorization',
  'certificates.k8s.io': 'certificates', 'coordination.k8s.io': 'coordination', 'discovery.k8s.io': 'discovery',
  'events.k8s.io': 'events', 'flowcontrol.apiserver.k8s.io': 'flowcontrol', 'networking.k8s.io': 'networking',
  'node.k8s.io': 'node', 'rbac.authorization.k8s.io': 'rbac', 'resource.k8s.io': 'resource',
  'scheduling.k8s.io': 'scheduling', 'storage.k8s.io': 'storage', 'storagemigration.k8s.io': 'storagemigration',
  'apiextensions.k8s.io': 'apiextensions', 'apiregistration.k8s.io': 'apiregistration',
};

/** The description package of a built-in apiVersion (`apps/v1` → `apps.v1`); undefined for other groups. */
export function packageOf(apiVersion: string): string | undefined {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const pkg = GROUP_PACKAGES[group];
  return pkg === undefined ? undefined : `${pkg}.${apiVersion.slice(slash + 1)}`;
}

/**
 * meta/v1 kinds every group version knows besides its own (kube's metav1.AddToGroupVersion): the options
 * types and WatchEvent. A typed client sends e.g. `apps/v1`, Kind=DeleteOptions, or `v1` for the core group.
 */
export const GROUP_VERSION_META_KINDS: ReadonlySet<string> = new Set([
  'ListOptions', 'GetOptions', 'DeleteOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions', 'WatchEvent',
]);
/** Unversioned kinds: written as apiVersion `v1` whatever the group (kube's metav1.Unversioned). */
const UNVERSIONED_KINDS: ReadonlySet<string> = new Set(['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList']);
/** meta.k8s.io itself: the options and WatchEvent, and the conversion targets (AddMetaToScheme). */
const META_GROUP_KINDS: Readonly<Record<string, ReadonlySet<string>>> = {
  'meta.k8s.io/v1': new Set([...GROUP_VERSION_META_KINDS, 'Table', 'TableOptions', 'PartialObjectMetadata', 'PartialObjectMetadataList']),
  'meta.k8s.io/v1beta1': new Set(['Table', 'TableOptions', 'PartialObjectMetadata', 'PartialObjectMetadataList']),
};

function metaMessage(kind: string): MessageSpec | undefined {
  return hasMessage(`meta.${kind}`) ? messageSpec(`meta.${kind}`) : undefined;
}

/**
 * The message describing (apiVersion, kind), or undefined when the catalog has no protobuf schema for it: a
 * built-in group version's own kinds, the meta/v1 kinds registered into each of them, the unversioned `v1`
 * kinds (Status) and meta.k8s.io's. Other groups (custom resources) have only the meta/v1 kinds: their own
 * objects are JSON only, so their endpoints must not offer protobuf for them (a CRD may name a kind
 * `DeleteOptions`).
 */
export function protobufMessageFor(apiVersion: string, kind: string): MessageSpec | undefined {
  const metaKinds = META_GROUP_KINDS[apiVersion];
  if (metaKinds) return metaKinds.has(kind) ? metaMessage(kind) : undefined;
  const pkg = packageOf(apiVersion);
  if (pkg === undefined) return GROUP_VERSION_META_KINDS.has(kind) && /^[^/]+\/[^/]+$/.test(apiVersion) ? metaMessage(kind) : undefined;
  if (hasMessage(`${pkg}.${kind}`)) return messageSpec(`${pkg}.${kind}`);
  if (GROUP_VERSION_META_KINDS.has(kind) || (apiVersion === 'v1' && UNVERSIONED_KINDS.has(kind))) return metaMessage(kind);
  return undefined;
}

export function supportsProtobuf(apiVersion: string, kind: string): boolean {
  return protobufMessageFor(apiVersion, kind) !== undefined;
}

function unknownEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  const typeMeta = new Writer();
  typeMeta.tag(1, WIRE_LEN); typeMeta.string(apiVersion);
  typeMeta.tag(2, WIRE_LEN); typeMeta.string(kind);
  const w = new Writer();
  w.raw(PROTOBUF_MAGIC);
  w.tag(1, WIRE_LEN); w.bytes(typeMeta.finish());
  w.tag(2, WIRE_LEN); w.bytes(raw);
  w.tag(3, WIRE_LEN); w.string('');
  w.tag(4, WIRE_LEN); w.string('');
  return w.finish();
}

/** Encodes an object (or list) with its envelope. Throws when its kind has no protobuf schema. */
export function encodeProtobuf(obj: { apiVersion?: string; kind?: string; [field: string]: unknown }): Buffer {
  const { apiVersion = '', kind = '' } = obj;
  const spec = protobufMessageFor(apiVersion, kind);
  if (!spec) throw new Error(`no protobuf schema for ${apiVersion}, Kind=${kind}`);
  return unknownEnvelope(apiVersion, kind, encodeMessage(obj, spec));
}

export interface DecodedEnvelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
}

export function decodeEnvelope(bytes: Uint8Array): DecodedEnvelope {
  if (bytes.byteLength < 4 || !PROTOBUF_MAGIC.equals(Buffer.from(bytes.subarray(0, 4)))) {
    throw new ProtobufDecodeError('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  }
  const r = new Reader(bytes);
  r.pos = 4;
  const out: DecodedEnvelope = { apiVersion: '', kind: '', raw: new Uint8Array() };
  while (!r.done()) {
    const key = r.varint();
    const num = key >> 3;
    if (num === 1) {
      const tm = new Reader(r.bytes());
      while (!tm.done()) {
        const k = tm.varint();
        if (k >> 3 === 1) out.apiVersion = Buffer.from(tm.bytes()).toString('utf8');
        else if (k >> 3 === 2) out.kind = Buffer.from(tm.bytes()).toString('utf8');
        else tm.skip(k & 7);
      }
    } else if (num === 2) {
      out.raw = r.bytes();
    } else if (num === 3) {
      const enc = Buffer.from(r.bytes()).toString('utf8');
      if (enc) throw new ProtobufDecodeError(`unsupported protobuf content encoding ${JSON.stringify(enc)}`);
    } else {
      r.skip(key & 7);
    }
  }
  return out;
}

/**
 * Decodes an enveloped object into its JSON form (apiVersion and kind from the envelope). Throws
 * ProtobufDecodeError for malformed bytes and for kinds without a schema.
 */
export function decodeProtobuf(bytes: Uint8Array): Record<string, unknown> {
  const env = decodeEnvelope(bytes);
  const spec = protobufMessageFor(env.apiVersion, env.kind);
  if (!spec) throw new ProtobufDecodeError(`no protobuf schema for ${env.apiVersion}, Kind=${env.kind}`);
  const body = decodeMessage(env.raw, spec) as JsonObject;
  return { kind: env.kind, apiVersion: env.apiVersion, ...body };
}
