/**
 * JSON type checks of ObjectMeta before any rule runs, so a body with e.g. `labels: "x"` is a 400 as in kube
 * (its decoder fails: `ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal string
 * into Go struct field ObjectMeta.metadata.labels of type map[string]string`) and never a crash further on.
 * Schemas for whole kinds come with the catalog issue; this covers the metadata the registry itself reads.
 */
import type { KObject } from '../../machinery/objects.ts';
import type { ResourceDef } from '../../api/types.ts';
import { errors } from '../../machinery/errors.ts';

type Check = 'string' | 'int64' | 'time' | 'map[string]string' | '[]string' | '[]object';

const FIELDS: Record<string, Check> = {
  name: 'string', generateName: 'string', namespace: 'string', selfLink: 'string', uid: 'string',
  resourceVersion: 'string', generation: 'int64', creationTimestamp: 'time', deletionTimestamp: 'time',
  deletionGracePeriodSeconds: 'int64', labels: 'map[string]string', annotations: 'map[string]string',
  finalizers: '[]string', ownerReferences: '[]object', managedFields: '[]object',
};

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

/** Throws kube's decode error (400) for the first metadata field of the wrong JSON type. */
export function checkMetaTypes(def: Pick<ResourceDef, 'kind' | 'version'>, obj: KObject): void {
  const fail = (jt: string, path: string, goType: string) => {
    throw errors.badRequest(`${def.kind} in version ${JSON.stringify(def.version)} cannot be handled as a ${def.kind}: json: cannot unmarshal ${jt} into Go struct field ObjectMeta.metadata.${path} of type ${goType}`);
  };
  const meta = obj.metadata as unknown;
  if (meta === undefined || meta === null) return;
  if (typeof meta !== 'object' || Array.isArray(meta)) {
    throw errors.badRequest(`${def.kind} in version ${JSON.stringify(def.version)} cannot be handled as a ${def.kind}: json: cannot unmarshal ${jsonType(meta)} into Go struct field ${def.kind}.metadata of type v1.ObjectMeta`);
  }
  for (const [k, check] of Object.entries(FIELDS)) {
    const v = (meta as Record<string, unknown>)[k];
    if (v === undefined || v === null) continue; // null decodes to the zero value
    const jt = jsonType(v);
    switch (check) {
      case 'string':
        if (jt !== 'string') fail(jt, k, 'string');
        break;
      case 'time':
        if (jt !== 'string') fail(jt, k, 'string');
        break;
      case 'int64':
        if (jt !== 'number' || !Number.isInteger(v)) fail(jt === 'number' ? 'number ' + String(v) : jt, k, 'int64');
        break;
      case 'map[string]string':
        if (jt !== 'object') fail(jt, k, 'map[string]string');
        for (const x of Object.values(v as Record<string, unknown>)) if (x !== null && typeof x !== 'string') fail(jsonType(x), k, 'string');
        break;
      case '[]string':
        if (jt !== 'array') fail(jt, k, '[]string');
        for (const x of v as unknown[]) if (x !== null && typeof x !== 'string') fail(jsonType(x), k, 'string');
        break;
      case '[]object':
        if (jt !== 'array') fail(jt, k, k === 'ownerReferences' ? '[]v1.OwnerReference' : '[]v1.ManagedFieldsEntry');
        for (const x of v as unknown[]) {
          if (x === null || typeof x !== 'object' || Array.isArray(x)) fail(jsonType(x), k, k === 'ownerReferences' ? 'v1.OwnerReference' : 'v1.ManagedFieldsEntry');
        }
        break;
    }
  }
}
