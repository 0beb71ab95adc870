/**
 * One store watch over one etcd gRPC watch stream, resilient to lost connections.
 *
 * Invariants:
 * - `lastRevision` is the revision up to which every change under the prefix has been handed to the
 *   listener. Events are delivered only when their revision is above it, so a re-created etcd watch that
 *   replays some history never produces duplicates, and re-creating it at `lastRevision + 1` leaves no gap.
 * - When the stream breaks (etcd restarted, connection lost), the watch reconnects with backoff and resumes
 *   at `lastRevision + 1`. If that revision was compacted meanwhile, etcd cancels the watch with the compact
 *   revision and the listener gets `CompactedError` (the caller re-lists, as Kubernetes clients do on 410).
 * - The listener sees `onEvents`/`onProgress` in revision order and nothing after `onError` or `dispose()`.
 * - `fromRevision: 0` means etcd's "from now": the start is the revision etcd reports when it creates the
 *   watch (a moment after `watch()` returns, as with any etcd client). Callers that need an exact start
 *   pass the revision of their list, as the watch cache does.
 * - A delete event always carries `prevKv`; should etcd omit it (only if that history was compacted
 *   while the event was in flight), it is the tombstone itself with an empty value.
 *
 * Progress: with `progressNotify` the etcd watch is created with `progress_notify`, and etcd sends the
 * current revision to synced watchers every `--experimental-watch-progress-notify-interval` (10 min by
 * default). `requestProgress()` asks for one now, but only against etcd 3.4.31+ / 3.5.13+: older versions
 * answer a `progress_request` with the current revision even while the watcher is still catching up
 * (etcd-io/etcd#15220), which would report progress past undelivered events; there it does nothing.
 *
 * One gRPC stream per watch keeps cancellation and resume independent; they share the client's HTTP/2
 * connection.
 */
import type { Etcd3, IDuplexStream, IEvent, IWatchRequest, IWatchResponse } from 'etcd3';
import {
  CompactedError,
  StorageError,
  type WatchEvent,
  type WatchHandle,
  type WatchListener,
  type WatchOptions,
} from '../interface.ts';
import type { KeyCodec } from './codec.ts';

export interface EtcdWatchDeps {
  readonly client: Etcd3;
  readonly codec: KeyCodec;
  /** Tells the store about a compaction learned from etcd (keeps `compactedRevision()` accurate). */
  readonly onCompacted: (revision: number) => void;
  /** Called when the watch ends for any reason (the store drops it from its live set). */
  readonly onEnded: (watch: EtcdWatch) => void;
  /** Reconnect delay for the n-th consecutive failure (default 100 ms doubling to 2 s). */
  readonly backoffMs?: (attempt: number) => number;
  /** Whether etcd answers `progress_request` correctly (see `progressRequestsSafe`). */
  readonly progressRequests?: boolean;
}

/**
 * True for etcd versions whose `progress_request` answer waits until the stream's watchers are synced:
 * 3.4.31+, 3.5.13+ and 3.6+. Older ones may report a revision whose events are still on their way.
 */
export function progressRequestsSafe(version: string): boolean {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  if (!m) return false;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (major !== 3) return major > 3;
  if (minor === 4) return patch >= 31;
  if (minor === 5) return patch >= 13;
  return minor > 5;
}

type Stream = IDuplexStream<IWatchRequest, IWatchResponse>;

const defaultBackoff = (attempt: number): number => Math.min(2000, 100 * 2 ** Math.min(attempt, 5));

export class EtcdWatch implements WatchHandle {
  private lastRevision: number;
  /** False until the first `created` response tells us the start revision of a fromRevision=0 watch. */
  private anchored: boolean;
  private stream: Stream | undefined;
  private ended = false;
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Number of times a broken stream was re-created (for tests and diagnostics). */
  reconnects = 0;

  constructor(
    private readonly deps: EtcdWatchDeps,
    private readonly prefix: string,
    private readonly opts: WatchOptions,
    private readonly listener: WatchListener,
  ) {
    this.lastRevision = opts.fromRevision > 0 ? opts.fromRevision : 0;
    this.anchored = opts.fromRevision > 0;
    void this.connect();
  }

  /**
   * Asks etcd for a progress notification now (delivered through `onProgress`), when the watch asked for
   * progress and etcd answers such requests safely; otherwise a no-op. Used by the watch cache to confirm
   * it is current without waiting for the periodic notification.
   */
  requestProgress(): void {
    if (this.ended || !this.anchored || !this.opts.progressNotify || !this.deps.progressRequests) return;
    try {
      this.stream?.write({ progress_request: {} });
    } catch {
      // the stream is breaking; the reconnect path takes over
    }
  }

  /** The revision up to which changes have been delivered (0 before a fromRevision=0 watch is created). */
  get deliveredRevision(): number {
    return this.lastRevision;
  }

  dispose(): void {
    if (this.ended) return;
    this.ended = true;
    this.teardown();
    this.deps.onEnded(this);
  }

  /** Ends the watch with an error delivered to the listener (store closed, compaction, listener failure). */
  fail(err: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.teardown();
    this.deps.onEnded(this);
    try {
      this.listener.onError(err);
    } catch {
      // the listener's own failure while handling ours: nothing more to tell it
    }
  }

  private teardown(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const s = this.stream;
    this.stream = undefined;
    if (s) cancelQuietly(s);
  }

  private async connect(): Promise<void> {
    if (this.ended) return;
    let stream: Stream;
    try {
      stream = await this.deps.client.watchClient.watch();
    } catch (err) {
      if (isClosedClient(err)) return this.fail(new StorageError('etcd client closed'));
      return this.scheduleReconnect();
    }
    if (this.ended) {
      cancelQuietly(stream);
      return;
    }
    this.stream = stream;
    stream.on('data', (res) => this.onResponse(stream, res));
    stream.on('error', () => this.onBroken(stream));
    stream.on('end', () => this.onBroken(stream));
    const { codec } = this.deps;
    const key = codec.scanStart(this.prefix);
    stream.write({
      create_request: {
        // etcd wants a non-empty key; with range end `\0`, key `\0` means "every key".
        key: key.length > 0 ? key : Buffer.from([0]),
        range_end: codec.rangeEnd(this.prefix),
        start_revision: this.anchored ? this.lastRevision + 1 : 0,
        prev_kv: true,
        progress_notify: this.opts.progressNotify === true,
      },
    });
  }

  private onBroken(stream: Stream): void {
    if (this.ended || stream !== this.stream) return;
    this.stream = undefined;
    // etcd3's own listener has already seen a real error (it was attached first) and marked the member.
    cancelQuietly(stream);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.ended || this.timer) return;
    const delay = (this.deps.backoffMs ?? defaultBackoff)(this.failures++);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.reconnects++;
      void this.connect();
    }, delay);
  }

  private onResponse(stream: Stream, res: IWatchResponse): void {
    if (this.ended || stream !== this.stream) return;
    if (res.canceled) return this.onCanceled(res);
    if (res.created) {
      this.failures = 0;
      if (!this.anchored) {
        this.lastRevision = Number(res.header.revision);
        this.anchored = true;
      }
      return;
    }
    this.failures = 0;
    if (res.events.length === 0) {
      // A progress notification: etcd sends it to synced watchers only, so everything up to the header
      // revision has been delivered.
      const rev = Number(res.header.revision);
      if (rev > this.lastRevision) this.lastRevision = rev;
      if (this.opts.progressNotify) this.call(() => this.listener.onProgress?.(rev));
      return;
    }
    const events: WatchEvent[] = [];
    for (const ev of res.events) {
      const rev = Number(ev.kv.mod_revision);
      if (rev <= this.lastRevision) continue; // replayed after a reconnect: already delivered
      events.push(this.toEvent(ev));
    }
    if (events.length === 0) return;
    this.lastRevision = events[events.length - 1]!.kv.modRevision;
    this.call(() => this.listener.onEvents(events));
  }

  private onCanceled(res: IWatchResponse): void {
    const compactRev = Number(res.compact_revision);
    if (compactRev > 0) {
      this.deps.onCompacted(compactRev);
      // The requested revision is the last one we had: the caller's resourceVersion on a fresh watch.
      return this.fail(new CompactedError(this.lastRevision, compactRev));
    }
    this.fail(new StorageError(`etcd canceled the watch: ${res.cancel_reason || 'no reason given'}`));
  }

  private toEvent(ev: IEvent): WatchEvent {
    const { codec } = this.deps;
    const kv = codec.kv(ev.kv);
    const prevKv = ev.prev_kv ? codec.kv(ev.prev_kv) : undefined;
    if (ev.type === 'Delete') {
      // etcd always has the previous value of a deleted key unless it was compacted away.
      return { type: 'delete', kv, prevKv: prevKv ?? { ...kv } };
    }
    return prevKv ? { type: 'put', kv, prevKv } : { type: 'put', kv };
  }

  /** Runs listener code; a throwing listener ends its own watch instead of breaking the stream. */
  private call(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.fail(err instanceof Error ? err : new Error(String(err)));
    }
  }
}

/**
 * Cancels a stream we are done with. etcd3 listens for stream errors to mark the member failed and reset
 * every gRPC client of that member; our own cancellation (a CANCELLED error) must not count as a failure,
 * or each disposed watch would tear down the shared connection (and, with several members, skip a
 * healthy one). So its listener goes first.
 */
function cancelQuietly(stream: Stream): void {
  const emitter = stream as unknown as NodeJS.EventEmitter;
  emitter.removeAllListeners('error');
  emitter.removeAllListeners('data');
  emitter.removeAllListeners('end');
  emitter.on('error', () => undefined);
  try {
    stream.cancel();
  } catch {
    // already closed
  }
}

function isClosedClient(err: unknown): boolean {
  return (err as Error | null)?.constructor?.name === 'ClientClosedError';
}
