/**
 * DELETE with kube's lifecycle (generic Store.Delete + rest.BeforeDelete):
 * - options validated (422 DeleteOptions), preconditions checked (409 naming the Kind);
 * - graceful kinds (`strategy.gracefulDeletePeriod`): the first delete sets deletionTimestamp = now + grace and
 *   deletionGracePeriodSeconds; later deletes may only shorten the grace (a longer or equal one changes nothing);
 *   a delete of an object already at grace 0 removes it;
 * - garbage-collector finalizers: propagationPolicy Orphan / orphanDependents=true add `orphan`, Foreground adds
 *   `foregroundDeletion` (and each removes the other);
 * - with finalizers pending the object stays with deletionTimestamp set and grace 0 (generation +1 once);
 * - otherwise the key is deleted, guarded by the revision the decision was made on (retried on a lost race).
 * - `ignoreStoreReadErrorWithClusterBreakingPotential` (passed only with the gate AllowUnsafeMalformedObjectDeletion
 *   on, after the handler authorized it): the unsafe delete of a corrupt object (corrupt-objects.ts); an
 *   undecodable object otherwise fails as kube's corrupt-object storage error.
 */
import type { KObject } from '../machinery/objects.ts';
import { errors } from '../machinery/errors.ts';
import type { KeyValue } from '../storage/interface.ts';
import type { DeleteParams, DeleteResult, OpContext } from './rest.ts';
import { optionsObject } from './admission.ts';
import { clone, jsonEqual, rfc3339 } from './object-utils.ts';
import { validateDeleteParams } from './options.ts';
import { toStatusError } from './storage-errors.ts';
import type { StoreCore } from './store-core.ts';
import { CorruptObjectError, decodeOrCorrupt, unsafeDeleteCorrupt, wantsUnsafeDelete } from './corrupt-objects.ts';

const MAX_ATTEMPTS = 32;

/** BeforeDelete's precondition checks: 409 Conflict on the Kind (e.g. `ConfigMap "x"`). */
export function checkPreconditions(core: StoreCore, obj: KObject, params: DeleteParams): void {
  const pre = params.preconditions;
  if (!pre) return;
  const name = obj.metadata.name ?? '';
  if (pre.uid !== undefined && pre.uid !== (obj.metadata.uid ?? '')) {
    throw errors.conflict(core.kind(name), `the UID in the precondition (${pre.uid}) does not match the UID in record (${obj.metadata.uid ?? ''}). The object might have been deleted and then recreated`);
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== (obj.metadata.resourceVersion ?? '')) {
    throw errors.conflict(core.kind(name), `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${obj.metadata.resourceVersion ?? ''}). The object might have been modified`);
  }
}

/** deletionFinalizersForGarbageCollection: the finalizers after this delete and whether they changed. */
export function gcFinalizers(core: StoreCore, obj: KObject, params: DeleteParams): { changed: boolean; finalizers: string[] } {
  const current = obj.metadata.finalizers ?? [];
  const policy = core.strategy.defaultGarbageCollectionPolicy ?? 'background';
  if (!core.garbageCollection || policy === 'unsupported') return { changed: false, finalizers: current };
  // The first GC finalizer already present decides when the options name no policy.
  const first = current.find((f) => f === 'orphan' || f === 'foregroundDeletion');
  let orphan: boolean;
  if (params.orphanDependents !== undefined) orphan = params.orphanDependents;
  else if (params.propagationPolicy) orphan = params.propagationPolicy === 'Orphan';
  else if (first) orphan = first === 'orphan';
  else orphan = policy === 'orphan';
  let foreground: boolean;
  if (params.orphanDependents !== undefined) foreground = false;
  else if (params.propagationPolicy) foreground = params.propagationPolicy === 'Foreground';
  else foreground = first === 'foregroundDeletion';
  const next = current.filter((f) => f !== 'orphan' && f !== 'foregroundDeletion');
  if (orphan) next.push('orphan');
  if (foreground) next.push('foregroundDeletion');
  const a = new Set(current);
  const b = new Set(next);
  const changed = a.size !== b.size || [...a].some((f) => !b.has(f));
  return { changed, finalizers: changed ? next : current };
}

/** markAsDeleting: deletionTimestamp now (unless earlier), grace 0, generation +1 on the first mark. */
export function markAsDeleting(obj: KObject, now: Date): void {
  const meta = obj.metadata;
  if (!meta.deletionTimestamp && (meta.generation ?? 0) > 0) meta.generation = meta.generation! + 1;
  if (!meta.deletionTimestamp || Date.parse(meta.deletionTimestamp) > now.getTime()) meta.deletionTimestamp = rfc3339(now);
  meta.deletionGracePeriodSeconds = 0;
}

interface GracefulDecision {
  graceful: boolean;
  pending: boolean;
  /** The grace period that ends up on the object (when graceful). */
  period: number;
}

/** rest.BeforeDelete's graceful part; mutates `obj` when the deletion becomes or stays graceful. */
function decideGraceful(core: StoreCore, obj: KObject, params: DeleteParams, now: Date): GracefulDecision {
  const strategy = core.strategy;
  let requested = params.gracePeriodSeconds;
  if (requested !== undefined && requested < 0) requested = 1;
  const meta = obj.metadata;
  if (meta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds < 0) meta.deletionGracePeriodSeconds = 1;
  if (!strategy.gracefulDeletePeriod) return { graceful: false, pending: false, period: 0 };
  if (meta.deletionTimestamp) {
    const current = meta.deletionGracePeriodSeconds;
    if (current === undefined || current === 0) return { graceful: false, pending: false, period: 0 };
    if (requested === undefined || requested >= current) return { graceful: false, pending: true, period: current };
    // Only a shorter grace period may be given: move the timestamp back by the difference, never into the past.
    let period = requested;
    let ts = Date.parse(meta.deletionTimestamp) - current * 1000 + requested * 1000;
    if (ts < now.getTime()) {
      ts = now.getTime();
      if (period !== 0) period = 1;
    }
    meta.deletionTimestamp = rfc3339(new Date(ts));
    meta.deletionGracePeriodSeconds = period;
    return { graceful: true, pending: false, period };
  }
  const period = strategy.gracefulDeletePeriod(obj, requested);
  if (!(period > 0)) return { graceful: false, pending: false, period: 0 };
  meta.deletionTimestamp = rfc3339(new Date(now.getTime() + period * 1000));
  meta.deletionGracePeriodSeconds = period;
  if ((meta.generation ?? 0) > 0) meta.generation = meta.generation! + 1;
  return { graceful: true, pending: false, period };
}

/** DeleteOptions as admission sees them. */
function deleteOptions(ctx: OpContext, params: DeleteParams): Record<string, unknown> {
  return optionsObject('DeleteOptions', {
    gracePeriodSeconds: params.gracePeriodSeconds, preconditions: params.preconditions, orphanDependents: params.orphanDependents,
    propagationPolicy: params.propagationPolicy, dryRun: ctx.dryRun ? ['All'] : undefined,
  });
}

/** Both admission phases of a delete, against the object as it is now (kube's deleteValidation, run per try). */
export async function admitDelete(core: StoreCore, ctx: OpContext, name: string, existing: KObject, params: DeleteParams): Promise<void> {
  const admission = core.admission();
  if (!admission) return;
  const attrs = core.admissionAttributes(ctx, { operation: 'DELETE', name, oldObject: existing, options: deleteOptions(ctx, params) });
  await admission.admit(attrs);
  await admission.validate(attrs);
}

export async function deleteObject(core: StoreCore, ctx: OpContext, name: string, params: DeleteParams): Promise<DeleteResult> {
  validateDeleteParams(params);
  if (wantsUnsafeDelete(params)) return unsafeDeleteCorrupt(core, ctx, name);
  const key = core.key(ctx, name);
  const writer = core.writer(ctx);
  const site = { op: 'delete' as const, resource: core.def.resource, group: core.def.group };
  let kv: KeyValue | undefined;
  try {
    kv = await core.store.get(key);
  } catch (e) {
    throw toStatusError(e, site);
  }
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (!kv) throw errors.notFound(core.resource(name));
    let existing: KObject;
    try {
      existing = decodeOrCorrupt(core, kv);
    } catch (e) {
      throw e instanceof CorruptObjectError ? e.toStatusError(ctx.unsafeMalformedObjectDeletion === true) : e;
    }
    checkPreconditions(core, existing, params);
    const now = core.now();
    const obj = clone(existing);
    const g = decideGraceful(core, obj, params, now);
    if (g.pending) return { object: existing, deleted: false };
    await admitDelete(core, ctx, name, existing, params);
    const fin = gcFinalizers(core, obj, params);
    if (fin.changed) obj.metadata.finalizers = fin.finalizers;
    if (obj.metadata.finalizers && obj.metadata.finalizers.length === 0) delete obj.metadata.finalizers;
    const pendingFinalizers = (obj.metadata.finalizers ?? []).length > 0;
    let deleteFrom = kv;
    if (g.graceful || pendingFinalizers || fin.changed) {
      if (!g.graceful && pendingFinalizers) markAsDeleting(obj, now);
      if (!g.graceful && pendingFinalizers && jsonEqual(obj, existing)) {
        // Already marked (a repeated delete): like etcd's GuaranteedUpdate, an unchanged object is not rewritten.
        return { object: existing, deleted: false };
      }
      if (g.graceful || pendingFinalizers) {
        let res;
        try {
          res = await writer.update(key, core.encode(obj), { expectedModRevision: kv.modRevision });
        } catch (e) {
          throw toStatusError(e, site);
        }
        if (!res.succeeded) {
          kv = res.current;
          continue;
        }
        if (pendingFinalizers || g.period > 0) return { object: core.decode(res.kv), deleted: false };
        if (ctx.dryRun) return { object: core.decode(res.kv), deleted: true };
        deleteFrom = res.kv;
      }
    }
    let del;
    try {
      del = await writer.delete(key, { expectedModRevision: deleteFrom.modRevision });
    } catch (e) {
      throw toStatusError(e, site);
    }
    if (del.succeeded) return { object: core.decode(del.prevKv ?? deleteFrom), deleted: true };
    kv = del.current;
  }
  throw errors.conflict(core.resource(name));
}
