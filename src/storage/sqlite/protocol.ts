/**
 * Messages between the sqlite store (main thread) and its writer worker (worker.mjs) and checkpointer
 * (checkpointer.mjs). One `write` message carries a whole
 * batch of operations; the worker commits it as one transaction (one fsync) and answers with one `written`
 * message holding a result per operation, in order.
 */

export interface WorkerInit {
  readonly path: string;
  /** Test hook: cap the database size (SQLite `max_page_count`) to simulate a full disk. */
  readonly maxPageCount?: number;
  /** The writer connection's page cache in KiB (schema.ts DEFAULT_CACHE_KIB). */
  readonly cacheKiB: number;
}

export interface CheckpointerInit {
  readonly path: string;
  readonly intervalMs: number;
}

export type WriteOp =
  | { readonly op: 'create'; readonly key: string; readonly value: Uint8Array; readonly expiresAt: number | null }
  | { readonly op: 'update'; readonly key: string; readonly value: Uint8Array; readonly expected: number; readonly expiresAt: number | null }
  | { readonly op: 'delete'; readonly key: string; readonly expected: number | null };

/** A key's stored state as the worker reports it (the key and revision fields the main thread already knows). */
export interface StoredKv {
  readonly value: Uint8Array;
  readonly createRev: number;
  readonly modRev: number;
  readonly version: number;
}

export type OpResult =
  /** Committed at `rev`. `prev` is the replaced/deleted live value. */
  | { readonly ok: true; readonly rev: number; readonly createRev: number; readonly version: number; readonly prev?: StoredKv }
  /** Guard failed: nothing written. `current` is the key's live value, if any. */
  | { readonly ok: false; readonly current?: StoredKv }
  /** SQLite refused the write (disk full, I/O error): nothing written. */
  | { readonly ok: 'error'; readonly message: string };

export type ToWorker =
  | { readonly type: 'write'; readonly id: number; readonly ops: readonly WriteOp[] }
  | { readonly type: 'compact'; readonly id: number; readonly revision: number }
  | { readonly type: 'close'; readonly id: number };

export type FromWorker =
  | { readonly type: 'ready'; readonly revision: number; readonly compacted: number }
  | { readonly type: 'fatal'; readonly message: string }
  /** `revision`: the store's revision after the batch (the highest committed). */
  | { readonly type: 'written'; readonly id: number; readonly results: readonly OpResult[]; readonly revision: number }
  | { readonly type: 'done'; readonly id: number; readonly error?: string };

/** The statements of a value range (reader.ts RANGE_SQL), prepared by the range thread on its own connection. */
export interface RangeSql {
  readonly meta: string;
  readonly rangeCur: string;
  readonly countCur: string;
  readonly rangePast: string;
  readonly countPast: string;
}

export interface RangeThreadInit {
  readonly path: string;
  readonly sql: RangeSql;
}

/** One page of a value range: keys in [from, end), at most `limit` rows (-1: all), at `revision` (0: current). */
export interface RangePageRequest {
  readonly type: 'range';
  readonly id: number;
  readonly from: string;
  readonly end: string;
  readonly limit: number;
  readonly revision: number;
}

/**
 * A page as the range thread answers it: every value in one transferred buffer (value i is
 * `values[offsets[i]..offsets[i+1])`), and `nums` holding [modRevision, createRevision, version] per row.
 */
export type RangePageReply =
  | {
    readonly id: number; readonly ok: true; readonly keys: string[]; readonly values: Uint8Array; readonly offsets: Uint32Array;
    readonly nums: Float64Array; readonly more: boolean; readonly count: number; readonly revision: number;
  }
  | { readonly id: number; readonly ok: false; readonly error: 'compacted'; readonly requested: number; readonly compacted: number }
  | { readonly id: number; readonly ok: false; readonly error: 'future'; readonly requested: number; readonly current: number }
  | { readonly id: number; readonly ok: false; readonly error: 'sqlite'; readonly message: string };
