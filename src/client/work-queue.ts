/**
 * A keyed work queue as client-go's rate-limited workqueue behaves:
 * - a key is queued at most once; adding a key that is being processed marks it dirty, and it runs again
 *   after the current run (never two runs of one key at the same time);
 * - a failed run is retried with per-key exponential backoff (`baseDelayMs` · 2^failures, capped at `maxDelayMs`);
 *   a success forgets the failure count;
 * - `process` may ask for a later run (`{ requeueAfterMs }`) without counting as a failure.
 * `stop()` drops queued work, cancels timers and waits for runs in flight.
 */
import type { Logger } from '../registry/system-context.ts';

export interface WorkResult {
  requeueAfterMs?: number;
}

export interface WorkQueueOptions {
  name: string;
  process(key: string): Promise<WorkResult | void>;
  concurrency?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  log?: Logger;
}

export class WorkQueue {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly running = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private idleWaiters: Array<() => void> = [];
  private stopped = false;

  constructor(private readonly opts: WorkQueueOptions) {}

  add(key: string): void {
    if (this.stopped) return;
    if (this.running.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.queue.push(key);
    this.pump();
  }

  /** Adds the key after a delay; an earlier pending delayed add of the same key wins. */
  addAfter(key: string, ms: number): void {
    if (this.stopped || this.timers.has(key)) return;
    const t = setTimeout(() => {
      this.timers.delete(key);
      this.add(key);
    }, ms);
    t.unref();
    this.timers.set(key, t);
  }

  /** Resolves when nothing is queued or running (delayed re-adds do not count): for tests. */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.queue.length = 0;
    this.queued.clear();
    this.dirty.clear();
    await Promise.allSettled([...this.inFlight]);
    this.notifyIdle();
  }

  /** True when nothing is queued or running. */
  idleNow(): boolean {
    return this.isIdle();
  }

  private isIdle(): boolean {
    return this.queue.length === 0 && this.running.size === 0;
  }

  private notifyIdle(): void {
    if (!this.isIdle() && !this.stopped) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private pump(): void {
    const limit = this.opts.concurrency ?? 1;
    while (!this.stopped && this.running.size < limit && this.queue.length > 0) {
      const key = this.queue.shift()!;
      this.queued.delete(key);
      this.running.add(key);
      const p = this.run(key).finally(() => {
        this.inFlight.delete(p);
        this.running.delete(key);
        if (this.dirty.delete(key)) this.add(key);
        this.pump();
        this.notifyIdle();
      });
      this.inFlight.add(p);
    }
  }

  private async run(key: string): Promise<void> {
    try {
      const r = await this.opts.process(key);
      this.failures.delete(key);
      if (r?.requeueAfterMs !== undefined) this.addAfter(key, r.requeueAfterMs);
    } catch (err) {
      if (this.stopped) return;
      const n = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, n);
      const delay = Math.min((this.opts.baseDelayMs ?? 5) * 2 ** (n - 1), this.opts.maxDelayMs ?? 30_000);
      this.opts.log?.(`${this.opts.name}: syncing ${JSON.stringify(key)} failed (retry in ${delay} ms): ${(err as Error)?.message ?? String(err)}`);
      this.addAfter(key, delay);
    }
  }
}
