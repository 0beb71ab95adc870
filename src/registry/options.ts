/**
 * Query options checks and the resourceVersion table (SPEC "Resource version semantics"), worded as kube-apiserver:
 * - ListOptions problems → 422 `ListOptions.meta.k8s.io "" is invalid: …` (apimachinery ValidateListOptions);
 * - continue/resourceVersion clashes and bad tokens → 400 (apiserver storage.ValidateListOptions);
 * - DeleteOptions problems → 422 `DeleteOptions.meta.k8s.io "" is invalid: …`.
 */
import type { ReadAt } from '../storage/cacher/types.ts';
import type { DeleteParams, ListParams, WatchParams } from './rest.ts';
import { errors, field, type FieldError, type StatusError } from '../machinery/errors.ts';
import { decodeContinue, InvalidContinueError } from './continue-token.ts';

const MAX_UINT64 = 18446744073709551615n;

/**
 * Parses a resourceVersion as kube's APIObjectVersioner: "" and "0" → 0; digits → the number; anything else
 * fails with `resourceVersion: Invalid value: "x": strconv.ParseUint: parsing "x": invalid syntax`.
 */
export function parseResourceVersion(rv: string): number {
  if (rv === '' || rv === '0') return 0;
  if (!/^[0-9]+$/.test(rv)) throw new RvParseError(rv, 'invalid syntax');
  if (BigInt(rv) > MAX_UINT64) throw new RvParseError(rv, 'value out of range');
  return Number(rv);
}

export class RvParseError extends Error {
  override name = 'RvParseError';
  constructor(readonly rv: string, why: string) {
    super(`resourceVersion: Invalid value: ${JSON.stringify(rv)}: strconv.ParseUint: parsing ${JSON.stringify(rv)}: ${why}`);
  }
}

export function invalidResourceVersion(err: RvParseError): StatusError {
  return errors.badRequest(`invalid resource version: ${err.message}`);
}

function rvOrBadRequest(rv: string): number {
  try {
    return parseResourceVersion(rv);
  } catch (e) {
    if (e instanceof RvParseError) throw invalidResourceVersion(e);
    throw e;
  }
}

/** get: "" → consistent, "0" → any, N → not older than N. */
export function readAtForGet(rv: string | undefined): ReadAt {
  if (rv === undefined || rv === '') return { kind: 'consistent' };
  const n = rvOrBadRequest(rv);
  return n === 0 ? { kind: 'any' } : { kind: 'notOlderThan', revision: n };
}

function listOptionsInvalid(errs: FieldError[]): StatusError {
  return errors.invalid({ kind: 'ListOptions', group: 'meta.k8s.io' }, errs);
}

/** ValidateListOptions for a list (not a watch). */
export function validateListParams(p: ListParams): void {
  const errs: FieldError[] = [];
  const match = p.resourceVersionMatch ?? '';
  if (match) {
    if (!p.resourceVersion) errs.push(field.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (p.continue) errs.push(field.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') errs.push(field.notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && p.resourceVersion === '0') errs.push(field.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if ((p as WatchParams).sendInitialEvents !== undefined) errs.push(field.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  if (errs.length) throw listOptionsInvalid(errs);
}

/** validateWatchOptions (WatchList feature on unless `watchList` is false). */
export function validateWatchParams(p: WatchParams, watchList = true): void {
  const errs: FieldError[] = [];
  const match = p.resourceVersionMatch ?? '';
  if (p.sendInitialEvents !== undefined) {
    if (match !== 'NotOlderThan') errs.push(field.forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    if (!watchList) errs.push(field.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
  }
  if (match) {
    if (p.sendInitialEvents === undefined) errs.push(field.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (match !== 'NotOlderThan') errs.push(field.notSupported('resourceVersionMatch', match, ['NotOlderThan']));
    if (p.continue) errs.push(field.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  if (errs.length) throw listOptionsInvalid(errs);
}

/** How a list is served, after validation. */
export interface ListPlan {
  readonly read: ReadAt;
  /** Continue from this absolute key (inclusive) when paging with a token. */
  readonly startKey?: string;
  /** True when this page continues a list (the revision came from the token). */
  readonly continuing: boolean;
}

/**
 * The list row of the resourceVersion table. `prefix` is the list's key prefix (the token's `start` is relative
 * to it). Throws the 400s for bad tokens and for continue with a resourceVersion other than ""/"0".
 */
export function planList(p: ListParams, prefix: string): ListPlan {
  const rv = p.resourceVersion ?? '';
  if (p.continue) {
    let pos;
    try {
      pos = decodeContinue(p.continue, prefix);
    } catch (e) {
      if (e instanceof InvalidContinueError) throw errors.badRequest(`invalid continue token: ${e.message}`);
      throw e;
    }
    if (rv !== '' && rv !== '0') throw errors.badRequest('specifying resource version is not allowed when using continue');
    const read: ReadAt = pos.revision > 0 ? { kind: 'exact', revision: pos.revision } : { kind: 'consistent' };
    return { read, startKey: pos.startKey, continuing: true };
  }
  if (rv === '') return { read: { kind: 'consistent' }, continuing: false };
  const n = rvOrBadRequest(rv);
  const match = p.resourceVersionMatch ?? '';
  if (match === 'Exact') return { read: { kind: 'exact', revision: n }, continuing: false };
  if (match === 'NotOlderThan') return { read: n === 0 ? { kind: 'any' } : { kind: 'notOlderThan', revision: n }, continuing: false };
  // Legacy (no match): rv=0 → any; rv=N → not older than, or exact when paging.
  if (n === 0) return { read: { kind: 'any' }, continuing: false };
  if (p.limit && p.limit > 0) return { read: { kind: 'exact', revision: n }, continuing: false };
  return { read: { kind: 'notOlderThan', revision: n }, continuing: false };
}

/** ValidateDeleteOptions: 422 `DeleteOptions.meta.k8s.io "" is invalid: …`. */
export function validateDeleteParams(p: DeleteParams): void {
  const errs: FieldError[] = [];
  if (p.orphanDependents !== undefined && p.propagationPolicy !== undefined) {
    errs.push(field.invalid('propagationPolicy', p.propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  const pp = p.propagationPolicy as string | undefined;
  if (pp !== undefined && pp !== 'Foreground' && pp !== 'Background' && pp !== 'Orphan') {
    errs.push(field.notSupported('propagationPolicy', pp, ['Foreground', 'Background', 'Orphan', 'nil']));
  }
  if (errs.length) throw errors.invalid({ kind: 'DeleteOptions', group: 'meta.k8s.io' }, errs);
}
