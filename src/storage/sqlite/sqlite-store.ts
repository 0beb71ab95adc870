/**
 * The embedded default backend: SQLite with etcd semantics (see schema.ts for the layout).
 *
 * Writes are queued on the main thread and handed to the writer worker in batches — one postMessage and one
 * transaction (one fsync) per batch, the batch being whatever queued up while the previous one committed, so
 * batch size follows load (group commit). A write's promise resolves only after its batch committed. Reads
 * run synchronously on a main-thread connection (WAL snapshot, no fsync). Watches are fanned out in-process
 * from committed batches and replayed from the revision log for a past `fromRevision`.
 *
 * Invariants: batches are committed and published in order, at most one in flight; after close nothing is
 * accepted (StoreClosedError) and queued writes are flushed first; if the worker dies every pending write
 * rejects with StorageUnavailableError and the store refuses further writes.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Worker } from 'node:worker_threads';
import {
  FutureRevisionError,
  StorageUnavailableError,
  StoreClosedError,
  type Bytes,
  type DeleteOptions,
  type GetOptions,
  type GuardedWriteOptions,
  type KeyValue,
  type RangeOptions,
  type RangeResult,
  type Store,
  type TxnResult,
  type WatchEvent,
  type WatchHandle,
  type WatchListener,
  type WatchOptions,
  type WriteOptions,
} from '../interface.ts';
import { checkRevisionOption, checkWrite, RetentionClock, unrefInterval } from '../memory/backend-support.ts';
import { WatchHub } from '../memory/watch-hub.ts';
import type { FromWorker, OpResult, StoredKv, ToWorker, WriteOp } from './protocol.ts';
import { acquireStoreLock } from './lock.ts';
import { RANGE_SQL, rangeBounds, SqliteReader } from './reader.ts';
import { RangeThread } from './range-thread.ts';
import { DEFAULT_CACHE_KIB } from './schema.ts';
import { startCheckpointer, startWriter, stopCheckpointer } from './threads.ts';

export interface SqliteStoreOptions {
  /** Database file; its directory is created when missing. */
  readonly path: string;
  /** Reject writes of keys outside this prefix. */
  readonly keyPrefix?: string;
  /** Compact history older than this automatically. Default 5 minutes. */
  readonly historyRetentionMs?: number;
  /** How often automatic compaction runs. Default a fifth of the retention, at most a minute. */
  readonly compactionIntervalMs?: number;
  /** How often expired TTL keys are deleted. Default 1000 ms. */
  readonly ttlSweepMs?: number;
  /** Idle progress notification interval for watchers that ask for it. Default 1000 ms. */
  readonly progressIntervalMs?: number;
  /** Most operations per batch. Default 2048. */
  readonly maxBatchOps?: number;
  /** Test hook: cap the database size (SQLite max_page_count) to simulate a full disk. */
  readonly maxPageCount?: number;
  /** SQLite page cache of each connection (writer, reader), in KiB. Default DEFAULT_CACHE_KIB (schema.ts). */
  readonly cacheKiB?: number;
  /** How often the checkpointer thread copies the WAL into the database. Default 200 ms. */
  readonly checkpointIntervalMs?: number;
  /** How long a database locked by another owner is retried before the open is refused (see lock.ts). Default 2000 ms. */
  readonly lockWaitMs?: number;
  /** Called once the lock is held, before the writer thread has started (see factory.ts). */
  readonly onLocked?: () => void;
}

/** Most value bytes per batch: keeps one commit's latency and memory bounded. */
const MAX_BATCH_BYTES = 32 * 1024 * 1024;
const EMPTY = new Uint8Array(0);

interface Pending {
  readonly op: WriteOp;
  resolve(r: TxnResult): void;
  reject(err: Error): void;
}

export async function openSqliteStore(opts: SqliteStoreOptions): Promise<Store> {
  return SqliteStore.open(opts);
}

export class SqliteStore implements Store {
  private queue: Pending[] = [];
  private inFlight: Pending[] | undefined;
  private sendScheduled = false;
  private nextId = 1;
  private readonly controls = new Map<number, { resolve(): void; reject(err: Error): void }>();
  private closing: Promise<void> | undefined;
  private closed = false;
  private broken: Error | undefined;
  private drained: (() => void) | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly hub: WatchHub;
  private readonly keyPrefix: string;
  /** Bulk pages (RangeOptions.bulk) are read on this thread; it starts on the first one. */
  private readonly rangeThread: RangeThread;

  private constructor(
    private readonly opts: SqliteStoreOptions,
    private readonly worker: Worker,
    private readonly reader: SqliteReader,
    revision: number,
    private readonly checkpointer: Worker,
    private readonly releaseLock: () => void,
  ) {
    this.keyPrefix = opts.keyPrefix ?? '';
    this.rangeThread = new RangeThread({ path: opts.path, sql: RANGE_SQL });
    this.hub = new WatchHub({
      source: { readHistory: (p, a, u, l) => this.reader.history(p, a, u, l) },
      initialRevision: revision,
      progressIntervalMs: opts.progressIntervalMs,
    });
    worker.on('message', (m: FromWorker) => this.onMessage(m));
    worker.on('error', (err) => this.fail(new StorageUnavailableError(`sqlite writer failed: ${err.message}`)));
    worker.on('exit', () => this.fail(new StorageUnavailableError('sqlite writer exited')));
    const retention = opts.historyRetentionMs ?? 5 * 60_000;
    const clock = new RetentionClock(retention);
    const every = opts.compactionIntervalMs ?? Math.max(10, Math.min(60_000, Math.floor(retention / 5)));
    this.timers.push(
      unrefInterval(() => {
        const target = clock.sample(Date.now(), this.hub.revision);
        if (target > 0 && !this.closed && !this.broken) this.compact(target).catch(() => {});
      }, every),
      unrefInterval(() => this.sweepExpired(), opts.ttlSweepMs ?? 1000),
    );
  }

  /**
   * Locks the database (one owner) before any thread opens it, starts the writer, waits until the schema is
   * ready, opens the main-thread reader.
   */
  static async open(opts: SqliteStoreOptions): Promise<SqliteStore> {
    mkdirSync(dirname(opts.path), { recursive: true });
    const release = await acquireStoreLock(opts.path, { waitMs: opts.lockWaitMs });
    opts.onLocked?.();
    try {
      return await SqliteStore.start(opts, release);
    } catch (err) {
      release();
      throw err;
    }
  }

  private static async start(opts: SqliteStoreOptions, release: () => void): Promise<SqliteStore> {
    const cacheKiB = opts.cacheKiB ?? DEFAULT_CACHE_KIB;
    const { worker, revision } = await startWriter({ path: opts.path, maxPageCount: opts.maxPageCount, cacheKiB });
    let reader: SqliteReader;
    try {
      reader = new SqliteReader(opts.path, cacheKiB);
    } catch (err) {
      await worker.terminate();
      throw new StorageUnavailableError(`cannot open ${opts.path} for reading: ${(err as Error).message}`);
    }
    const checkpointer = startCheckpointer({ path: opts.path, intervalMs: opts.checkpointIntervalMs ?? 200 });
    return new SqliteStore(opts, worker, reader, revision, checkpointer, release);
  }

  // ---- reads ----

  async get(key: string, opts: GetOptions = {}): Promise<KeyValue | undefined> {
    this.assertReadable();
    return this.read(() => this.reader.get(key, checkRevisionOption(opts.revision)));
  }

  async range(prefix: string, opts: RangeOptions = {}): Promise<RangeResult> {
    this.assertReadable();
    checkRevisionOption(opts.revision);
    if (opts.bulk && !opts.keysOnly && !opts.countOnly) {
      const { from, end, limit } = rangeBounds(prefix, opts);
      if (from < end) return this.rangeThread.page({ from, end, limit, revision: opts.revision ?? 0 });
    }
    return this.read(() => this.reader.range(prefix, opts));
  }

  /**
   * The highest revision this process has published. The store has one owner (lock.ts) and every commit comes
   * back through onWritten, which publishes before it acknowledges, so no client can have seen a later
   * revision; consistent reads (every GET and LIST without a resourceVersion) ask this, so no SQL per request.
   */
  async currentRevision(): Promise<number> {
    this.assertReadable();
    return this.hub.revision;
  }

  /** The lowest readable revision: the last compact() target (reads at it still work), at least 1. */
  async compactedRevision(): Promise<number> {
    this.assertReadable();
    return this.read(() => Math.max(1, this.reader.meta().compacted));
  }

  watch(prefix: string, opts: WatchOptions, listener: WatchListener): WatchHandle {
    return this.hub.watch(prefix, opts, listener);
  }

  async checkIntegrity(): Promise<string[]> {
    this.assertReadable();
    return this.read(() => this.reader.integrity());
  }

  async ping(): Promise<void> {
    this.assertReadable();
    if (this.broken) throw this.broken;
    this.read(() => this.reader.meta());
  }

  // ---- writes ----

  create(key: string, value: Bytes, opts: WriteOptions = {}): Promise<TxnResult> {
    return this.enqueue(() => {
      checkWrite(key, value, this.keyPrefix);
      return { op: 'create', key, value: copy(value), expiresAt: expiry(opts.ttlSeconds) };
    });
  }

  update(key: string, value: Bytes, opts: GuardedWriteOptions): Promise<TxnResult> {
    return this.enqueue(() => {
      checkWrite(key, value, this.keyPrefix);
      return { op: 'update', key, value: copy(value), expected: opts.expectedModRevision, expiresAt: expiry(opts.ttlSeconds) };
    });
  }

  delete(key: string, opts: DeleteOptions = {}): Promise<TxnResult> {
    return this.enqueue(() => {
      checkWrite(key, undefined, this.keyPrefix);
      return { op: 'delete', key, expected: opts.expectedModRevision ?? null };
    });
  }

  async compact(revision: number): Promise<void> {
    this.assertWritable();
    const r = checkRevisionOption(revision);
    const cur = this.read(() => this.reader.meta().revision);
    if (r > cur) throw new FutureRevisionError(r, cur);
    await this.control({ type: 'compact', id: this.nextId++, revision: r });
  }

  /** Flushes queued writes, stops the writer (checkpointing the WAL) and ends every watch; releases the lock last. */
  close(): Promise<void> {
    this.closing ??= this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    if (this.inFlight || this.queue.length > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    await stopCheckpointer(this.checkpointer);
    if (!this.broken) await this.control({ type: 'close', id: this.nextId++ }).catch(() => {});
    // Also after a failure: the lock goes only once no thread of this store can touch the database.
    await this.worker.terminate();
    await this.rangeThread.close();
    this.hub.closeAll();
    this.reader.close();
    this.releaseLock();
  }

  // ---- internals ----

  private enqueue(build: () => WriteOp): Promise<TxnResult> {
    return new Promise<TxnResult>((resolve, reject) => {
      if (this.closed) throw new StoreClosedError();
      if (this.broken) throw this.broken;
      this.queue.push({ op: build(), resolve, reject });
      this.scheduleSend();
    });
  }

  /**
   * Sends on the next macrotask rather than at once: writers woken by the previous batch's results re-enqueue
   * during the microtask drain, and all of them then share one transaction.
   */
  private scheduleSend(): void {
    if (this.sendScheduled || this.inFlight) return;
    this.sendScheduled = true;
    setImmediate(() => {
      this.sendScheduled = false;
      this.sendBatch();
    });
  }

  private sendBatch(): void {
    if (this.inFlight || this.queue.length === 0 || this.broken) return;
    const max = this.opts.maxBatchOps ?? 2048;
    let n = 0;
    let bytes = 0;
    while (n < this.queue.length && n < max) {
      const op = this.queue[n]!.op;
      bytes += op.op === 'delete' ? 0 : op.value.byteLength;
      if (n > 0 && bytes > MAX_BATCH_BYTES) break;
      n++;
    }
    const batch = this.queue.splice(0, n);
    this.inFlight = batch;
    const msg: ToWorker = { type: 'write', id: this.nextId++, ops: batch.map((p) => p.op) };
    this.worker.postMessage(msg);
  }

  private onMessage(m: FromWorker): void {
    if (m.type === 'written') this.onWritten(m.results, m.revision);
    else if (m.type === 'done') {
      const c = this.controls.get(m.id);
      this.controls.delete(m.id);
      if (m.error) c?.reject(new StorageUnavailableError(m.error));
      else c?.resolve();
    }
  }

  private onWritten(results: readonly OpResult[], revision: number): void {
    const batch = this.inFlight ?? [];
    this.inFlight = undefined;
    const events: WatchEvent[] = [];
    const outcomes: (() => void)[] = [];
    batch.forEach((p, i) => {
      const r = results[i];
      if (!r || r.ok === 'error') {
        outcomes.push(() => p.reject(new StorageUnavailableError(`sqlite write failed, nothing was written: ${r ? r.message : 'no result'}`)));
        return;
      }
      if (r.ok === false) {
        const current = r.current && kvOf(p.op.key, r.current);
        outcomes.push(() => p.resolve({ succeeded: false, current }));
        return;
      }
      const prevKv = r.prev && kvOf(p.op.key, r.prev);
      if (p.op.op === 'delete') {
        const kv: KeyValue = { key: p.op.key, value: EMPTY, createRevision: 0, modRevision: r.rev, version: 0 };
        events.push({ type: 'delete', kv, prevKv: prevKv! });
        outcomes.push(() => p.resolve({ succeeded: true, revision: r.rev, kv, prevKv }));
      } else {
        const kv: KeyValue = { key: p.op.key, value: p.op.value, createRevision: r.createRev, modRevision: r.rev, version: r.version };
        events.push(prevKv ? { type: 'put', kv, prevKv } : { type: 'put', kv });
        outcomes.push(() => p.resolve({ succeeded: true, revision: r.rev, kv, prevKv }));
      }
    });
    this.hub.publish(events, revision);
    for (const o of outcomes) o();
    if (this.queue.length > 0) this.scheduleSend();
    else if (this.closed) this.drained?.();
  }

  private control(msg: ToWorker): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise<void>((resolve, reject) => {
      this.controls.set(msg.id, { resolve, reject });
      this.worker.postMessage(msg);
    });
  }

  /** The writer is gone: everything pending fails, nothing more is accepted. */
  private fail(err: StorageUnavailableError): void {
    if (this.broken) return;
    this.broken = err;
    const pending = [...(this.inFlight ?? []), ...this.queue];
    this.inFlight = undefined;
    this.queue = [];
    for (const p of pending) p.reject(err);
    for (const c of this.controls.values()) c.reject(err);
    this.controls.clear();
    this.drained?.();
    if (!this.closed) this.hub.closeAll(err);
  }

  private read<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (typeof code === 'string' && code.startsWith('SQLITE_')) throw new StorageUnavailableError(`sqlite read failed: ${(err as Error).message}`);
      throw err;
    }
  }

  private assertReadable(): void {
    if (this.closed) throw new StoreClosedError();
  }

  private assertWritable(): void {
    if (this.closed) throw new StoreClosedError();
    if (this.broken) throw this.broken;
  }

  private sweepExpired(): void {
    if (this.closed || this.broken) return;
    let expired: { key: string; rev: number }[];
    try {
      expired = this.reader.expired(Date.now(), 1000);
    } catch {
      return;
    }
    // An ordinary guarded delete, as etcd does when a lease runs out: a key updated meanwhile is left alone.
    for (const e of expired) this.delete(e.key, { expectedModRevision: e.rev }).catch(() => {});
  }
}

function kvOf(key: string, s: StoredKv): KeyValue {
  return { key, value: s.value, createRevision: s.createRev, modRevision: s.modRev, version: s.version };
}

/** Our own copy: the caller may reuse its buffer, and events and results hand this one out. */
function copy(value: Bytes): Uint8Array {
  return Uint8Array.prototype.slice.call(value);
}

function expiry(ttlSeconds: number | undefined): number | null {
  return ttlSeconds && ttlSeconds > 0 ? Date.now() + ttlSeconds * 1000 : null;
}
