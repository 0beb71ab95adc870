/**
 * How objects of one resource live in storage: keys in kube-apiserver's etcd layout and values as JSON bytes.
 *
 * Invariants:
 * - Stored bytes never carry `metadata.resourceVersion` (nor `selfLink`): like kube's etcd3 store, the version of
 *   an object IS the key's modRevision, set on every decode. A value written and read back therefore gets the
 *   revision of the write without a second write.
 * - Objects are written in kube's field order (kind, apiVersion, metadata, the rest, status last; metadata
 *   fields in ObjectMeta's struct order) so JSON output matches kube-apiserver's byte for byte where it can.
 * - A kv with modRevision 0 (a dry-run create, which was never written) decodes without a resourceVersion.
 *
 * Key layout: `<storagePrefix><namespace>/<name>` for namespaced resources, `<storagePrefix><name>` for cluster
 * ones, e.g. `/registry/configmaps/default/x`, `/registry/namespaces/x`.
 */
import type { KObject, ObjectMeta } from '../machinery/objects.ts';
import type { ResourceDef } from '../api/types.ts';
import type { KeyValue } from '../storage/interface.ts';
import type { ObjectAttrs, ObjectCodec } from '../storage/cacher/types.ts';

/** ObjectMeta's field order in kube's Go struct (what its JSON encoder emits). */
const META_ORDER = [
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers',
  'managedFields',
] as const;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Metadata rebuilt in kube's order; unknown keys keep their relative order at the end. */
export function orderMeta(meta: ObjectMeta, resourceVersion?: string): ObjectMeta {
  const src = meta as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of META_ORDER) {
    if (k === 'resourceVersion') {
      if (resourceVersion !== undefined) out[k] = resourceVersion;
      continue;
    }
    if (k === 'selfLink') continue;
    const v = src[k];
    if (v !== undefined && v !== null && v !== '') out[k] = v;
  }
  for (const k of Object.keys(src)) {
    if (!(k in out) && !(META_ORDER as readonly string[]).includes(k) && src[k] !== undefined) out[k] = src[k];
  }
  return out as ObjectMeta;
}

/** The object in kube's top-level order with metadata ordered; `resourceVersion` replaces whatever it had. */
export function canonicalObject(obj: KObject, resourceVersion?: string): KObject {
  const out: Record<string, unknown> = {};
  if (obj.kind !== undefined) out['kind'] = obj.kind;
  if (obj.apiVersion !== undefined) out['apiVersion'] = obj.apiVersion;
  out['metadata'] = orderMeta(obj.metadata ?? {}, resourceVersion);
  for (const [k, v] of Object.entries(obj)) {
    if (k !== 'kind' && k !== 'apiVersion' && k !== 'metadata' && k !== 'status' && v !== undefined) out[k] = v;
  }
  // Status is the last field of every kube kind that has one.
  if (obj['status'] !== undefined) out['status'] = obj['status'];
  return out as KObject;
}

/** Bytes to store: canonical order, no resourceVersion, no selfLink. */
export function encodeObject(obj: KObject): Uint8Array {
  return encoder.encode(JSON.stringify(canonicalObject(obj)));
}

/** Parses stored bytes and sets metadata.resourceVersion from the kv (absent for modRevision 0). */
export function decodeKv(kv: KeyValue): KObject {
  const obj = JSON.parse(decoder.decode(kv.value)) as KObject;
  return canonicalObject(obj, kv.modRevision > 0 ? String(kv.modRevision) : undefined);
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
    attrs: (obj) => objectAttrs(def, obj),
  };
}
