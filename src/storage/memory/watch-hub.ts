/**
 * In-process watch fan-out shared by the memory and sqlite backends.
 *
 * Each watcher has a cursor: every change with a revision above it is still to be delivered. A new watcher
 * whose cursor is behind the hub's published revision first catches up by paging through the backend's
 * history (`HistorySource`), one page per macrotask so a long replay never starves the event loop; once it
 * has reached the published revision it receives live batches from `publish()`. Both paths run on the one
 * JS thread and a page is read synchronously, so there is no gap and no duplicate between replay and live.
 *
 * Invariants: events reach a listener in revision order, each exactly once; nothing is delivered after
 * `onError` or `dispose()`; `publish()` is called with strictly increasing revisions.
 */
import { CompactedError, StoreClosedError, type WatchEvent, type WatchHandle, type WatchListener, type WatchOptions } from '../interface.ts';

export interface HistoryPage {
  /** Matching events with revision in (after, scannedTo], in order. */
  readonly events: WatchEvent[];
  /** The revision the page covers up to (inclusive); the next page starts after it. */
  readonly scannedTo: number;
}

export interface HistorySource {
  /**
   * Changes to keys starting with `prefix` with revision in (after, upTo], at most about `limit` of them.
   * Throws CompactedError when `after` is below the compacted revision.
   */
  readHistory(prefix: string, after: number, upTo: number, limit: number): HistoryPage;
}

export interface WatchHubOptions {
  readonly source: HistorySource;
  /** Revision already committed when the hub starts (nothing before it is published live). */
  readonly initialRevision: number;
  /** Interval of idle progress notifications for watchers that asked for them. Default 1000 ms. */
  readonly progressIntervalMs?: number;
  /** Events per replay page. Default 1000. */
  readonly pageSize?: number;
}

interface Watcher {
  readonly prefix: string;
  readonly listener: WatchListener;
  readonly progress: boolean;
  cursor: number;
  live: boolean;
  done: boolean;
}

export class WatchHub {
  private published: number;
  private readonly watchers = new Set<Watcher>();
  private progressTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly opts: WatchHubOptions) {
    this.published = opts.initialRevision;
  }

  /** Highest revision handed to `publish()`. */
  get revision(): number {
    return this.published;
  }

  get size(): number {
    return this.watchers.size;
  }

  watch(prefix: string, opts: WatchOptions, listener: WatchListener): WatchHandle {
    const w: Watcher = {
      prefix,
      listener,
      progress: opts.progressNotify === true,
      cursor: opts.fromRevision > 0 ? opts.fromRevision : this.published,
      live: false,
      done: false,
    };
    if (this.closed) {
      queueMicrotask(() => listener.onError(new StoreClosedError()));
      return { dispose: () => {} };
    }
    this.watchers.add(w);
    if (w.cursor >= this.published) w.live = true;
    else setImmediate(() => this.pump(w));
    if (w.progress) this.ensureProgressTimer();
    return { dispose: () => this.remove(w) };
  }

  /** Delivers committed events (all with revision ≤ `revision`, in order) and advances the published revision. */
  publish(events: readonly WatchEvent[], revision: number): void {
    if (revision <= this.published) return;
    this.published = revision;
    for (const w of this.watchers) {
      if (!w.live || w.done) continue;
      const mine: WatchEvent[] = [];
      for (const e of events) {
        if (e.kv.modRevision > w.cursor && e.kv.key.startsWith(w.prefix)) mine.push(e);
      }
      w.cursor = Math.max(w.cursor, revision);
      if (mine.length > 0) this.deliver(w, mine);
      if (w.progress && !w.done) this.progress(w, revision);
    }
  }

  /** Ends every watch with `err` (StoreClosedError by default) and stops timers. */
  closeAll(err: Error = new StoreClosedError()): void {
    this.closed = true;
    if (this.progressTimer) clearInterval(this.progressTimer);
    this.progressTimer = undefined;
    for (const w of [...this.watchers]) this.fail(w, err);
  }

  private pump(w: Watcher): void {
    if (w.done) return;
    const upTo = this.published;
    if (w.cursor >= upTo) {
      w.live = true;
      return;
    }
    let page: HistoryPage;
    try {
      page = this.opts.source.readHistory(w.prefix, w.cursor, upTo, this.opts.pageSize ?? 1000);
    } catch (err) {
      this.fail(w, err instanceof Error ? err : new Error(String(err)));
      return;
    }
    w.cursor = page.scannedTo;
    if (page.events.length > 0) this.deliver(w, page.events);
    if (w.done) return;
    if (w.cursor >= this.published) w.live = true;
    else setImmediate(() => this.pump(w));
  }

  private deliver(w: Watcher, events: WatchEvent[]): void {
    try {
      w.listener.onEvents(events);
    } catch (err) {
      // A throwing listener cannot be trusted to have seen the batch: end its watch rather than skip events.
      this.fail(w, err instanceof Error ? err : new Error(String(err)));
    }
  }

  private progress(w: Watcher, revision: number): void {
    try {
      w.listener.onProgress?.(revision);
    } catch (err) {
      this.fail(w, err instanceof Error ? err : new Error(String(err)));
    }
  }

  private fail(w: Watcher, err: Error): void {
    if (w.done) return;
    this.remove(w);
    try {
      w.listener.onError(err);
    } catch {
      // The watch is over either way.
    }
  }

  private remove(w: Watcher): void {
    w.done = true;
    this.watchers.delete(w);
  }

  private ensureProgressTimer(): void {
    if (this.progressTimer || this.closed) return;
    this.progressTimer = setInterval(() => {
      let any = false;
      for (const w of this.watchers) {
        if (!w.progress) continue;
        any = true;
        if (w.live && !w.done) this.progress(w, this.published);
      }
      if (!any && this.progressTimer) {
        clearInterval(this.progressTimer);
        this.progressTimer = undefined;
      }
    }, this.opts.progressIntervalMs ?? 1000);
    this.progressTimer.unref();
  }
}

/** Throws the CompactedError a read or watch at `revision` gets when history up to `compacted` is gone. */
export function assertNotCompacted(revision: number, compacted: number): void {
  if (revision < compacted) throw new CompactedError(revision, compacted);
}
