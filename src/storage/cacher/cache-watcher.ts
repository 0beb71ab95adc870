/**
 * One client watch served by the cache.
 *
 * Delivery order: first the backlog (synthetic ADDED events for the initial state, or events replayed from
 * the window, then the initial-events-end bookmark), then live events in revision order. The backlog is a
 * snapshot taken when the watch started, so it is not bounded; live events queue while the backlog drains
 * or while the sink is backed up, and that queue is bounded by `maxBuffer`: overflowing it closes the watch
 * with `WatcherTooSlowError` (the client re-watches from its last revision, as with kube-apiserver).
 *
 * Backpressure: `sink.onEvent` returning false pauses delivery until `resume()` (the HTTP layer may call it on
 * the response's 'drain') or, for sinks that never call it, until a retry after `retryMs` tries the next
 * event (a sink that is still full says false again; one that drained takes the whole queue). Nothing is
 * delivered after `close()`/`dispose()`, and the retry timer dies with the watcher.
 */
import { WatcherTooSlowError } from './errors.ts';
import type { ObjectEvent, ObjectWatchSink, SelectionPredicate } from './types.ts';

export interface CacheWatcherOptions {
  readonly sink: ObjectWatchSink;
  readonly predicate?: SelectionPredicate;
  readonly bookmarks: boolean;
  readonly maxBuffer: number;
  /** Live events at or below this revision are skipped (a watch that starts ahead of the cache). */
  readonly minRevision: number;
  /** Called once when the watcher ends for any reason, so the cache forgets it. */
  readonly onEnd: (w: CacheWatcher) => void;
  /** Retry delay after the sink said false, when nobody calls `resume()`. Default 50 ms. */
  readonly retryMs?: number;
}

export class CacheWatcher {
  readonly predicate: SelectionPredicate | undefined;
  readonly bookmarks: boolean;
  readonly minRevision: number;
  /** Revision of the last event handed to the sink (a bookmark never goes below it). */
  lastRevision: number;
  private backlog: readonly ObjectEvent[] = [];
  private backlogPos = 0;
  private queue: ObjectEvent[] = [];
  private queuePos = 0;
  private paused = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private delivering = false;
  private ended = false;

  constructor(private readonly opts: CacheWatcherOptions) {
    this.predicate = opts.predicate && !opts.predicate.empty ? opts.predicate : undefined;
    this.bookmarks = opts.bookmarks;
    this.minRevision = opts.minRevision;
    this.lastRevision = opts.minRevision;
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Live events waiting (not counting the backlog). */
  get buffered(): number {
    return this.queue.length - this.queuePos;
  }

  /** Starts delivery with the backlog (initial state or replay). Call once, right after registering. */
  start(backlog: readonly ObjectEvent[]): void {
    this.backlog = backlog;
    this.backlogPos = 0;
    this.flush();
  }

  /** A live event for this watcher (already filtered by the predicate). */
  push(ev: ObjectEvent): void {
    if (this.ended || ev.revision <= this.minRevision) return;
    this.queue.push(ev);
    if (this.buffered > this.opts.maxBuffer) {
      this.close(new WatcherTooSlowError(this.opts.maxBuffer));
      return;
    }
    this.flush();
  }

  /**
   * A periodic bookmark (kube's roughly-every-minute heartbeat, also keeping idle streams alive): sent only
   * when nothing else is waiting, and never with a revision below what the client has already seen.
   */
  bookmark(ev: ObjectEvent): void {
    if (!this.bookmarks || this.ended || this.paused || this.delivering) return;
    if (this.backlogPos < this.backlog.length || this.buffered > 0 || ev.revision < this.lastRevision) return;
    this.deliver(ev);
  }

  /** The sink can take events again. */
  resume(): void {
    if (this.ended) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.paused = false;
    this.flush();
  }

  /** Ends the watch and tells the sink why (undefined = normal end, e.g. shutdown). */
  close(err?: Error): void {
    if (this.ended) return;
    this.end();
    try {
      this.opts.sink.onClose(err);
    } catch {
      // The sink is gone either way.
    }
  }

  /** The consumer went away: stop without calling back. */
  dispose(): void {
    if (!this.ended) this.end();
  }

  private end(): void {
    this.ended = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.backlog = [];
    this.queue = [];
    this.queuePos = 0;
    this.opts.onEnd(this);
  }

  private flush(): void {
    // Re-entrancy guard: a sink that triggers more events from onEvent must not reorder delivery.
    if (this.delivering) return;
    this.delivering = true;
    try {
      while (!this.paused && !this.ended) {
        let ev: ObjectEvent | undefined;
        if (this.backlogPos < this.backlog.length) {
          ev = this.backlog[this.backlogPos++];
          if (this.backlogPos === this.backlog.length) {
            this.backlog = [];
            this.backlogPos = 0;
          }
        } else if (this.queuePos < this.queue.length) {
          ev = this.queue[this.queuePos++];
          if (this.queuePos === this.queue.length) {
            this.queue = [];
            this.queuePos = 0;
          }
        } else {
          break;
        }
        if (ev) this.deliver(ev);
      }
    } finally {
      this.delivering = false;
    }
  }

  private deliver(ev: ObjectEvent): void {
    let ok: boolean | void;
    try {
      ok = this.opts.sink.onEvent(ev);
    } catch (err) {
      this.close(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    if (ev.revision > this.lastRevision) this.lastRevision = ev.revision;
    if (ok === false && !this.ended) {
      this.paused = true;
      this.retryTimer ??= setTimeout(() => {
        this.retryTimer = undefined;
        this.resume();
      }, this.opts.retryMs ?? 50);
      this.retryTimer.unref();
    }
  }
}
