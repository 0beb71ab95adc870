/**
 * Registry-side additions to the `Strategy` contract (src/api/types.ts) and helpers per-kind strategies use.
 *
 * Hook order the generic store follows (types.ts):
 *   create: system fields (uid, creationTimestamp, name) → generic status reset → prepareForCreate → defaults
 *           → metadata validation + validate → warnings → canonicalize → managedFields → storage
 *   update: generation/uid/timestamps carried over → generic status rules → prepareForUpdate → defaults
 *           → metadata validation + validateUpdate (or validate) → generation bump → warnings → canonicalize
 *           → managedFields → storage (skipped when nothing changed)
 */
import type { KObject, ObjectMeta } from '../machinery/objects.ts';
import type { ResourceDef, Strategy } from '../api/types.ts';
import { clone } from './object-utils.ts';

/** Optional extras a strategy may carry (type a kind's strategy as `RegistryStrategy` to set them). */
export interface RegistryStrategy extends Strategy {
  /**
   * The kind keeps metadata.generation (deployments, jobs, CRDs, …; not configmaps, namespaces, services):
   * 1 on create, +1 when anything outside metadata and status changes (minus `generationIgnores`), +1 when
   * deletion starts. kube-apiserver does this per kind in its strategies; here it is one flag.
   */
  tracksGeneration?: boolean;
  /** Status changes bump generation too (custom resources without a status sub-resource, as kube's CR strategy). */
  generationIncludesStatus?: boolean;
  /**
   * The garbage collector's default for this kind when a delete names no policy: 'background' (default),
   * 'orphan' (adds the `orphan` finalizer), or 'unsupported' (never adds GC finalizers).
   */
  defaultGarbageCollectionPolicy?: 'background' | 'orphan' | 'unsupported';
  /**
   * Kinds with a status sub-resource normally get an empty status on create; true keeps the caller's status
   * (kube's nodes: the kubelet registers a node with its status).
   */
  allowStatusOnCreate?: boolean;
}

export function registryStrategy(def: ResourceDef): RegistryStrategy {
  return (def.strategy ?? {}) as RegistryStrategy;
}

export function hasSubresource(def: ResourceDef, name: string): boolean {
  return (def.subresources ?? []).some((s) => s.name === name);
}

/** Main-resource writes of kinds with a status sub-resource: status comes from the stored object. */
export function keepStatusOnUpdate(obj: KObject, old: KObject): void {
  if (old['status'] === undefined) delete obj['status'];
  else obj['status'] = clone(old['status']);
}

/** Create of a kind with a status sub-resource: the caller may not set status (an empty status remains). */
export function resetStatusOnCreate(obj: KObject): void {
  obj['status'] = {};
}

/** metav1.ResetObjectMetaForStatus: a status write keeps the stored labels, annotations, finalizers, owners, … */
export function resetObjectMetaForStatus(meta: ObjectMeta, old: ObjectMeta): void {
  const keep: (keyof ObjectMeta)[] = ['deletionTimestamp', 'generation', 'selfLink', 'labels', 'annotations', 'finalizers', 'ownerReferences'];
  const m = meta as Record<string, unknown>;
  const o = old as Record<string, unknown>;
  for (const k of keep) {
    if (o[k] === undefined) delete m[k];
    else m[k] = clone(o[k]);
  }
}

/** `…/status` writes: everything but status (and managedFields/resourceVersion) comes from the stored object. */
export function keepSpecOnStatusUpdate(obj: KObject, old: KObject): void {
  for (const k of Object.keys(obj)) {
    if (k !== 'status' && k !== 'metadata' && k !== 'kind' && k !== 'apiVersion') delete obj[k];
  }
  for (const [k, v] of Object.entries(old)) {
    if (k !== 'status' && k !== 'metadata' && k !== 'kind' && k !== 'apiVersion') obj[k] = clone(v);
  }
  resetObjectMetaForStatus(obj.metadata, old.metadata);
}
