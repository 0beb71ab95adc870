/**
 * How objects of one resource live in storage: keys in kube-apiserver's etcd layout and values as JSON bytes
 * (values kube-apiserver wrote as protobuf are read too).
 *
 * Invariants:
 * - Stored bytes never carry `metadata.resourceVersion` (nor `selfLink`): like kube's etcd3 store, the version of
 *   an object IS the key's modRevision, set on every decode. A value written and read back therefore gets the
 *   revision of the write without a second write.
 * - Objects are written in the JSON shape kube's codec gives them (src/api/canonical.ts: Go field order, sorted
 *   maps, omitempty and zero values, canonical quantities; custom resources with sorted keys), so stored bytes
 *   and every answer match kube-apiserver's byte for byte.
 * - A kv with modRevision 0 (a dry-run create, which was never written) decodes without a resourceVersion.
 *
 * Key layout: `<storagePrefix><namespace>/<name>` for namespaced resources, `<storagePrefix><name>` for cluster
 * ones, e.g. `/registry/configmaps/default/x`, `/registry/namespaces/x`.
 */
import type { KObject } from '../machinery/objects.ts';
import { objectShape, type ObjectShape } from '../api/canonical.ts';
import { decodeProtobuf, protobufMessageFor } from '../api/protobuf/codec.ts';
import type { ResourceDef } from '../api/types.ts';
import type { KeyValue } from '../storage/interface.ts';
import { UntransformableValue } from '../storage/value/transforming-store.ts';
import type { ObjectAttrs, ObjectCodec } from '../storage/cacher/types.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const shapes = new Map<string, ObjectShape>();

/**
 * How objects of (apiVersion, kind) are written: typed for the catalog's built-in kinds, unstructured (keys
 * sorted) for everything else (custom resources).
 */
export function shapeFor(apiVersion: unknown, kind: unknown): ObjectShape {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return objectShape(undefined);
  const key = `${apiVersion}\0${kind}`;
  let s = shapes.get(key);
  if (!s) {
    s = objectShape(protobufMessageFor(apiVersion, kind)?.fullName);
    shapes.set(key, s);
  }
  return s;
}

/**
 * The object in kube's JSON shape (src/api/canonical.ts): what kube-apiserver's codec writes for it. `resourceVersion`
 * replaces whatever it had (undefined: none, as in stored bytes); `selfLink` is dropped.
 */
export function canonicalObject(obj: KObject, resourceVersion?: string): KObject {
  return shapeFor(obj.apiVersion, obj.kind).canonical(obj, resourceVersion) as KObject;
}

/** A canonical object with `metadata.resourceVersion` set in its place (undefined: removed). */
export function withResourceVersion(obj: KObject, resourceVersion: string | undefined): KObject {
  return shapeFor(obj.apiVersion, obj.kind).withResourceVersion(obj, resourceVersion) as KObject;
}

/** Bytes to store: the canonical object, no resourceVersion, no selfLink. */
export function encodeObject(obj: KObject): Uint8Array {
  return encoder.encode(JSON.stringify(canonicalObject(obj)));
}

/** Bytes of an object already canonical (from {@link canonicalObject}) with its resourceVersion removed. */
export function encodeCanonical(obj: KObject): Uint8Array {
  return encoder.encode(JSON.stringify(obj.metadata?.resourceVersion === undefined ? obj : withResourceVersion(obj, undefined)));
}

/**
 * Parses stored bytes and sets metadata.resourceVersion from the kv (absent for modRevision 0). Reads do not
 * canonicalize: every write stores the canonical form, and objects written by earlier versions are served as
 * stored until their next write (re-canonicalizing each read would double the decode cost; see BENCHMARKS.md).
 */
export function decodeKv(kv: KeyValue): KObject {
  const rv = kv.modRevision > 0 ? String(kv.modRevision) : undefined;
  // kube-apiserver stores built-in kinds as protobuf (`k8s\0` envelope); data it wrote is read as-is.
  if (isProtobufValue(checkedValue(kv))) return canonicalObject(decodeProtobuf(kv.value) as KObject, rv);
  return withResourceVersion(JSON.parse(decoder.decode(kv.value)) as KObject, rv);
}

/** decodeKv without placing metadata.resourceVersion: enough for selector attributes, and no copy. */
function decodeUnversioned(kv: KeyValue): KObject {
  const value = checkedValue(kv);
  if (isProtobufValue(value)) return canonicalObject(decodeProtobuf(value) as KObject);
  return JSON.parse(decoder.decode(value)) as KObject;
}

function checkedValue(kv: KeyValue): Uint8Array {
  // A value no encryption provider could read (corrupt-objects.ts reports it with kube's wording).
  if (kv.value instanceof UntransformableValue) throw new Error(`data from the storage is not transformable: ${kv.value.reason}`);
  return kv.value;
}

/** Whether stored bytes start with kube's protobuf magic `k8s\0` (JSON never starts with `k`). */
function isProtobufValue(v: Uint8Array): boolean {
  return v.byteLength > 4 && v[0] === 0x6b && v[1] === 0x38 && v[2] === 0x73 && v[3] === 0;
}

/** The storage key of one object. `namespace` is ignored for cluster-scoped resources. */
export function objectKey(def: Pick<ResourceDef, 'storagePrefix' | 'namespaced'>, namespace: string, name: string): string {
  return def.namespaced ? `${def.storagePrefix}${namespace}/${name}` : `${def.storagePrefix}${name}`;
}

/** Prefix of a list: one namespace (`<prefix><ns>/`) or everything (`<prefix>`, also for cluster scope). */
export function listPrefix(def: Pick<ResourceDef, 'storagePrefix' | 'namespaced'>, namespace: string): string {
  return def.namespaced && namespace ? `${def.storagePrefix}${namespace}/` : def.storagePrefix;
}

/** Field selector keys a resource supports: metadata.name, metadata.namespace and its selectable fields. */
export function allowedFieldKeys(def: Pick<ResourceDef, 'selectableFields'>): ReadonlySet<string> {
  return new Set(['metadata.name', 'metadata.namespace', ...Object.keys(def.selectableFields ?? {})]);
}

/** Selector attributes of one object: labels, name, namespace and the resource's selectable fields. */
export function objectAttrs(def: Pick<ResourceDef, 'selectableFields'>, obj: KObject): ObjectAttrs {
  const name = obj.metadata?.name ?? '';
  const namespace = obj.metadata?.namespace ?? '';
  const fields: Record<string, string> = { 'metadata.name': name, 'metadata.namespace': namespace };
  for (const [k, get] of Object.entries(def.selectableFields ?? {})) fields[k] = get(obj) ?? '';
  return { name, namespace, labels: obj.metadata?.labels ?? {}, fields };
}

/** The ObjectCodec handed to the watch cache / direct reader for one resource (one per storage prefix). */
export function createCodec(def: Pick<ResourceDef, 'selectableFields'>): ObjectCodec {
  return {
    decode: decodeKv,
    decodeForAttrs: decodeUnversioned,
    attrs: (obj) => objectAttrs(def, obj),
  };
}
