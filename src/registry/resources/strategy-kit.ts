/**
 * Strategy pieces shared by many kinds, after kube's registry strategies:
 *   - kinds with a `status` sub-resource: writes to the main resource keep the stored status; writes to
 *     `/status` keep everything but status (and reset metadata as metav1.ResetObjectMetaForStatus does);
 *   - kinds that track `metadata.generation` set it to 1 on create and bump it when anything but metadata
 *     and status changes (kube does this in each strategy; kinds without it never carry a generation).
 */
import type { KObject, Strategy, StrategyContext } from '../../api/types.ts';

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
  /** The status value set on create (default: removed). */
  initialStatus?: (obj: KObject) => unknown;
  allowCreateOnUpdate?: boolean;
  allowUnconditionalUpdate?: boolean;
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

/** A Strategy implementing the status/spec split and generation rules; `extra` hooks are merged in. */
export function statusStrategy(opts: StatusStrategyOptions, extra: Partial<Strategy> = {}): Strategy {
  const s: Strategy = {
    prepareForCreate(obj, ctx) {
      if (opts.status) {
        const init = opts.initialStatus?.(obj);
        if (init === undefined) delete obj['status'];
        else obj['status'] = init;
      }
      if (opts.generation) obj.metadata.generation = 1;
      else delete obj.metadata.generation;
      opts.onCreate?.(obj, ctx);
    },
    prepareForUpdate(obj, old, ctx) {
      const sub = ctx.subresource ?? '';
      if (sub === 'status' && opts.status) {
        keepAllButStatus(obj, old);
        if (opts.resetMetaForStatus !== false) resetObjectMetaForStatus(obj, old);
        if (opts.generation) obj.metadata.generation = old.metadata.generation ?? 1;
        return;
      }
      if (opts.status) keepStatus(obj, old);
      if (opts.generation) {
        const prev = old.metadata.generation ?? 1;
        obj.metadata.generation = specChanged(obj, old) ? prev + 1 : prev;
      } else {
        delete obj.metadata.generation;
      }
      opts.onUpdate?.(obj, old, ctx);
    },
    allowCreateOnUpdate: opts.allowCreateOnUpdate ?? false,
    allowUnconditionalUpdate: opts.allowUnconditionalUpdate ?? true,
  };
  return { ...s, ...extra };
}
