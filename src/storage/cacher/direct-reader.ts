/**
 * `ObjectReader` without a cache: every read goes to the store, every watch is its own store watch that
 * decodes each change for itself. Same contract as `Cacher` (tests and tools can run either way) and the
 * reference its behaviour is checked against. Consistent reads are simply reads at the store's current
 * revision.
 *
 * Differences, by design: no event window of its own (a watch from a compacted revision gets the store's
 * CompactedError, reported as TooOldResourceVersionError), no serve-once sharing between watchers, and
 * no buffering: a sink that returns false is not paused (its own stream buffers).
 */
import { CompactedError, FutureRevisionError, type StoreReader, type WatchHandle } from '../interface.ts';
import { backendGet, backendList, decodeOrSkip } from './backend-reader.ts';
import { classify } from './classify.ts';
import { TooOldResourceVersionError } from './errors.ts';
import type { Change } from './event-window.ts';
import { bookmarkEvent, makeDeletedObject, objectEvent } from './objects.ts';
import type {
  CachedObject, ObjectCodec, ObjectGetOptions, ObjectListOptions, ObjectListResult, ObjectReader, ObjectWatch,
  ObjectWatchOptions, ObjectWatchSink, ReadAt,
} from './types.ts';

export interface DirectReaderOptions {
  readonly store: StoreReader;
  readonly codec: ObjectCodec;
  /** Minimum time between periodic BOOKMARKs of one watch (sent on store progress). Default 60 s. */
  readonly bookmarkIntervalMs?: number;
}

export class DirectReader implements ObjectReader {
  private readonly store: StoreReader;
  private readonly codec: ObjectCodec;

  constructor(private readonly opts: DirectReaderOptions) {
    this.store = opts.store;
    this.codec = opts.codec;
  }

  async currentRevision(): Promise<number> {
    return this.store.currentRevision();
  }

  async get(key: string, opts: ObjectGetOptions): Promise<CachedObject | undefined> {
    return backendGet(this.store, this.codec, key, await this.revisionFor(opts.read));
  }

  async list(prefix: string, opts: ObjectListOptions): Promise<ObjectListResult> {
    return backendList(this.store, this.codec, prefix, {
      revision: await this.revisionFor(opts.read), limit: opts.limit, afterKey: opts.afterKey, predicate: opts.predicate,
    });
  }

  watch(prefix: string, opts: ObjectWatchOptions, sink: ObjectWatchSink): ObjectWatch {
    const state: { disposed: boolean; handle?: WatchHandle } = { disposed: false };
    this.startWatch(prefix, opts, sink, state).catch((err: unknown) => {
      if (!state.disposed) sink.onClose(err instanceof Error ? err : new Error(String(err)));
    });
    return {
      dispose: () => {
        state.disposed = true;
        state.handle?.dispose();
      },
    };
  }

  /** 0 = the store's current revision. */
  private async revisionFor(read: ReadAt): Promise<number> {
    switch (read.kind) {
      case 'any':
      case 'consistent':
        return 0;
      case 'notOlderThan': {
        const cur = await this.store.currentRevision();
        if (cur < read.revision) throw new FutureRevisionError(read.revision, cur);
        return cur;
      }
      case 'exact':
        return read.revision;
    }
  }

  private async startWatch(prefix: string, opts: ObjectWatchOptions, sink: ObjectWatchSink, state: { disposed: boolean; handle?: WatchHandle }): Promise<void> {
    const pred = opts.predicate && !opts.predicate.empty ? opts.predicate : undefined;
    const from = opts.fromRevision;
    const initial = opts.sendInitialEvents ?? (from === undefined || from === 0);
    let startRev = from ?? 0;
    let closed = false;
    const close = (err?: Error): void => {
      if (closed || state.disposed) return;
      closed = true;
      state.handle?.dispose();
      sink.onClose(err);
    };
    const send = (ev: Parameters<ObjectWatchSink['onEvent']>[0]): void => {
      if (closed || state.disposed) return;
      try {
        sink.onEvent(ev);
      } catch (err) {
        close(err instanceof Error ? err : new Error(String(err)));
      }
    };
    if (initial) {
      // The whole state at one revision, then changes after it.
      const all = await backendList(this.store, this.codec, prefix, { revision: 0, predicate: pred });
      if (state.disposed) return;
      if (from !== undefined && all.revision < from) throw new FutureRevisionError(from, all.revision);
      startRev = all.revision;
      for (const o of all.items) send(objectEvent('ADDED', o));
      if (opts.sendInitialEvents) send(bookmarkEvent(startRev, true));
    } else if (!startRev) {
      startRev = await this.store.currentRevision(); // sendInitialEvents=false: changes from now on only
    }
    if (closed || state.disposed) return;
    const interval = this.opts.bookmarkIntervalMs ?? 60_000;
    let lastBookmark = Date.now();
    let lastRev = startRev;
    state.handle = this.store.watch(prefix, { fromRevision: startRev, progressNotify: opts.bookmarks === true }, {
      onEvents: (events) => {
        for (const e of events) {
          const change = this.toChange(e.type, e.kv, e.prevKv);
          lastRev = e.kv.modRevision;
          const ev = change && classify(change, pred);
          if (ev) send(ev);
        }
      },
      onProgress: (r) => {
        if (!opts.bookmarks || r <= lastRev || Date.now() - lastBookmark < interval) return;
        lastBookmark = Date.now();
        lastRev = r;
        send(bookmarkEvent(r));
      },
      onError: (err) => {
        close(err instanceof CompactedError && !(err instanceof TooOldResourceVersionError)
          ? new TooOldResourceVersionError(startRev, err.compactedRevision)
          : err);
      },
    });
    if (state.disposed) state.handle.dispose();
  }

  private toChange(type: 'put' | 'delete', kv: Parameters<typeof decodeOrSkip>[1], prevKv: Parameters<typeof decodeOrSkip>[1] | undefined): Change | undefined {
    const revision = kv.modRevision;
    const prev = prevKv ? decodeOrSkip(this.codec, prevKv) : undefined;
    if (type === 'put') {
      const object = decodeOrSkip(this.codec, kv);
      if (!object) return undefined;
      return prev ? { revision, kind: 'put', object, prev } : { revision, kind: 'put', object };
    }
    if (!prevKv) return undefined;
    try {
      const object = makeDeletedObject(this.codec, prevKv, revision);
      return prev ? { revision, kind: 'delete', object, prev } : { revision, kind: 'delete', object };
    } catch {
      return undefined;
    }
  }
}
