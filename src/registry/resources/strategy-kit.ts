/**
 * Strategy pieces shared by many kinds, after kube's registry strategies:
 *   - kinds with a `status` sub-resource: writes to the main resource keep the stored status; writes to
 *     `/status` keep everything but status (and reset metadata as metav1.ResetObjectMetaForStatus does);
 *   - kinds that track `metadata.generation` say so (`tracksGeneration`); the generic store sets it to 1 on
 *     create and bumps it when anything but metadata and status changes.
 * The generic store applies the same status rules before calling these hooks; repeating them here keeps a
 * strategy correct on its own (they are idempotent).
 */
import type { KObject, StrategyContext } from '../../api/types.ts';
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

/** True when anything outside metadata/status differs (JSON comparison; key order does not matter). */
export function specChanged(obj: KObject, old: KObject): boolean {
  const keys = new Set([...Object.keys(obj), ...Object.keys(old)]);
  for (const k of keys) {
    if (TOP_LEVEL_KEEP.has(k)) continue;
    if (!deepEqual(obj[k], old[k])) return true;
  }
  return false;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => deepEqual(v, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => deepEqual(ao[k], bo[k]));
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
