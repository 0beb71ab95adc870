/**
 * Typed storage errors → the StatusErrors kube-apiserver answers with (wiring.md "registry maps them").
 * Anything already a StatusError passes through.
 */
import { errors, StatusError } from '../machinery/errors.ts';
import {
  CompactedError, FutureRevisionError, StorageUnavailableError, StoreClosedError, ValueTooLargeError,
} from '../storage/interface.ts';

/** What the failing operation was doing, for messages that depend on it. */
export interface ErrorSite {
  readonly op: 'get' | 'list' | 'watch' | 'create' | 'update' | 'delete';
  /** A list that continues with a token (compaction then means an expired token). */
  readonly continuing?: boolean;
  /** For an expired token: a token that resumes at the latest revision (kube's inconsistent continue). */
  readonly inconsistentContinue?: string;
  /** A resource (plural) for timeouts: `configmaps`. */
  readonly resource?: string;
  readonly group?: string;
}

const INCONSISTENT_CONTINUE = 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

function isTooOld(err: unknown): err is Error & { requestedRevision?: number; oldestRevision?: number; requested?: number; oldest?: number } {
  return err instanceof Error && (err.name === 'TooOldResourceVersionError' || err instanceof CompactedError);
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

export function toStatusError(err: unknown, site: ErrorSite): StatusError {
  if (err instanceof StatusError) return err;
  if (err instanceof FutureRevisionError) return errors.tooLargeResourceVersion(err.requestedRevision, err.currentRevision);
  if (isTooOld(err)) {
    if (site.op === 'list' && site.continuing) {
      const e = errors.expired(INCONSISTENT_CONTINUE);
      return site.inconsistentContinue ? new StatusError(e.code, e.reason, e.message, e.details, e.headers, { continue: site.inconsistentContinue }) : e;
    }
    if (site.op === 'list') return errors.expired('The resourceVersion for the provided list is too old.');
    if (site.op === 'watch') {
      const e = err as unknown as Record<string, unknown>;
      const asked = num(e['requestedRevision']) ?? num(e['requested']) ?? num(e['revision']);
      const oldest = err instanceof CompactedError ? err.compactedRevision : num(e['oldestRevision']) ?? num(e['oldest']);
      if (err.name === 'TooOldResourceVersionError' && asked === undefined) return errors.expired(err.message);
      return errors.expired(oldest !== undefined ? `too old resource version: ${asked} (${oldest})` : `too old resource version: ${asked}`);
    }
    return errors.expired(err.message);
  }
  if (err instanceof ValueTooLargeError) return errors.requestEntityTooLarge('etcdserver: request is too large');
  if (err instanceof StorageUnavailableError || err instanceof StoreClosedError) {
    if (site.resource && (site.op === 'create' || site.op === 'update' || site.op === 'delete')) {
      // kube's NewServerTimeout for an unreachable store on writes.
      const res = site.group ? `${site.resource}.${site.group}` : site.resource;
      return new StatusError(500, 'ServerTimeout', `The ${site.op} operation against ${res} could not be completed at this time, please try again.`,
        { kind: site.resource, ...(site.group ? { group: site.group } : {}), retryAfterSeconds: 2 }, { 'Retry-After': '2' });
    }
    return errors.serviceUnavailable(err.message);
  }
  return errors.internal(err instanceof Error ? err.message : String(err));
}
