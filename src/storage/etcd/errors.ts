/**
 * Maps etcd/gRPC failures to the store's typed errors. etcd reports its conditions as gRPC status
 * messages (`etcdserver: mvcc: required revision has been compacted`, …), so matching is by message first,
 * then by gRPC status code. Anything unrecognised stays a plain StorageError carrying etcd's text.
 */
import {
  CompactedError,
  FutureRevisionError,
  MAX_VALUE_BYTES,
  StorageError,
  StorageUnavailableError,
  ValueTooLargeError,
} from '../interface.ts';

/** What the failing call was about, to fill in the typed errors' numbers. */
export interface ErrorContext {
  /** The revision the call asked for (reads, watches, compaction). */
  readonly revision?: number;
  /** Best known compacted revision (etcd's message does not include it). */
  readonly compactedRevision?: number;
  /** Best known current revision. */
  readonly currentRevision?: number;
  /** Size of the value being written. */
  readonly valueSize?: number;
}

/** gRPC status codes we react to. */
const UNAVAILABLE = 14;
const DEADLINE_EXCEEDED = 4;
const CANCELLED = 1;
const RESOURCE_EXHAUSTED = 8;

function grpcCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'number') return code;
  // etcd3 rewrites grpc errors into its own classes and drops `code`; recover it from the class name.
  const name = (err as Error | null)?.constructor?.name ?? '';
  if (name === 'GRPCUnavailableError' || name === 'GRPCConnectFailedError') return UNAVAILABLE;
  if (name === 'GRPCDeadlineExceededError') return DEADLINE_EXCEEDED;
  if (name === 'GRPCCancelledError') return CANCELLED;
  if (name === 'GRPCResourceExhastedError') return RESOURCE_EXHAUSTED;
  return undefined;
}

const name = (err: unknown): string => (err as Error | null)?.name ?? '';

/**
 * True when the request certainly never reached etcd (no connection, member skipped), so sending it again
 * — even a write — cannot apply it twice.
 */
export function neverSent(err: unknown): boolean {
  if (name(err) === 'EtcdHostSkippedError') return true;
  const message = err instanceof Error ? err.message : String(err);
  return message.includes('No connection established') || message.includes('ECONNREFUSED');
}

export const isCompactedMessage = (m: string): boolean => m.includes('required revision has been compacted');
export const isFutureRevisionMessage = (m: string): boolean => m.includes('required revision is a future revision');

/** Converts any error from the etcd client into a StorageError subclass. StorageErrors pass through. */
export function mapEtcdError(err: unknown, ctx: ErrorContext = {}): StorageError {
  if (err instanceof StorageError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (isCompactedMessage(message)) {
    return new CompactedError(ctx.revision ?? 0, ctx.compactedRevision ?? 0);
  }
  if (isFutureRevisionMessage(message)) {
    return new FutureRevisionError(ctx.revision ?? 0, ctx.currentRevision ?? 0);
  }
  if (message.includes('request is too large') || message.includes('larger than max')) {
    return new ValueTooLargeError(ctx.valueSize ?? MAX_VALUE_BYTES + 1);
  }
  const code = grpcCode(err);
  if (code === RESOURCE_EXHAUSTED && ctx.valueSize !== undefined) {
    return new ValueTooLargeError(ctx.valueSize);
  }
  if (
    name(err) === 'EtcdHostSkippedError' ||
    code === UNAVAILABLE ||
    code === DEADLINE_EXCEEDED ||
    code === CANCELLED ||
    message.includes('no leader') ||
    message.includes('too many requests') ||
    message.includes('leader changed') ||
    message.includes('request timed out')
  ) {
    const e = new StorageUnavailableError(`etcd unavailable: ${message}`);
    (e as { cause?: unknown }).cause = err;
    return e;
  }
  const e = new StorageError(`etcd: ${message}`);
  (e as { cause?: unknown }).cause = err;
  return e;
}
