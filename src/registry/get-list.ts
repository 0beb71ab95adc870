/** GET of one object and LIST of a collection (resourceVersion table, selectors, chunking with continue tokens). */
import { makePredicate } from './predicate.ts';
import { errors } from '../machinery/errors.ts';
import type { CachedObject, ObjectListOptions, SelectionPredicate } from '../storage/cacher/types.ts';
import type { GetParams, ListParams, ListResult, OpContext } from './rest.ts';
import { allowedFieldKeys } from './codec.ts';
import { continueAfter, encodeContinue } from './continue-token.ts';
import { planList, readAtForGet, validateListParams } from './options.ts';
import { toStatusError } from './storage-errors.ts';
import type { StoreCore } from './store-core.ts';
import { corruptListError, findCorrupt, throwIfCorrupt } from './corrupt-objects.ts';

/*
 * Readers skip stored values they cannot decode. GET reports such a value as kube's corrupt-object error (a
 * second storage read, only on the not-found path); LIST does when the server runs with the gate
 * AllowUnsafeMalformedObjectDeletion (`OpContext.unsafeMalformedObjectDeletion`), by comparing the store's
 * count at the list's revision with what the reader returned (one count-only read per unfiltered, complete list).
 */

export async function getObject(core: StoreCore, ctx: OpContext, name: string, params: GetParams): Promise<CachedObject> {
  const read = readAtForGet(params.resourceVersion);
  let found: CachedObject | undefined;
  try {
    found = await core.reader.get(core.key(ctx, name), { read });
  } catch (e) {
    throw toStatusError(e, { op: 'get' });
  }
  if (!found) {
    await throwIfCorrupt(core, core.key(ctx, name), ctx.unsafeMalformedObjectDeletion === true);
    throw errors.notFound(core.resource(name));
  }
  return core.view(found);
}

export function predicateFor(core: StoreCore, p: { labelSelector?: string; fieldSelector?: string }): SelectionPredicate {
  return makePredicate({
    ...(p.labelSelector !== undefined ? { labelSelector: p.labelSelector } : {}),
    ...(p.fieldSelector !== undefined ? { fieldSelector: p.fieldSelector } : {}),
    allowedFields: allowedFieldKeys(core.def),
  });
}

export async function listObjects(core: StoreCore, ctx: OpContext, params: ListParams): Promise<ListResult> {
  validateListParams(params);
  const prefix = core.prefix(ctx);
  const plan = planList(params, prefix);
  const predicate = predicateFor(core, params);
  // kube treats limit <= 0 as "no limit".
  const limit = params.limit && params.limit > 0 ? Math.floor(params.limit) : 0;
  const opts: ObjectListOptions = {
    read: plan.read,
    ...(limit ? { limit } : {}),
    // Tokens carry "<last key>\0" (inclusive start); the reader takes the last key itself (exclusive).
    ...(plan.startKey !== undefined ? { afterKey: plan.startKey.endsWith('\0') ? plan.startKey.slice(0, -1) : plan.startKey } : {}),
    ...(predicate.empty ? {} : { predicate }),
  };
  let res;
  try {
    res = await core.reader.list(prefix, opts);
  } catch (e) {
    // kube hands back a token at revision -1 (latest) from the same position, to go on inconsistently.
    const inconsistentContinue = plan.continuing && plan.startKey !== undefined ? encodeContinue(plan.startKey, prefix, -1) : undefined;
    throw toStatusError(e, { op: 'list', continuing: plan.continuing, ...(inconsistentContinue ? { inconsistentContinue } : {}) });
  }
  if (ctx.unsafeMalformedObjectDeletion === true && predicate.empty && !plan.continuing && (!limit || res.lastKey === undefined)) {
    await checkListForCorrupt(core, prefix, res.revision, res.items.length);
  }
  const out: { items: CachedObject[]; resourceVersion: string; continue?: string; remainingItemCount?: number } = {
    items: core.converter ? res.items.map((i) => core.view(i)) : res.items,
    resourceVersion: String(res.revision),
  };
  if (limit && res.lastKey !== undefined) {
    out.continue = continueAfter(res.lastKey, prefix, res.revision);
    if (predicate.empty && res.remaining !== undefined) out.remainingItemCount = res.remaining;
  }
  return out;
}

/** Throws kube's StoreReadError when the store holds more keys under `prefix` than the reader could decode. */
async function checkListForCorrupt(core: StoreCore, prefix: string, revision: number, decoded: number): Promise<void> {
  let count: number;
  try {
    count = (await core.store.range(prefix, { revision, countOnly: true })).count;
  } catch {
    return; // history gone or store busy: the reader's answer stands
  }
  if (count <= decoded) return;
  const { corrupt, more } = await findCorrupt(core, prefix, revision);
  if (corrupt.length) throw corruptListError(core, corrupt, more);
}
