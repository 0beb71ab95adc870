/**
 * The main thread's side of the range thread (range-worker.mjs): pages of a large scan read on another core.
 *
 * Started on the first bulk page and stopped after a few idle seconds, so a store that never scans much never
 * pays for the thread (a worker is tens of milliseconds to start and megabytes of heap). A page comes back as
 * one transferred buffer, and each value is a Buffer view into it: no copy and no backing store per value
 * (allocating one, as better-sqlite3 does and as even Node's pooled `allocUnsafe` does every few values, was
 * most of the cost). The price: a page's buffer lives as long as any of its values does, so after churn the
 * cache can hold up to what the scan read, never more.
 */
import { Worker } from 'node:worker_threads';
import { CompactedError, FutureRevisionError, StorageUnavailableError, type KeyValue, type RangeResult } from '../interface.ts';
import type { RangePageReply, RangePageRequest, RangeThreadInit } from './protocol.ts';

const RANGE_WORKER = new URL('./range-worker.mjs', import.meta.url);
/** Idle time after which the thread is stopped. */
const IDLE_STOP_MS = 3000;

type PageQuery = Omit<RangePageRequest, 'type' | 'id'>;

export class RangeThread {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(r: RangeResult): void; reject(err: Error): void }>();
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly init: RangeThreadInit) {}

  /** One page. Rejects with CompactedError / FutureRevisionError as the main-thread reader throws them. */
  page(query: PageQuery): Promise<RangeResult> {
    if (this.closed) return Promise.reject(new StorageUnavailableError('range thread closed'));
    clearTimeout(this.idleTimer);
    const w = (this.worker ??= this.start());
    const id = this.nextId++;
    return new Promise<RangeResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      w.postMessage({ type: 'range', id, ...query } satisfies RangePageRequest);
    });
  }

  /** Fails pages still in flight and ends the thread (the store closes its other connections after it). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    const w = this.worker;
    this.worker = undefined;
    for (const p of this.pending.values()) p.reject(new StorageUnavailableError('sqlite store closed'));
    this.pending.clear();
    if (w) await w.terminate();
  }

  private start(): Worker {
    const w = new Worker(RANGE_WORKER, { workerData: this.init, execArgv: [] });
    w.on('message', (m: RangePageReply) => this.onReply(m));
    w.on('error', (err) => this.lost(w, err.message));
    w.on('exit', () => this.lost(w, 'range thread exited'));
    return w;
  }

  private onReply(m: RangePageReply): void {
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (this.pending.size === 0) this.idleTimer = setTimeout(() => void this.stop(), IDLE_STOP_MS).unref();
    if (m.ok) p.resolve({ items: unpack(m.keys, m.values, m.offsets, m.nums), more: m.more, count: m.count, revision: m.revision });
    else if (m.error === 'compacted') p.reject(new CompactedError(m.requested, m.compacted));
    else if (m.error === 'future') p.reject(new FutureRevisionError(m.requested, m.current));
    else p.reject(new StorageUnavailableError(`sqlite read failed: ${m.message}`));
  }

  /** The worker failed or exited: its pending pages fail; the next page starts a new one. */
  private lost(w: Worker, message: string): void {
    if (this.worker !== w) return;
    this.worker = undefined;
    for (const p of this.pending.values()) p.reject(new StorageUnavailableError(`sqlite range thread: ${message}`));
    this.pending.clear();
  }

  private async stop(): Promise<void> {
    const w = this.worker;
    if (!w || this.pending.size > 0) return;
    this.worker = undefined;
    await new Promise<void>((resolve) => {
      w.once('exit', () => resolve());
      w.postMessage({ type: 'stop' });
      setTimeout(() => void w.terminate(), 2000).unref();
    });
  }
}

function unpack(keys: readonly string[], values: Uint8Array, offsets: Uint32Array, nums: Float64Array): KeyValue[] {
  const items = new Array<KeyValue>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const value = Buffer.from(values.buffer, values.byteOffset + offsets[i]!, offsets[i + 1]! - offsets[i]!);
    items[i] = { key: keys[i]!, value, createRevision: nums[3 * i + 1]!, modRevision: nums[3 * i]!, version: nums[3 * i + 2]! };
  }
  return items;
}
