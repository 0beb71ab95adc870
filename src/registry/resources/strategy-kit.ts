/**
 * Strategy pieces shared by many kinds, after kube's registry strategies:
 *   - kinds with a `status` sub-resource: writes to the main resource keep the stored status; writes to
 *     `/status` keep everything but status (and reset metadata as metav1.ResetObjectMetaForStatus does);
 *   - kinds that track `metadata.generation` say so (`tracksGeneration`); the generic store sets it to 1 on
 *     create and bumps it when anything but metadata and status changes.
 * The generic store applies the same status rules before calling these hooks; repeating them here keeps a
 * strategy correct on its own (they are idempotent).
 */
import type { KObject } from '../../machinery/objects.ts';
import type { StrategyContext } from '../../api/types.ts';
import type { RegistryStrategy } from '../strategy.ts';

const TOP_LEVEL_KEEP = new Set(['apiVersion', 'kind', 'metadata', 'status']);

export interface StatusStrategyOptions {
  /** The kind has a status sub-resource (status is owned by it). */
  status?: boolean;
  /** The kind carries metadata.generation (deployments, jobs, CRDs, …). */
  generation?: boolean;
  /** Extra create-time preparation (after status is cleared). */
  onCreate?: (obj: KObject, ctx: StrategyContext) => void;
  /** Extra update-time preparation for the main resource (after status is restored). */
  onUpdate?: (obj: KObject, old: KObject, ctx: StrategyContext) => void;
  /** Status writes: keep labels/annotations/finalizers/ownerReferences as stored (default true). */
  resetMetaForStatus?: boolean;
  /** The status value set on create (default: empty, as kube's PrepareForCreate resets it). */
  initialStatus?: (obj: KObject) => unknown;
  allowCreateOnUpdate?: boolean;
  allowUnconditionalUpdate?: boolean;
  /** kube's DefaultGarbageCollectionPolicy (events: unsupported). */
  gcPolicy?: RegistryStrategy['defaultGarbageCollectionPolicy'];
}

function clone<T>(v: T): T {
  return v === undefined ? v : structuredClone(v);
}

/** metav1.ResetObjectMetaForStatus: a status write may not change these metadata fields. */
export function resetObjectMetaForStatus(obj: KObject, old: KObject): void {
  const m = obj.metadata;
  const o = old.metadata;
  const keep = ['deletionTimestamp', 'generation', 'selfLink', 'labels', 'annotations', 'finalizers', 'ownerReferences'] as const;
  for (const k of keep) {
    if (o[k] === undefined) delete m[k];
    else (m as Record<string, unknown>)[k] = clone(o[k]);
  }
}

/** Restores everything but metadata and status from the stored object (the spec of a status write). */
export function keepAllButStatus(obj: KObject, old: KObject): void {
  for (const k of Object.keys(obj)) if (!TOP_LEVEL_KEEP.has(k)) delete obj[k];
  for (const k of Object.keys(old)) if (!TOP_LEVEL_KEEP.has(k)) obj[k] = clone(old[k]);
}

export function keepStatus(obj: KObject, old: KObject): void {
  if (old['status'] === undefined) delete obj['status'];
  else obj['status'] = clone(old['status']);
}

/** A Strategy implementing the status/spec split; `extra` hooks are merged in. */
export function statusStrategy(opts: StatusStrategyOptions, extra: Partial<RegistryStrategy> = {}): RegistryStrategy {
  const s: RegistryStrategy = {
    prepareForCreate(obj, ctx) {
      if (opts.status) obj['status'] = opts.initialStatus?.(obj) ?? {};
      opts.onCreate?.(obj, ctx);
    },
    prepareForUpdate(obj, old, ctx) {
      const sub = ctx.subresource ?? '';
      if (sub === 'status' && opts.status) {
        keepAllButStatus(obj, old);
        if (opts.resetMetaForStatus !== false) resetObjectMetaForStatus(obj, old);
        return;
      }
      if (opts.status) keepStatus(obj, old);
      opts.onUpdate?.(obj, old, ctx);
    },
    allowCreateOnUpdate: opts.allowCreateOnUpdate ?? false,
    allowUnconditionalUpdate: opts.allowUnconditionalUpdate ?? true,
  };
  if (opts.generation) s.tracksGeneration = true;
  if (opts.gcPolicy) s.defaultGarbageCollectionPolicy = opts.gcPolicy;
  return { ...s, ...extra };
}
