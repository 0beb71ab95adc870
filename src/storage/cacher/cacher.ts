/**
 * The watch cache of one resource prefix (kube-apiserver's Cacher): the current state decoded once and kept
 * in key order, a sliding window of recent changes, and fan-out of each change to every watcher with
 * serialize-once events. It implements `ObjectReader` over a backend `StoreReader` (wrap, don't fork).
 *
 * Revision invariant: `rev` is the revision the state reflects — every change under the prefix up to `rev`
 * has been applied and nothing after it. It advances with each store event and with the store's progress
 * notifications (which say "nothing else happened under your prefix up to R").
 *
 * Reads (`ReadAt`, see types.ts):
 *   any            → the state now.
 *   consistent     → the store's current revision T; served from the cache once `rev ≥ T`. If that is not
 *                    confirmed within `consistentWaitMs` (a backend without prompt progress notifications,
 *                    e.g. etcd while only other resources change), read the store at T instead — correct,
 *                    just slower, as kube-apiserver falls back to etcd. `shareWatches(store)` (shared-watch.ts)
 *                    gives such backends prompt progress, so the fallback stays rare.
 *   notOlderThan R → the cache once `rev ≥ R`; waits up to `consistentReadTimeoutMs` for a revision the store
 *                    has not reached, then FutureRevisionError (504 "Too large resource version").
 *   exact R        → the cache when `rev = R`, the store at R for older revisions (CompactedError → 410).
 * Watches start from a consistent snapshot (rv unset), the state now (rv=0), or the window (rv=R; older than
 * the window → TooOldResourceVersionError, 410). If the backend watch fails, watchers are closed (clients
 * re-watch), reads go to the store, and the cache re-lists with backoff.
 *
 * Example:
 * ```ts
 * const cache = await Cacher.start({ store, prefix: '/registry/configmaps/', codec });
 * const { items, revision } = await cache.list('/registry/configmaps/ns1/', { read: { kind: 'consistent' } });
 * const w = cache.watch('/registry/configmaps/', { fromRevision: revision }, { onEvent, onClose });
 * w.dispose(); await cache.stop();
 * ```
 */
import {
  FutureRevisionError,
  KeyOutsidePrefixError,
  StorageUnavailableError,
  StoreClosedError,
  type StoreReader,
  type WatchEvent,
  type WatchHandle,
} from '../interface.ts';
import { backendGet, backendList, decodeOrSkip } from './backend-reader.ts';
import { CacheWatcher } from './cache-watcher.ts';
import { TooOldResourceVersionError } from './errors.ts';
import { CacheState } from './cache-state.ts';
import type { WindowEvent } from './event-window.ts';
import { classify } from './classify.ts';
import { bookmarkEvent, makeLoadedObject, objectEvent } from './objects.ts';
import { RevisionWaiters } from './revision-waiters.ts';
import type {
  CachedObject, ObjectCodec, ObjectEvent, ObjectGetOptions, ObjectListOptions, ObjectListResult, ObjectReader,
  ObjectWatch, ObjectWatchOptions, ObjectWatchSink, ReadAt,
} from './types.ts';

export { TooOldResourceVersionError, WatcherTooSlowError } from './errors.ts';

export interface CacherOptions {
  readonly store: StoreReader;
  /** The resource's key prefix, ending in `/` (e.g. `/registry/pods/`). */
  readonly prefix: string;
  readonly codec: ObjectCodec;
  /** How long changes stay replayable. Default 5 minutes. */
  readonly windowMs?: number;
  /** Where restarts and re-list failures are reported (the server's logger); default stderr. */
  readonly log?: (line: string) => void;
  /** At most this many changes in the window. Default 100,000. */
  readonly maxWindowEvents?: number;
  /** Live events a watcher may have queued before it is closed as too slow. Default 1,000. */
  readonly maxWatcherBuffer?: number;
  /** After a sink said false and nobody called `resume()`, retry delivery this often. Default 50 ms. */
  readonly watcherRetryMs?: number;
  /** Periodic BOOKMARK interval for watchers that asked for bookmarks. Default 60 s. */
  readonly bookmarkIntervalMs?: number;
  /** Longest wait for a revision the store has not reached (then FutureRevisionError). Default 3 s. */
  readonly consistentReadTimeoutMs?: number;
  /** Longest wait for the cache to confirm a revision the store has reached (then read the store). Default 100 ms. */
  readonly consistentWaitMs?: number;
  /** Keys per page while loading. Default 10,000. */
  readonly loadPageSize?: number;
}

/** An `ObjectWatch` the HTTP layer can also resume after backpressure (`sink.onEvent` returned false). */
export interface CacheWatch extends ObjectWatch {
  /** Call when the sink can take events again (e.g. on the response's 'drain'). */
  resume(): void;
}

type Plan = { readonly cache: true } | { readonly cache: false; readonly revision: number };
const FROM_CACHE: Plan = { cache: true };

interface WatchStart {
  disposed: boolean;
  watcher?: CacheWatcher;
}

export class Cacher implements ObjectReader {
  private readonly cache: CacheState;
  private readonly waiters = new RevisionWaiters();
  private readonly watchers = new Map<CacheWatcher, string>();
  private phase: 'loading' | 'ready' | 'stopped' = 'loading';
  /** Bumped on every (re)load and on stop: callbacks of an older store watch are ignored. */
  private generation = 0;
  private storeWatch: WatchHandle | undefined;
  private readyCallbacks: Array<() => void> = [];
  private retryTimer: NodeJS.Timeout | undefined;
  private retryAttempt = 0;
  private readonly bookmarkTimer: NodeJS.Timeout;
  private readonly store: StoreReader;
  private readonly prefix: string;
  private readonly codec: ObjectCodec;
  private readonly timeoutMs: number;
  private readonly waitMs: number;

  private constructor(private readonly opts: CacherOptions) {
    this.store = opts.store;
    this.prefix = opts.prefix;
    this.codec = opts.codec;
    this.timeoutMs = opts.consistentReadTimeoutMs ?? 3000;
    this.waitMs = Math.min(opts.consistentWaitMs ?? 100, this.timeoutMs);
    this.cache = new CacheState(opts.codec, { windowMs: opts.windowMs ?? 5 * 60_000, maxEvents: opts.maxWindowEvents ?? 100_000 });
    this.bookmarkTimer = setInterval(() => this.sendBookmarks(), opts.bookmarkIntervalMs ?? 60_000);
    this.bookmarkTimer.unref();
  }

  /** Loads the prefix at one revision and starts following the store. Rejects if the first load fails. */
  static async start(opts: CacherOptions): Promise<Cacher> {
    // Without the slash `/registry/pods` would also cover `/registry/podtemplates/…`.
    if (!opts.prefix.endsWith('/')) throw new TypeError(`watch cache prefix must end with "/": ${JSON.stringify(opts.prefix)}`);
    const c = new Cacher(opts);
    try {
      await c.load();
    } catch (err) {
      await c.stop();
      throw err;
    }
    return c;
  }

  /** Stops following the store, closes every watcher (normal end) and fails pending waits. Idempotent. */
  async stop(): Promise<void> {
    if (this.phase === 'stopped') return;
    this.phase = 'stopped';
    this.generation++;
    this.storeWatch?.dispose();
    this.storeWatch = undefined;
    clearInterval(this.bookmarkTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.waiters.cancelAll();
    this.wakeReady();
    for (const w of [...this.watchers.keys()]) w.close();
    await Promise.resolve();
  }

  async currentRevision(): Promise<number> {
    return this.cache.rev;
  }

  /** Diagnostics for tests, metrics and benchmarks. */
  get stats(): { objects: number; watchers: number; revision: number; windowEvents: number; windowStart: number; ready: boolean } {
    return {
      objects: this.cache.objects.size, watchers: this.watchers.size, revision: this.cache.rev,
      windowEvents: this.cache.window.length, windowStart: this.cache.window.startRevision, ready: this.phase === 'ready',
    };
  }

  async get(key: string, opts: ObjectGetOptions): Promise<CachedObject | undefined> {
    this.checkKey(key);
    const plan = await this.plan(opts.read);
    if (plan.cache) return this.cache.objects.get(key);
    return backendGet(this.store, this.codec, key, plan.revision);
  }

  async current(key: string): Promise<CachedObject | undefined | null> {
    this.checkKey(key);
    if (this.phase !== 'ready') return null;
    const target = await this.store.currentRevision();
    // The state at `rev ≥ target` holds every write committed before the call: the latest for this key.
    return this.phase === 'ready' && this.cache.rev >= target ? this.cache.objects.get(key) : null;
  }

  async list(prefix: string, opts: ObjectListOptions): Promise<ObjectListResult> {
    this.checkKey(prefix);
    const plan = await this.plan(opts.read);
    if (!plan.cache) {
      return backendList(this.store, this.codec, prefix, {
        revision: plan.revision, limit: opts.limit, afterKey: opts.afterKey, predicate: opts.predicate,
      });
    }
    return this.cache.list(prefix, opts);
  }

  watch(prefix: string, opts: ObjectWatchOptions, sink: ObjectWatchSink): CacheWatch {
    this.checkKey(prefix);
    const start: WatchStart = { disposed: false };
    this.startWatch(prefix, opts, sink, start).catch((err: unknown) => {
      if (!start.disposed) sink.onClose(err instanceof Error ? err : new Error(String(err)));
    });
    return {
      dispose: () => {
        start.disposed = true;
        start.watcher?.dispose();
      },
      resume: () => start.watcher?.resume(),
    };
  }

  // ---- reads ---------------------------------------------------------------------------------------------

  private checkKey(key: string): void {
    if (this.phase === 'stopped') throw new StoreClosedError();
    if (!key.startsWith(this.prefix)) throw new KeyOutsidePrefixError(key, this.prefix);
  }

  /** Decides whether the cache can answer `read`, waiting for it to catch up where that is the rule. */
  private async plan(read: ReadAt): Promise<Plan> {
    switch (read.kind) {
      case 'any':
        return this.phase === 'ready' ? FROM_CACHE : { cache: false, revision: 0 };
      case 'consistent': {
        const target = await this.store.currentRevision();
        return (await this.reach(target, this.waitMs)) ? FROM_CACHE : { cache: false, revision: target };
      }
      case 'notOlderThan': {
        const r = read.revision;
        if (this.phase === 'ready' && this.cache.rev >= r) return FROM_CACHE;
        const now = await this.waitAhead(r);
        return this.phase === 'ready' && this.cache.rev >= r ? FROM_CACHE : { cache: false, revision: now };
      }
      case 'exact': {
        const r = read.revision;
        if (this.phase === 'ready' && this.cache.rev > r) return { cache: false, revision: r };
        if (this.phase !== 'ready' || this.cache.rev < r) await this.waitAhead(r);
        return this.phase === 'ready' && this.cache.rev === r ? FROM_CACHE : { cache: false, revision: r };
      }
    }
  }

  /**
   * For a revision R above the cache's: waits (briefly if the store already has R, else up to the timeout)
   * and returns the store's current revision, or throws FutureRevisionError if the store never reached R.
   */
  private async waitAhead(r: number): Promise<number> {
    let now = await this.store.currentRevision();
    if (await this.reach(r, now >= r ? this.waitMs : this.timeoutMs)) return Math.max(now, r);
    if (now < r) now = await this.store.currentRevision();
    if (now < r) throw new FutureRevisionError(r, now);
    return now;
  }

  /** True once the cache is ready at `revision` or beyond; false after `ms`. */
  private async reach(revision: number, ms: number): Promise<boolean> {
    if (this.phase === 'ready' && this.cache.rev >= revision) return true;
    if (this.phase !== 'ready') return false;
    // Backends that can be asked for a progress notification get asked (optional, duck-typed).
    (this.storeWatch as { requestProgress?: () => void } | undefined)?.requestProgress?.();
    return (await this.waiters.wait(revision, ms)) && this.phase === 'ready';
  }

  // ---- watches -------------------------------------------------------------------------------------------

  private async startWatch(prefix: string, opts: ObjectWatchOptions, sink: ObjectWatchSink, start: WatchStart): Promise<void> {
    await this.whenReady();
    const from = opts.fromRevision;
    // kube-apiserver: state first for rv unset or "0", unless sendInitialEvents=false says otherwise.
    const initial = opts.sendInitialEvents ?? (from === undefined || from === 0);
    if (from === undefined) {
      // rv unset: state as of now. If the cache cannot confirm it in time it serves what it has; the
      // changes it is missing are already on their way and follow as events, so nothing is lost.
      await this.reach(await this.store.currentRevision(), this.waitMs);
    } else if (from > 0 && from > this.cache.rev) {
      const now = await this.store.currentRevision();
      if (now < from || initial) {
        if (!(await this.reach(from, now < from ? this.timeoutMs : this.waitMs)) && now < from) {
          const latest = await this.store.currentRevision();
          if (latest < from) throw new FutureRevisionError(from, latest);
        }
      }
    }
    if (start.disposed) return;
    if (this.phase !== 'ready') throw new StorageUnavailableError('the watch cache is re-initializing');

    // Synchronous from here: the snapshot or replay and the registration see the same revision.
    const pred = opts.predicate && !opts.predicate.empty ? opts.predicate : undefined;
    let backlog: ObjectEvent[];
    let minRevision = this.cache.rev;
    if (initial) {
      backlog = [];
      for (const o of this.cache.objects.slice(prefix)) if (!pred || pred.matches(o.attrs)) backlog.push(objectEvent('ADDED', o));
      if (opts.sendInitialEvents) backlog.push(bookmarkEvent(this.cache.rev, true));
    } else if (from === undefined || from === 0) {
      backlog = []; // sendInitialEvents=false: changes from now on only
    } else if (from > this.cache.rev) {
      // The store has `from` but the cache has not confirmed it yet: start ahead, skip what it already saw.
      backlog = [];
      minRevision = from;
    } else {
      const oldest = this.cache.window.startRevision;
      if (from < oldest) throw new TooOldResourceVersionError(from, oldest);
      backlog = [];
      for (const we of this.cache.window.since(from)) {
        const ev = we.object.key.startsWith(prefix) ? classify(we, pred) : undefined;
        if (ev) backlog.push(ev);
      }
    }
    const w = new CacheWatcher({
      sink, predicate: pred, bookmarks: opts.bookmarks === true, minRevision,
      maxBuffer: this.opts.maxWatcherBuffer ?? 1000, retryMs: this.opts.watcherRetryMs ?? 50,
      onEnd: (x) => this.watchers.delete(x),
    });
    this.watchers.set(w, prefix === this.prefix ? '' : prefix);
    start.watcher = w;
    w.start(backlog);
  }

  private whenReady(): Promise<void> {
    if (this.phase === 'ready') return Promise.resolve();
    if (this.phase === 'stopped') return Promise.reject(new StoreClosedError());
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.readyCallbacks = this.readyCallbacks.filter((f) => f !== done);
        reject(new StorageUnavailableError('the watch cache is re-initializing'));
      }, this.timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        if (this.phase === 'ready') resolve();
        else reject(new StoreClosedError());
      };
      this.readyCallbacks.push(done);
    });
  }

  private wakeReady(): void {
    const cbs = this.readyCallbacks;
    this.readyCallbacks = [];
    for (const f of cbs) f();
  }

  private sendBookmarks(): void {
    if (this.phase !== 'ready' || this.watchers.size === 0) return;
    const ev = bookmarkEvent(this.cache.rev);
    for (const w of this.watchers.keys()) w.bookmark(ev);
  }

  // ---- following the store -------------------------------------------------------------------------------

  private async load(): Promise<void> {
    const gen = ++this.generation;
    const objs: CachedObject[] = [];
    const pageSize = this.opts.loadPageSize ?? 10_000;
    let revision = 0;
    let startKey: string | undefined;
    // The cache's fill is a LIST served from storage, as kube's reflector LIST is.
    let fetched = 0;
    try {
      for (;;) {
        const res = await this.store.range(this.prefix, {
          ...(revision > 0 ? { revision } : {}), limit: pageSize, ...(startKey !== undefined ? { startKey } : {}),
        });
        if (gen !== this.generation) return;
        revision = res.revision;
        fetched += res.items.length;
        for (const kv of res.items) {
          const o = decodeOrSkip(this.codec, kv, makeLoadedObject);
          if (o) objs.push(o);
        }
        if (!res.more || res.items.length === 0) break;
        startKey = `${res.items[res.items.length - 1]!.key}\0`;
        // A re-list of a large prefix while serving: let requests in between pages.
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (gen !== this.generation) return;
      }
    } finally {
      this.store.noteList?.(this.prefix, { fetched, evaluated: objs.length, returned: objs.length });
    }
    this.cache.reset(objs, revision);
    this.storeWatch = this.store.watch(this.prefix, { fromRevision: revision, progressNotify: true }, {
      onEvents: (events) => {
        if (gen === this.generation) this.apply(events);
      },
      onProgress: (r) => {
        if (gen === this.generation) this.progress(r);
      },
      onError: (err) => {
        if (gen === this.generation) this.restart(err);
      },
    });
    this.phase = 'ready';
    this.retryAttempt = 0;
    this.waiters.advance(this.cache.rev);
    this.wakeReady();
  }

  private apply(events: readonly WatchEvent[]): void {
    this.cache.apply(events, (we) => this.dispatch(we));
    this.waiters.advance(this.cache.rev);
  }

  private progress(revision: number): void {
    if (this.cache.progress(revision)) this.waiters.advance(revision);
  }

  /** One change to every watcher, filtered once per distinct predicate outcome. */
  private dispatch(we: WindowEvent): void {
    if (this.watchers.size === 0) return;
    let plain: ObjectEvent | undefined | null = null;
    for (const [w, prefix] of this.watchers) {
      if (prefix !== '' && !we.object.key.startsWith(prefix)) continue;
      let ev: ObjectEvent | undefined;
      if (w.predicate) ev = classify(we, w.predicate);
      else ev = plain === null ? (plain = classify(we, undefined)) : plain;
      if (ev) w.push(ev);
    }
  }

  private warn(line: string): void {
    if (this.opts.log) this.opts.log(`W ${line}`);
    else console.warn(line);
  }

  /** The backend watch failed: end every watcher (clients re-watch), serve reads from the store, re-list. */
  private restart(err: Error): void {
    if (this.phase === 'stopped') return;
    this.warn(`watch cache ${this.prefix}: store watch ended (${err.message}); re-listing`);
    this.generation++;
    this.phase = 'loading';
    this.storeWatch?.dispose();
    this.storeWatch = undefined;
    for (const w of [...this.watchers.keys()]) w.close();
    this.scheduleLoad();
  }

  private scheduleLoad(): void {
    const delay = Math.min(100 * 2 ** this.retryAttempt++, 5000);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.phase === 'stopped') return;
      this.load().catch((err: unknown) => {
        if (this.phase === 'stopped') return;
        this.warn(`watch cache ${this.prefix}: re-list failed (${err instanceof Error ? err.message : String(err)})`);
        this.scheduleLoad();
      });
    }, delay);
    this.retryTimer.unref();
  }
}
