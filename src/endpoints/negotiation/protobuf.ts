/**
 * `application/vnd.kubernetes.protobuf` responses, on top of the catalog's codec (src/api/protobuf):
 * - objects and lists: the `k8s\0` envelope (runtime.Unknown) around the kind's message;
 * - `Status` (apiVersion v1): the meta.v1 Status message in an envelope that says `v1`/`Status`, as kube
 *   encodes errors for protobuf clients;
 * - watch streams (`;stream=watch`): each event is a 4-byte big-endian length, then a raw (no envelope)
 *   `WatchEvent{type, object: RawExtension{raw: <enveloped object>}}` — kube's length-delimited framer with
 *   the raw protobuf serializer for the event and the enveloping one for the object.
 */
import { encodeMessage, protobufMessageFor, PROTOBUF_MAGIC } from '../../api/protobuf/codec.ts';
import type { ListMeta } from '../../machinery/objects.ts';
import { messageSpec, type MessageSpec } from '../../api/protobuf/schema.ts';
import type { CachedObject } from '../../storage/cacher/types.ts';
import { WIRE_LEN, Writer } from '../../api/protobuf/wire.ts';

export const PROTOBUF_TYPE = 'application/vnd.kubernetes.protobuf';

function envelope(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  const typeMeta = new Writer();
  typeMeta.tag(1, WIRE_LEN);
  typeMeta.string(apiVersion);
  typeMeta.tag(2, WIRE_LEN);
  typeMeta.string(kind);
  const w = new Writer();
  w.raw(PROTOBUF_MAGIC);
  w.tag(1, WIRE_LEN);
  w.bytes(typeMeta.finish());
  w.tag(2, WIRE_LEN);
  w.bytes(raw);
  w.tag(3, WIRE_LEN);
  w.string('');
  w.tag(4, WIRE_LEN);
  w.string('');
  return w.finish();
}

type Typed = { apiVersion?: unknown; kind?: unknown };

/**
 * The message for (apiVersion, kind): the catalog's (built-in kinds, the meta/v1 kinds every group version
 * registers, the unversioned `v1` Status, meta.k8s.io's PartialObjectMetadata, …).
 */
function specFor(apiVersion: string, kind: string): MessageSpec | undefined {
  return protobufMessageFor(apiVersion, kind);
}

/** Can this value be written as protobuf? (Kinds without a schema — custom resources — cannot.) */
export function canEncodeProtobuf(value: unknown): boolean {
  const v = value as Typed;
  if (typeof v !== 'object' || v === null || typeof v.kind !== 'string' || typeof v.apiVersion !== 'string') return false;
  return specFor(v.apiVersion, v.kind) !== undefined;
}

/** The enveloped protobuf form of an API object, list or Status. */
export function encodeProtobufValue(value: unknown): Buffer {
  const v = value as Typed & Record<string, unknown>;
  const apiVersion = typeof v.apiVersion === 'string' ? v.apiVersion : '';
  const kind = typeof v.kind === 'string' ? v.kind : '';
  const spec = specFor(apiVersion, kind);
  if (!spec) throw new Error(`no protobuf schema for ${apiVersion}, Kind=${kind}`);
  return envelope(apiVersion, kind, encodeMessage(v, spec));
}

/** One length-delimited watch frame around an already enveloped object. */
export function protobufWatchFrame(type: string, enveloped: Uint8Array): Buffer {
  const rawExt = new Writer();
  rawExt.tag(1, WIRE_LEN);
  rawExt.bytes(enveloped);
  const ev = new Writer();
  ev.tag(1, WIRE_LEN);
  ev.string(type);
  ev.tag(2, WIRE_LEN);
  ev.bytes(rawExt.finish());
  const body = ev.finish();
  const out = Buffer.allocUnsafe(4 + body.byteLength);
  out.writeUInt32BE(body.byteLength, 0);
  out.set(body, 4);
  return out;
}

function varint(n: number): Buffer {
  const bytes: number[] = [];
  let v = n;
  while (v >= 0x80) {
    bytes.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  bytes.push(v);
  return Buffer.from(bytes);
}

const TAG1 = Buffer.from([0x0a]);
const TAG2 = Buffer.from([0x12]);
const EMPTY_TAGS_3_4 = Buffer.from([0x1a, 0x00, 0x22, 0x00]);

/** The raw (un-enveloped) message of a cached object, memoized on it like the other encodings. */
export function cachedProtobufRaw(co: CachedObject, spec: MessageSpec): Uint8Array {
  let b = co.encoded.get('protobuf-raw');
  if (!b) {
    b = encodeMessage(co.object, spec);
    co.encoded.set('protobuf-raw', b);
  }
  return b;
}

/** Fills one list item's cached raw message (nothing when the kind has no schema). */
export function encodeProtobufItem(apiVersion: string, kind: string, co: CachedObject): void {
  const spec = protobufMessageFor(apiVersion, kind);
  if (spec) cachedProtobufRaw(co, spec);
}

/**
 * A protobuf list response as chunks: the envelope and list framing around each item's cached raw message,
 * so a large list is neither re-encoded nor copied into one buffer. Undefined when the kind has no schema.
 */
export function protobufListChunks(apiVersion: string, kind: string, listKind: string, meta: ListMeta,
  items: readonly CachedObject[]): Uint8Array[] | undefined {
  const itemSpec = protobufMessageFor(apiVersion, kind);
  if (!itemSpec || !protobufMessageFor(apiVersion, listKind)) return undefined;
  const listMeta = encodeMessage(meta, messageSpec('meta.ListMeta'));
  const body: Uint8Array[] = [TAG1, varint(listMeta.byteLength), listMeta];
  for (const co of items) {
    const raw = cachedProtobufRaw(co, itemSpec);
    body.push(TAG2, varint(raw.byteLength), raw);
  }
  let rawLen = 0;
  for (const c of body) rawLen += c.byteLength;
  const typeMeta = new Writer();
  typeMeta.tag(1, WIRE_LEN);
  typeMeta.string(apiVersion);
  typeMeta.tag(2, WIRE_LEN);
  typeMeta.string(listKind);
  const tm = typeMeta.finish();
  return [PROTOBUF_MAGIC, TAG1, varint(tm.byteLength), tm, TAG2, varint(rawLen), ...body, EMPTY_TAGS_3_4];
}
