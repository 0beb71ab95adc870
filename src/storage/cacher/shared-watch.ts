/**
 * `shareWatches(store)`: a Store whose watches under one root prefix are all fed from a single backend watch.
 *
 * Why: a watch cache needs to know when it is current. etcd sends progress notifications only every few
 * minutes (and progress requests are unsafe before etcd 3.4.31 / 3.5.13), so a cache of an idle resource
 * cannot tell "nothing happened under my prefix up to R" while other resources change — its consistent reads
 * would fall back to etcd. With one shared stream every event of any resource is progress for all the
 * others: after a batch at revision R, every sub-watch has seen all of its changes up to R and gets
 * `onProgress(R)`. It also means one etcd stream instead of one per resource.
 *
 * Invariants: each sub-watch gets its changes after `fromRevision` exactly once, in order (replayed from a
 * bounded buffer of recent root events, or — when it starts further back than the buffer — from a dedicated
 * backend watch, which then gets no shared progress). A root watch error ends every shared sub-watch with
 * that error (their owners re-watch) and the shared stream restarts at the then-current revision. Nothing
 * is delivered after `dispose()` or `onError`. All other Store methods pass through unchanged.
 */
import { StoreClosedError, type Store, type WatchEvent, type WatchHandle, type WatchListener, type WatchOptions } from '../interface.ts';

export interface ShareWatchesOptions {
  /** Watches under this prefix share one backend watch (others go straight to the store). Default `/registry/`. */
  readonly root?: string;
  /** Recent root events kept for sub-watches that start slightly in the past. Default 10,000. */
  readonly bufferEvents?: number;
}

interface Sub {
  readonly prefix: string;
  readonly listener: WatchListener;
  readonly progress: boolean;
  /** Revision up to which this sub has been handed everything. */
  cursor: number;
  /** Events waiting for the initial replay to be flushed. undefined once live. */
  pending: WatchEvent[] | undefined;
  done: boolean;
}

class SharedRoot {
  private handle: WatchHandle | undefined;
  private readonly subs = new Set<Sub>();
  private buffer: WatchEvent[] = [];
  /** The buffer holds every root event with revision > bufferStart, up to `delivered`. */
  private bufferStart = 0;
  private delivered = 0;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly store: Store, private readonly root: string, private readonly maxBuffer: number) {}

  watch(prefix: string, opts: WatchOptions, listener: WatchListener): WatchHandle {
    const from = opts.fromRevision;
    if (!this.handle || (from > 0 && from < this.bufferStart)) {
      // Not covered by the shared stream (it is restarting, or `from` is older than its buffer): a watch of
      // its own, correct but without shared progress.
      return this.store.watch(prefix, opts, listener);
    }
    const sub: Sub = { prefix, listener, progress: opts.progressNotify === true, cursor: from > 0 ? from : this.delivered, pending: [], done: false };
    // Replay what the buffer has after `from`, asynchronously like any store watch.
    for (const e of this.buffer) if (e.kv.modRevision > sub.cursor && e.kv.key.startsWith(prefix)) sub.pending!.push(e);
    sub.cursor = Math.max(sub.cursor, this.delivered);
    this.subs.add(sub);
    queueMicrotask(() => this.goLive(sub));
    return { dispose: () => this.remove(sub) };
  }

  /** Starts the shared stream at the store's current revision (again after an error). */
  async open(): Promise<void> {
    if (this.closed || this.handle) return;
    const from = await this.store.currentRevision();
    if (this.closed || this.handle) return;
    this.delivered = from;
    this.bufferStart = from;
    this.buffer = [];
    this.handle = this.store.watch(this.root, { fromRevision: from, progressNotify: true }, {
      onEvents: (events) => this.onEvents(events),
      onProgress: (r) => this.onProgress(r),
      onError: (err) => this.onError(err),
    });
  }

  close(): void {
    this.closed = true;
    this.handle?.dispose();
    this.handle = undefined;
    this.onError(new StoreClosedError());
  }

  private goLive(sub: Sub): void {
    if (sub.done || !sub.pending) return;
    const pending = sub.pending;
    sub.pending = undefined;
    if (pending.length > 0) this.deliver(sub, pending);
    if (!sub.done && sub.progress && this.delivered > 0) this.progress(sub, Math.max(sub.cursor, this.delivered));
  }

  private onEvents(events: readonly WatchEvent[]): void {
    if (events.length === 0) return;
    const rev = events[events.length - 1]!.kv.modRevision;
    for (const e of events) this.buffer.push(e);
    if (this.buffer.length > this.maxBuffer) {
      const drop = this.buffer.length - this.maxBuffer;
      // Keep whole revisions: the new start is the revision of the last dropped event.
      let cut = drop;
      while (cut < this.buffer.length && this.buffer[cut]!.kv.modRevision === this.buffer[drop - 1]!.kv.modRevision) cut++;
      this.bufferStart = this.buffer[cut - 1]!.kv.modRevision;
      this.buffer = this.buffer.slice(cut);
    }
    this.delivered = Math.max(this.delivered, rev);
    for (const sub of this.subs) {
      const mine = events.filter((e) => e.kv.modRevision > sub.cursor && e.kv.key.startsWith(sub.prefix));
      if (sub.pending) {
        sub.pending.push(...mine);
        sub.cursor = Math.max(sub.cursor, rev);
        continue;
      }
      sub.cursor = Math.max(sub.cursor, rev);
      if (mine.length > 0) this.deliver(sub, mine);
      // Every root event is progress for every sub: this is the point of sharing.
      if (!sub.done && sub.progress) this.progress(sub, rev);
    }
  }

  private onProgress(r: number): void {
    this.delivered = Math.max(this.delivered, r);
    for (const sub of this.subs) {
      if (r <= sub.cursor) continue;
      sub.cursor = r;
      if (!sub.pending && sub.progress) this.progress(sub, r);
    }
  }

  private onError(err: Error): void {
    if (err instanceof StoreClosedError) this.closed = true;
    this.handle = undefined;
    this.buffer = [];
    if (this.closed && this.retry) clearTimeout(this.retry);
    if (!this.closed && !this.retry) {
      // Restart the shared stream; until then new watches get their own.
      this.retry = setTimeout(() => {
        this.retry = undefined;
        this.open().catch((e: unknown) => this.onError(e instanceof Error ? e : new Error(String(e))));
      }, 100);
      this.retry.unref();
    }
    const subs = [...this.subs];
    this.subs.clear();
    for (const sub of subs) {
      if (sub.done) continue;
      sub.done = true;
      try {
        sub.listener.onError(err);
      } catch {
        // That watch is over either way.
      }
    }
  }

  private deliver(sub: Sub, events: WatchEvent[]): void {
    try {
      sub.listener.onEvents(events);
    } catch (err) {
      this.fail(sub, err instanceof Error ? err : new Error(String(err)));
    }
  }

  private progress(sub: Sub, r: number): void {
    try {
      sub.listener.onProgress?.(r);
    } catch (err) {
      this.fail(sub, err instanceof Error ? err : new Error(String(err)));
    }
  }

  private fail(sub: Sub, err: Error): void {
    if (sub.done) return;
    this.remove(sub);
    try {
      sub.listener.onError(err);
    } catch {
      // Over either way.
    }
  }

  private remove(sub: Sub): void {
    sub.done = true;
    this.subs.delete(sub);
  }
}

/**
 * Wraps `store` so that watches under `root` share one backend watch (see the file comment). The shared
 * stream starts before this resolves; `close()` on the result ends it and closes the store.
 */
export async function shareWatches(store: Store, opts: ShareWatchesOptions = {}): Promise<Store> {
  const root = opts.root ?? '/registry/';
  const shared = new SharedRoot(store, root, opts.bufferEvents ?? 10_000);
  await shared.open();
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'watch') {
        return (prefix: string, o: WatchOptions, l: WatchListener): WatchHandle =>
          prefix.startsWith(root) ? shared.watch(prefix, o, l) : target.watch(prefix, o, l);
      }
      if (prop === 'close') {
        return async (): Promise<void> => {
          shared.close();
          await target.close();
        };
      }
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
