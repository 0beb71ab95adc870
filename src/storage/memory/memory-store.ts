/**
 * In-memory backend with etcd semantics, for tests and `--storage=memory`. It keeps the full revision
 * history (until compacted), so reads at past revisions and watches from a past revision work exactly as
 * with the durable backends.
 *
 * Invariants: `log` holds every retained change in revision order (puts and tombstones); `current` holds the
 * latest live entry of each key; history at or below `compacted` keeps only each key's latest live entry, so
 * every retained change above `compacted` can still find its previous value. Events are published from a
 * microtask so a listener that writes from inside `onEvents` cannot reorder delivery.
 */
import {
  FutureRevisionError,
  StoreClosedError,
  type BackendOptions,
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
import { checkRevisionOption, checkWrite, RetentionClock, unrefInterval } from './backend-support.ts';
import { assertNotCompacted, WatchHub, type HistoryPage } from './watch-hub.ts';

export interface MemoryStoreOptions extends BackendOptions {
  /** Compact history older than this automatically (unset = never). */
  readonly compactAfterMs?: number;
  /** How often expired TTL keys are swept. Default 500 ms. */
  readonly ttlSweepMs?: number;
  /** Idle progress notification interval for watchers that ask for it. Default 1000 ms. */
  readonly progressIntervalMs?: number;
}

interface Entry {
  readonly rev: number;
  readonly key: string;
  readonly value: Bytes;
  readonly createRev: number;
  readonly version: number;
  readonly deleted: boolean;
  /** Revision of the key's previous live entry (0 = none: this entry created the key). */
  readonly prevRev: number;
}

const EMPTY = new Uint8Array(0);

export class MemoryStore implements Store {
  private readonly keyPrefix: string;
  private log: Entry[] = [];
  private byRev = new Map<number, Entry>();
  private perKey = new Map<string, Entry[]>();
  private readonly current = new Map<string, Entry>();
  private readonly expires = new Map<string, number>();
  private rev = 1;
  private compacted = 0;
  private closed = false;
  private readonly hub: WatchHub;
  private pending: WatchEvent[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private ttlTimer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: MemoryStoreOptions = {}) {
    this.keyPrefix = opts.keyPrefix ?? '';
    this.hub = new WatchHub({
      source: { readHistory: (p, a, u, l) => this.readHistory(p, a, u, l) },
      initialRevision: this.rev,
      progressIntervalMs: opts.progressIntervalMs,
    });
    if (opts.compactAfterMs !== undefined) {
      const clock = new RetentionClock(opts.compactAfterMs);
      const every = Math.max(10, Math.min(60_000, Math.floor(opts.compactAfterMs / 5)));
      this.timers.push(unrefInterval(() => {
        const target = clock.sample(Date.now(), this.rev);
        if (target > this.compacted) this.compactSync(target);
      }, every));
    }
  }

  async get(key: string, opts: GetOptions = {}): Promise<KeyValue | undefined> {
    const at = this.readRevision(opts.revision);
    const e = at === this.rev ? this.current.get(key) : this.entryAt(key, at);
    return e && !e.deleted ? toKv(e, false) : undefined;
  }

  async range(prefix: string, opts: RangeOptions = {}): Promise<RangeResult> {
    const at = this.readRevision(opts.revision);
    const from = opts.startKey !== undefined && opts.startKey > prefix ? opts.startKey : prefix;
    const found: Entry[] = [];
    const source = at === this.rev ? this.current.keys() : this.perKey.keys();
    for (const key of source) {
      if (!key.startsWith(prefix) || key < from) continue;
      const e = at === this.rev ? this.current.get(key) : this.entryAt(key, at);
      if (e && !e.deleted) found.push(e);
    }
    const count = found.length;
    if (opts.countOnly) return { items: [], more: false, count, revision: at };
    found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const limit = opts.limit && opts.limit > 0 ? opts.limit : count;
    const items = found.slice(0, limit).map((e) => toKv(e, opts.keysOnly === true));
    return { items, more: count > limit, count, revision: at };
  }

  async currentRevision(): Promise<number> {
    this.assertOpen();
    return this.rev;
  }

  watch(prefix: string, opts: WatchOptions, listener: WatchListener): WatchHandle {
    return this.hub.watch(prefix, opts, listener);
  }

  async create(key: string, value: Bytes, opts: WriteOptions = {}): Promise<TxnResult> {
    this.assertOpen();
    checkWrite(key, value, this.keyPrefix);
    const cur = this.current.get(key);
    if (cur) return { succeeded: false, current: toKv(cur, false) };
    const e = this.append({ key, value: copy(value), createRev: 0, version: 1, deleted: false, prevRev: 0 });
    this.setTtl(key, opts.ttlSeconds);
    return { succeeded: true, revision: e.rev, kv: toKv(e, false) };
  }

  async update(key: string, value: Bytes, opts: GuardedWriteOptions): Promise<TxnResult> {
    this.assertOpen();
    checkWrite(key, value, this.keyPrefix);
    const cur = this.current.get(key);
    if (!cur || cur.rev !== opts.expectedModRevision) return { succeeded: false, current: cur && toKv(cur, false) };
    const e = this.append({ key, value: copy(value), createRev: cur.createRev, version: cur.version + 1, deleted: false, prevRev: cur.rev });
    this.setTtl(key, opts.ttlSeconds);
    return { succeeded: true, revision: e.rev, kv: toKv(e, false), prevKv: toKv(cur, false) };
  }

  async delete(key: string, opts: DeleteOptions = {}): Promise<TxnResult> {
    this.assertOpen();
    checkWrite(key, undefined, this.keyPrefix);
    const cur = this.current.get(key);
    if (!cur || (opts.expectedModRevision !== undefined && cur.rev !== opts.expectedModRevision)) {
      return { succeeded: false, current: cur && toKv(cur, false) };
    }
    const e = this.append({ key, value: EMPTY, createRev: 0, version: 0, deleted: true, prevRev: cur.rev });
    this.expires.delete(key);
    return { succeeded: true, revision: e.rev, kv: toKv(e, false), prevKv: toKv(cur, false) };
  }

  async compact(revision: number): Promise<void> {
    this.assertOpen();
    const r = checkRevisionOption(revision);
    if (r > this.rev) throw new FutureRevisionError(r, this.rev);
    if (r > this.compacted) this.compactSync(r);
  }

  /** The lowest readable revision: the last compact() target (reads at it still work), at least 1. */
  async compactedRevision(): Promise<number> {
    this.assertOpen();
    return Math.max(1, this.compacted);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    if (this.ttlTimer) clearInterval(this.ttlTimer);
    this.hub.closeAll();
  }

  async checkIntegrity(): Promise<string[]> {
    const problems: string[] = [];
    let last = 0;
    for (const e of this.log) {
      if (e.rev <= last) problems.push(`log out of order at revision ${e.rev}`);
      last = e.rev;
    }
    if (last > this.rev) problems.push(`log revision ${last} above current revision ${this.rev}`);
    for (const [key, e] of this.current) {
      const hist = this.perKey.get(key);
      if (!hist || hist[hist.length - 1] !== e) problems.push(`current entry of ${key} is not its latest change`);
    }
    for (const [key, hist] of this.perKey) {
      const latest = hist[hist.length - 1];
      if (latest && !latest.deleted && this.current.get(key) !== latest) problems.push(`live key ${key} missing from current state`);
    }
    return problems;
  }

  async ping(): Promise<void> {
    this.assertOpen();
  }

  // ---- internals ----

  private assertOpen(): void {
    if (this.closed) throw new StoreClosedError();
  }

  /** Validates a read revision and resolves 0 to the current one. */
  private readRevision(revision: number | undefined): number {
    this.assertOpen();
    const r = checkRevisionOption(revision);
    if (r === 0) return this.rev;
    if (r > this.rev) throw new FutureRevisionError(r, this.rev);
    assertNotCompacted(r, this.compacted);
    return r;
  }

  /** The key's latest entry at or below `rev` (possibly a tombstone). */
  private entryAt(key: string, rev: number): Entry | undefined {
    const hist = this.perKey.get(key);
    if (!hist) return undefined;
    for (let i = hist.length - 1; i >= 0; i--) if (hist[i]!.rev <= rev) return hist[i];
    return undefined;
  }

  private append(fields: Omit<Entry, 'rev'>): Entry {
    const rev = ++this.rev;
    const e: Entry = { ...fields, rev, createRev: fields.deleted ? 0 : fields.createRev || rev };
    this.log.push(e);
    this.byRev.set(rev, e);
    let hist = this.perKey.get(e.key);
    if (!hist) this.perKey.set(e.key, (hist = []));
    hist.push(e);
    if (e.deleted) this.current.delete(e.key);
    else this.current.set(e.key, e);
    this.pending.push(this.toEvent(e));
    if (this.pending.length === 1) queueMicrotask(() => this.flush());
    return e;
  }

  private flush(): void {
    const events = this.pending;
    this.pending = [];
    if (events.length > 0 && !this.closed) this.hub.publish(events, events[events.length - 1]!.kv.modRevision);
  }

  private toEvent(e: Entry): WatchEvent {
    const prev = e.prevRev ? this.byRev.get(e.prevRev) : undefined;
    if (e.deleted) return { type: 'delete', kv: toKv(e, false), prevKv: toKv(prev!, false) };
    return prev ? { type: 'put', kv: toKv(e, false), prevKv: toKv(prev, false) } : { type: 'put', kv: toKv(e, false) };
  }

  private readHistory(prefix: string, after: number, upTo: number, limit: number): HistoryPage {
    assertNotCompacted(after, this.compacted);
    let lo = 0;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.log[mid]!.rev <= after) lo = mid + 1;
      else hi = mid;
    }
    const events: WatchEvent[] = [];
    for (let i = lo; i < this.log.length; i++) {
      const e = this.log[i]!;
      if (e.rev > upTo) break;
      if (e.key.startsWith(prefix)) {
        events.push(this.toEvent(e));
        if (events.length >= limit) return { events, scannedTo: e.rev };
      }
    }
    return { events, scannedTo: upTo };
  }

  private compactSync(revision: number): void {
    const keep = (e: Entry): boolean => {
      if (e.rev > revision) return true;
      if (e.deleted) return false;
      const latest = this.entryAt(e.key, revision);
      return latest === e;
    };
    this.log = this.log.filter(keep);
    this.byRev = new Map(this.log.map((e) => [e.rev, e]));
    const perKey = new Map<string, Entry[]>();
    for (const e of this.log) {
      let hist = perKey.get(e.key);
      if (!hist) perKey.set(e.key, (hist = []));
      hist.push(e);
    }
    this.perKey = perKey;
    this.compacted = revision;
  }

  private setTtl(key: string, ttlSeconds: number | undefined): void {
    if (!ttlSeconds || ttlSeconds <= 0) {
      this.expires.delete(key);
      return;
    }
    this.expires.set(key, Date.now() + ttlSeconds * 1000);
    this.ttlTimer ??= unrefInterval(() => this.sweepExpired(), this.opts.ttlSweepMs ?? 500);
  }

  /** Deletes expired keys as etcd does when a lease runs out: an ordinary delete with its own revision. */
  private sweepExpired(): void {
    const now = Date.now();
    for (const [key, at] of this.expires) {
      if (at > now) continue;
      const cur = this.current.get(key);
      if (cur) void this.delete(key, { expectedModRevision: cur.rev });
      else this.expires.delete(key);
    }
  }
}

function toKv(e: Entry, keysOnly: boolean): KeyValue {
  return { key: e.key, value: keysOnly ? EMPTY : e.value, createRevision: e.createRev, modRevision: e.rev, version: e.version };
}

/** The store keeps its own copy: a caller reusing its buffer must not change stored history. */
function copy(value: Bytes): Bytes {
  return Uint8Array.prototype.slice.call(value);
}
