/**
 * Which of our messages are API kinds (carry TypeMeta and `x-kubernetes-group-version-kind` in kube's
 * OpenAPI), and the API group of a protobuf package. A kind is a message with object metadata that is not a
 * template (templates embed ObjectMeta but are never sent on their own), or a list (list metadata + items).
 */
import { hasMessage, messageSpec } from '../protobuf/schema.ts';

/** Packages whose API group is not `<first label>.k8s.io`. */
const GROUP_OF_BASE: Record<string, string> = {
  core: '', apps: 'apps', batch: 'batch', autoscaling: 'autoscaling', policy: 'policy',
  flowcontrol: 'flowcontrol.apiserver.k8s.io', apiserverinternal: 'internal.apiserver.k8s.io', rbac: 'rbac.authorization.k8s.io',
};

/** The API group served from a protobuf package base: `apps` → `apps`, `rbac` → `rbac.authorization.k8s.io`. */
export function groupOfPackage(base: string): string {
  return GROUP_OF_BASE[base] ?? `${base}.k8s.io`;
}

function fieldType(fullName: string, json: string): string | undefined {
  const f = messageSpec(fullName).byJson.get(json);
  return f?.type.kind === 'message' ? f.type.name : undefined;
}

/** meta/v1 types that are kinds of the core group; DeleteOptions carries TypeMeta too (its GVKs: see below). */
const META_KINDS = new Set(['APIGroup', 'APIGroupList', 'APIResourceList', 'APIVersions', 'Status']);

/** Whether the message's JSON carries `apiVersion` and `kind` (Go's embedded TypeMeta). */
export function hasTypeMeta(fullName: string): boolean {
  return kindOfMessage(fullName) !== undefined || fullName === 'meta.DeleteOptions';
}

/**
 * `{ group, kind, version }` when the message is an API kind, else undefined. (kube also tags meta's
 * DeleteOptions and WatchEvent with one GVK per group version it ever registered; we leave those out.)
 */
export function kindOfMessage(fullName: string): { group: string; kind: string; version: string } | undefined {
  const parts = fullName.split('.');
  if (parts.length === 2 && parts[0] === 'meta' && META_KINDS.has(parts[1]!)) return { group: '', kind: parts[1]!, version: 'v1' };
  if (parts.length !== 3) return undefined; // meta, util, runtime: not in a group version
  const [base, version, kind] = parts as [string, string, string];
  const meta = fieldType(fullName, 'metadata');
  const isList = meta === 'meta.ListMeta' && messageSpec(fullName).byJson.has('items');
  const isObject = meta === 'meta.ObjectMeta'
    && (hasMessage(`${fullName}List`) || !/Template(Spec)?$/.test(kind));
  if (!isList && !isObject) return undefined;
  return { group: groupOfPackage(base), kind, version };
}
