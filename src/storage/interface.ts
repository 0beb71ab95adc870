/**
 * The storage contract. It has etcd v3's semantics because etcd is the backend that must work at scale,
 * and every backend (memory, sqlite, etcd) and every wrapper (the watch cache, dry-run) implements it.
 *
 * Invariants every implementation keeps (the conformance suite in ./conformance checks each one):
 * - One global revision counter, strictly increasing, never reused, also across restarts. Every successful
 *   write (create, update, delete) gets its own new revision; a failed guard writes nothing and consumes none.
 * - A key's `modRevision` is the revision of its last write, `createRevision` the revision that created it,
 *   `version` counts writes since creation (1 after create). A deleted and re-created key starts over.
 * - Reads at an older revision (`get`/`range` with `revision`) see exactly the state after that revision,
 *   as long as it has not been compacted away (then `CompactedError`). A revision above the current one is a
 *   `FutureRevisionError`.
 * - Watches deliver every change after `fromRevision` exactly once, in revision order, each with the previous
 *   value of the key. Events of one revision are delivered together.
 * - Values are opaque bytes of at most `MAX_VALUE_BYTES`; larger ones are refused with `ValueTooLargeError`
 *   and nothing is written.
 *
 * Example (optimistic update loop, no extra read needed on conflict):
 * ```ts
 * let cur = await store.get(key);
 * for (;;) {
 *   const r = await store.update(key, mutate(cur!.value), { expectedModRevision: cur!.modRevision });
 *   if (r.succeeded) break;
 *   cur = r.current; // the value that beat us; undefined if the key was deleted meanwhile
 * }
 * ```
 */

/** etcd's default `--max-request-bytes` (1.5 MiB): the largest value a store accepts. */
export const MAX_VALUE_BYTES = 1.5 * 1024 * 1024;

export type Bytes = Uint8Array;

export interface KeyValue {
  readonly key: string;
  readonly value: Bytes;
  /** Revision at which the key was created (its latest incarnation). */
  readonly createRevision: number;
  /** Revision of the key's last modification. The Kubernetes resourceVersion of an object. */
  readonly modRevision: number;
  /** Number of writes since creation: 1 after create. */
  readonly version: number;
}

export interface GetOptions {
  /** Read as of this revision (0 or unset = current). */
  readonly revision?: number;
}

export interface RangeOptions {
  /** Read as of this revision (0 or unset = current, a consistent read). */
  readonly revision?: number;
  /** At most this many items (0 or unset = all). `more` tells whether items were left out. */
  readonly limit?: number;
  /** First key to return (inclusive); must be inside the prefix. Used for continue tokens. */
  readonly startKey?: string;
  /** Return keys and revisions with empty values. */
  readonly keysOnly?: boolean;
  /** Return no items, only `count`. */
  readonly countOnly?: boolean;
  /**
   * A page of a long scan (after its first page): a backend may read it off the main thread. Only a hint;
   * the answer is the same.
   */
  readonly bulk?: boolean;
}

export interface RangeResult {
  readonly items: KeyValue[];
  /** True when `limit` cut the result short. */
  readonly more: boolean;
  /** Number of keys in the range from `startKey` on (ignoring `limit`). */
  readonly count: number;
  /** The revision the read was served at (the current revision when none was asked). */
  readonly revision: number;
}

export interface WriteOptions {
  /** Optional lease/TTL in seconds (Kubernetes uses it for events). Backends without leases may ignore it. */
  readonly ttlSeconds?: number;
}

export interface GuardedWriteOptions extends WriteOptions {
  /** The write happens only if the key's current modRevision equals this. */
  readonly expectedModRevision: number;
}

export interface DeleteOptions {
  /** When set, the delete happens only if the key's current modRevision equals this. */
  readonly expectedModRevision?: number;
}

/** Outcome of a guarded write. A failed guard carries the current value (undefined: the key does not exist). */
export type TxnResult =
  | { readonly succeeded: true; readonly revision: number; readonly kv: KeyValue; readonly prevKv?: KeyValue }
  | { readonly succeeded: false; readonly current: KeyValue | undefined };

export type WatchEvent =
  | { readonly type: 'put'; readonly kv: KeyValue; readonly prevKv?: KeyValue }
  /** `kv.modRevision` is the delete's revision; `kv.value` is empty. `prevKv` holds the deleted value. */
  | { readonly type: 'delete'; readonly kv: KeyValue; readonly prevKv: KeyValue };

export interface WatchOptions {
  /** Deliver every change with revision > fromRevision. 0 = start from the current revision (no replay). */
  readonly fromRevision: number;
  /** Ask for progress notifications (the current revision when nothing else happens). */
  readonly progressNotify?: boolean;
}

export interface WatchListener {
  /** Events of one or more revisions, in revision order. Never called after `onError` or `dispose()`. */
  onEvents(events: readonly WatchEvent[]): void;
  /** All changes up to `revision` have been delivered. */
  onProgress?(revision: number): void;
  /** The watch ended and will deliver nothing more (e.g. CompactedError, StoreClosedError). */
  onError(err: Error): void;
}

export interface WatchHandle {
  /** Stop the watch; idempotent. */
  dispose(): void;
}

/** What serving one LIST from storage cost (kube's apiserver_storage_list_* counters). */
export interface ListCost {
  /** Keys read from the store, over every page fetched. */
  readonly fetched: number;
  /** Objects decoded and tested against the selector. */
  readonly evaluated: number;
  /** Objects the LIST handed back. */
  readonly returned: number;
}

export interface StoreReader {
  get(key: string, opts?: GetOptions): Promise<KeyValue | undefined>;
  range(prefix: string, opts?: RangeOptions): Promise<RangeResult>;
  /** The latest committed revision, read consistently (like a quorum read in etcd). */
  currentRevision(): Promise<number>;
  watch(prefix: string, opts: WatchOptions, listener: WatchListener): WatchHandle;
  /**
   * A LIST under `prefix` was served from this store (one or more ranges); instrumented stores count it.
   * Readers call it once per LIST, also when it failed part way, as kube records the cost even on errors.
   */
  noteList?(prefix: string, cost: ListCost): void;
}

export interface Store extends StoreReader {
  /** Create a key that must not exist. Fails (not throws) with the current value when it does. */
  create(key: string, value: Bytes, opts?: WriteOptions): Promise<TxnResult>;
  /** Replace a key guarded by its mod revision. Fails with the current value (or undefined) on a mismatch. */
  update(key: string, value: Bytes, opts: GuardedWriteOptions): Promise<TxnResult>;
  /** Delete a key, optionally guarded. A missing key fails with `current: undefined`. */
  delete(key: string, opts?: DeleteOptions): Promise<TxnResult>;
  /** Forget history at and below `revision`; reads and watches below it get `CompactedError`. */
  compact(revision: number): Promise<void>;
  /** The lowest revision still readable (compacted revision + 1), for diagnostics and the cache. */
  compactedRevision(): Promise<number>;
  /** Flush and release everything. Later calls fail with `StoreClosedError`. */
  close(): Promise<void>;
  /** Verifies the store's internal consistency; resolves with a list of problems (empty = healthy). */
  checkIntegrity?(): Promise<string[]>;
  /** Liveness of the backend for /readyz: resolves when it answers, rejects when unreachable. */
  ping?(): Promise<void>;
  /** The database's physically allocated bytes (etcd's Status dbSize), for apiserver_storage_size_bytes. */
  sizeBytes?(): Promise<number>;
}

// ---- Typed errors ----------------------------------------------------------------------------------------

export class StorageError extends Error {
  override name = 'StorageError';
}

/** A read or watch below the compacted revision. Becomes HTTP 410 Gone. */
export class CompactedError extends StorageError {
  override name = 'CompactedError';
  constructor(readonly requestedRevision: number, readonly compactedRevision: number) {
    super(`required revision ${requestedRevision} has been compacted (compacted revision ${compactedRevision})`);
  }
}

/** A read at a revision the store has not reached yet. Becomes 504 "Too large resource version". */
export class FutureRevisionError extends StorageError {
  override name = 'FutureRevisionError';
  constructor(readonly requestedRevision: number, readonly currentRevision: number) {
    super(`required revision ${requestedRevision} is a future revision (current revision ${currentRevision})`);
  }
}

export class ValueTooLargeError extends StorageError {
  override name = 'ValueTooLargeError';
  constructor(readonly size: number, readonly limit: number = MAX_VALUE_BYTES) {
    super(`value of ${size} bytes exceeds the store's limit of ${limit} bytes`);
  }
}

export class KeyOutsidePrefixError extends StorageError {
  override name = 'KeyOutsidePrefixError';
  constructor(readonly key: string, readonly prefix: string) {
    super(`key ${JSON.stringify(key)} is outside the store's prefix ${JSON.stringify(prefix)}`);
  }
}

export class StoreClosedError extends StorageError {
  override name = 'StoreClosedError';
  constructor() {
    super('the store is closed');
  }
}

/** The backend cannot be reached or failed to commit (disk full, connection lost). Nothing was written. */
export class StorageUnavailableError extends StorageError {
  override name = 'StorageUnavailableError';
}

/** Throws ValueTooLargeError when a value is over the limit. Backends call it before writing anything. */
export function checkValueSize(value: Bytes): void {
  if (value.byteLength > MAX_VALUE_BYTES) throw new ValueTooLargeError(value.byteLength);
}

/** Range end for a prefix scan, as etcd computes it: the prefix with its last byte incremented. */
export function prefixEnd(prefix: string): string {
  const buf = Buffer.from(prefix);
  for (let i = buf.length - 1; i >= 0; i--) {
    if (buf[i]! < 0xff) {
      buf[i] = buf[i]! + 1;
      return buf.subarray(0, i + 1).toString('latin1');
    }
  }
  return '\0';
}

/** Factory options shared by every backend. */
export interface BackendOptions {
  /** Reject writes of keys outside this prefix (e.g. `/registry/`). Empty = all keys allowed. */
  readonly keyPrefix?: string;
}
