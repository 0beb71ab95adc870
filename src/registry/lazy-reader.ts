/**
 * An ObjectReader that becomes another once it has started (a watch cache loading its prefix). Reads wait for
 * the start; a watch opened before then is attached when the reader is there (or closed with the start error),
 * and disposing it early cancels the attachment.
 */
import type {
  CachedObject, ObjectGetOptions, ObjectListOptions, ObjectListResult, ObjectReader, ObjectWatch,
  ObjectWatchOptions, ObjectWatchSink,
} from '../storage/cacher/types.ts';

export class LazyReader implements ObjectReader {
  private inner: ObjectReader | undefined;
  private readonly started: Promise<ObjectReader>;

  constructor(started: Promise<ObjectReader>) {
    this.started = started.then((r) => (this.inner = r));
    // Errors surface through ready() and every call; do not let an unobserved rejection crash the process.
    this.started.catch(() => undefined);
  }

  /** Resolves when the underlying reader is ready; rejects with its start error. */
  async ready(): Promise<void> {
    await this.started;
  }

  private reader(): ObjectReader | Promise<ObjectReader> {
    return this.inner ?? this.started;
  }

  async get(key: string, opts: ObjectGetOptions): Promise<CachedObject | undefined> {
    return (await this.reader()).get(key, opts);
  }

  async list(prefix: string, opts: ObjectListOptions): Promise<ObjectListResult> {
    return (await this.reader()).list(prefix, opts);
  }

  async current(key: string): Promise<CachedObject | undefined | null> {
    const r = this.inner; // before the start, nothing is known without waiting
    return r?.current ? r.current(key) : null;
  }

  async currentRevision(): Promise<number> {
    return (await this.reader()).currentRevision();
  }

  watch(prefix: string, opts: ObjectWatchOptions, sink: ObjectWatchSink): ObjectWatch {
    if (this.inner) return this.inner.watch(prefix, opts, sink);
    let disposed = false;
    let attached: ObjectWatch | undefined;
    this.started.then((r) => {
      if (!disposed) attached = r.watch(prefix, opts, sink);
    }, (err: unknown) => {
      if (!disposed) sink.onClose(err instanceof Error ? err : new Error(String(err)));
    });
    return {
      dispose() {
        disposed = true;
        attached?.dispose();
      },
    };
  }
}
