/**
 * The etcd v3 backend: the Store contract mapped one to one onto etcd's KV, Txn, Watch and Compact APIs.
 *
 * - Writes are single guarded transactions (./txn.ts); a failed guard returns the current value from the
 *   same transaction, so callers need no extra read.
 * - Reads are etcd's default linearizable ranges; `revision` reads the MVCC history.
 * - `prefix` is kube-apiserver's `--etcd-prefix`: with a `keyPrefix` (the API server's `/registry/`) the keys
 *   under it are mounted there in kube's exact layout, otherwise it is prepended to every key (./codec.ts).
 * - Values above MAX_VALUE_BYTES are refused before anything is sent; etcd's own "request is too large"
 *   (its `--max-request-bytes`, 1.5 MiB by default, counts key and framing too) maps to the same error.
 * - Calls go out once (no blind client-side retries: see ./client.ts); connection failures surface as
 *   StorageUnavailableError. With several members configured, a call that could not reach one goes to
 *   another (`send`). Watches reconnect by themselves and resume where they were (./watch.ts).
 * - `compactedRevision()` is learned, not read: see ./compaction.ts.
 */
import type { Etcd3, IRangeRequest, IRangeResponse, ITxnRequest, ITxnResponse } from 'etcd3';
import {
  checkValueSize,
  CompactedError,
  FutureRevisionError,
  KeyOutsidePrefixError,
  StorageUnavailableError,
  StorageError,
  StoreClosedError,
  type Bytes,
  type DeleteOptions,
  type GetOptions,
  type GuardedWriteOptions,
  type KeyValue,
  type RangeOptions,
  type RangeResult,
  type Store,
  type TxnResult,
  type WatchHandle,
  type WatchListener,
  type WatchOptions,
  type WriteOptions,
} from '../interface.ts';
import { createEtcdClient } from './client.ts';
import { KeyCodec, normalizeEtcdPrefix } from './codec.ts';
import { CompactionTracker } from './compaction.ts';
import { Compactor } from './compactor.ts';
import { isCompactedMessage, mapEtcdError, neverSent } from './errors.ts';
import { LeaseManager } from './leases.ts';
import { createResult, createTxn, deleteResult, deleteTxn, updateResult, updateTxn } from './txn.ts';
import { EtcdWatch, progressRequestsSafe } from './watch.ts';

export interface EtcdStoreOptions {
  /** Client URLs, e.g. `http://127.0.0.1:2379` (`https://` with caFile for TLS). */
  readonly servers: readonly string[];
  /**
   * kube-apiserver's `--etcd-prefix`. With `keyPrefix` set, keys under `keyPrefix` live at `<prefix>/<rest>`
   * (kube's layout); without, it is prepended to every key. Default none.
   */
  readonly prefix?: string;
  readonly caFile?: string;
  readonly certFile?: string;
  readonly keyFile?: string;
  /** How long `openEtcdStore` waits for etcd to answer (default 5 s). */
  readonly dialTimeoutMs?: number;
  /** Deadline of every unary call (default 15 s). */
  readonly requestTimeoutMs?: number;
  /** Reject writes of keys outside this prefix (BackendOptions.keyPrefix). Empty = all keys allowed. */
  readonly keyPrefix?: string;
  /**
   * Compact etcd's history this often, coordinated with other API servers on the same etcd as
   * kube-apiserver's `--etcd-compaction-interval` (see ./compactor.ts). Default 5 min; 0 turns it off.
   */
  readonly compactionIntervalMs?: number;
  /** Refuse to open over Keelson's old doubled layout (default true; `keelson migrate` reads it as a source). */
  readonly legacyLayoutCheck?: boolean;
}

/** kube-apiserver's default `--etcd-compaction-interval`. */
export const DEFAULT_COMPACTION_INTERVAL_MS = 5 * 60 * 1000;

/** Connects, checks that etcd answers within `dialTimeoutMs`, and returns the store. */
export async function openEtcdStore(opts: EtcdStoreOptions): Promise<Store> {
  const client = await createEtcdClient(opts);
  const store = new EtcdStore(client, opts);
  const deadline = Date.now() + (opts.dialTimeoutMs ?? 5000);
  for (;;) {
    try {
      // Bounded by the dial deadline even when etcd's address swallows packets (no refusal to react to).
      await store.learnServerVersion(Math.max(deadline, Date.now() + 100));
      await refuseLegacyLayout(store, opts).catch(async (err: unknown) => {
        await store.close();
        throw err;
      });
      store.startCompactor(opts.compactionIntervalMs ?? DEFAULT_COMPACTION_INTERVAL_MS);
      return store;
    } catch (err) {
      // Only unreachability is worth waiting out; anything else (TLS, permissions) is final.
      if (!(err instanceof StorageUnavailableError)) {
        await store.close();
        throw err;
      }
      if (Date.now() >= deadline) {
        await store.close();
        const e = new StorageUnavailableError(
          `etcd at ${opts.servers.join(',')} did not answer within ${opts.dialTimeoutMs ?? 5000} ms: ${(err as Error).message}`,
        );
        throw e;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const PING_TIMEOUT_MS = 2000;

/**
 * Keelson before the mounted layout (./codec.ts) wrote `<prefix>/registry/...` (the prefix in front of our
 * `/registry/...` keys). Such data is refused at start rather than silently hidden: a server would come up
 * empty beside it. The same keys are the mounted space of prefix `<prefix>/registry`, which is how
 * `keelson migrate` reads them.
 */
async function refuseLegacyLayout(store: EtcdStore, opts: EtcdStoreOptions): Promise<void> {
  if (!opts.keyPrefix || opts.legacyLayoutCheck === false) return;
  const legacy = `${opts.keyPrefix}${opts.keyPrefix.replace(/^\//, '')}`;
  if ((await store.range(legacy, { countOnly: true })).count === 0) return;
  const root = normalizeEtcdPrefix(opts.prefix ?? '');
  const servers = opts.servers.join(',');
  throw new StorageError(
    `etcd at ${servers} holds keys under ${root}${opts.keyPrefix}, the layout of Keelson before kube's key layout was adopted ` +
      `(the etcd prefix doubled). Move them to kube's layout first: keelson migrate --from-etcd-servers ${servers} --from-etcd-prefix ${root}/registry ` +
      `--to-etcd-servers ${servers} --to-etcd-prefix ${root || '/'}, then delete the old keys (etcdctl del --prefix ${root}${opts.keyPrefix})`,
  );
}

export class EtcdStore implements Store {
  private readonly codec: KeyCodec;
  private readonly leases: LeaseManager;
  private readonly compaction: CompactionTracker;
  private readonly watches = new Set<EtcdWatch>();
  private readonly keyPrefix: string;
  private closed = false;
  /** etcd's version as reported by the member that answered at open ('' = unknown). */
  serverVersion = '';
  private compactor: Compactor | undefined;

  /**
   * The key that revision and liveness reads look at: the prefix itself, so an etcd user whose role only
   * covers the prefix can run them (`\0` when there is no prefix). Its value does not matter.
   */
  private readonly probeKey: Buffer;
  /** Configured etcd members: a call that failed to reach one may go to another. */
  private readonly members: number;

  constructor(
    private readonly client: Etcd3,
    opts: Partial<Pick<EtcdStoreOptions, 'prefix' | 'keyPrefix' | 'servers'>> = {},
  ) {
    this.members = Math.max(1, opts.servers?.length ?? 1);
    this.keyPrefix = opts.keyPrefix ?? '';
    this.codec = new KeyCodec(opts.prefix ?? '', this.keyPrefix);
    this.probeKey = this.codec.root.length ? this.codec.root : Buffer.from([0]);
    this.leases = new LeaseManager(client);
    this.compaction = new CompactionTracker({
      isCompacted: (revision) => this.isCompacted(revision),
      currentRevision: () => this.currentRevision(),
    });
  }

  // ---- reads ----------------------------------------------------------------------------------------------

  async get(key: string, opts: GetOptions = {}): Promise<KeyValue | undefined> {
    this.ensureOpen();
    // A key outside the mounted key space has no etcd key: it cannot exist.
    if (!this.codec.isStorable(key)) return undefined;
    const res = await this.rangeCall({ key: this.codec.encode(key), revision: opts.revision ?? 0 }, opts.revision);
    const kv = res.kvs[0];
    return kv ? this.codec.kv(kv) : undefined;
  }

  async range(prefix: string, opts: RangeOptions = {}): Promise<RangeResult> {
    this.ensureOpen();
    if (opts.startKey !== undefined && !opts.startKey.startsWith(prefix)) {
      throw new KeyOutsidePrefixError(opts.startKey, prefix);
    }
    const start = this.codec.scanStart(opts.startKey ?? prefix);
    const end = this.codec.rangeEnd(prefix);
    // A scan outside the mounted key space is empty (etcd would read [start, end) the same way; no call needed
    // beyond the revision).
    if (start.length > 0 && start.equals(end)) {
      const revision = opts.revision ? opts.revision : await this.currentRevision();
      return { items: [], more: false, count: 0, revision };
    }
    const res = await this.rangeCall(
      {
        key: start.length > 0 ? start : Buffer.from([0]),
        range_end: end,
        revision: opts.revision ?? 0,
        limit: opts.countOnly ? 0 : (opts.limit ?? 0),
        keys_only: opts.keysOnly === true,
        count_only: opts.countOnly === true,
      },
      opts.revision,
    );
    const items = opts.countOnly ? [] : res.kvs.map((kv) => this.codec.kv(kv, { keyOnly: opts.keysOnly === true }));
    return {
      items,
      more: opts.countOnly ? false : res.more,
      count: Number(res.count),
      revision: opts.revision ? opts.revision : Number(res.header.revision),
    };
  }

  async currentRevision(): Promise<number> {
    this.ensureOpen();
    try {
      const res = await this.send(() => this.client.kv.range({ key: this.probeKey, count_only: true }), { read: true });
      return Number(res.header.revision);
    } catch (err) {
      throw mapEtcdError(err);
    }
  }

  watch(prefix: string, opts: WatchOptions, listener: WatchListener): WatchHandle {
    this.ensureOpen();
    // etcd refuses an empty watch range; a prefix outside the mounted key space could never see a change.
    if (this.codec.scanStart(prefix).equals(this.codec.rangeEnd(prefix))) throw new KeyOutsidePrefixError(prefix, this.keyPrefix);
    const w = new EtcdWatch(
      {
        client: this.client,
        codec: this.codec,
        onCompacted: (rev) => this.compaction.note(rev),
        onEnded: (watch) => this.watches.delete(watch),
        progressRequests: progressRequestsSafe(this.serverVersion),
      },
      prefix,
      opts,
      listener,
    );
    this.watches.add(w);
    return w;
  }

  // ---- writes ---------------------------------------------------------------------------------------------

  async create(key: string, value: Bytes, opts: WriteOptions = {}): Promise<TxnResult> {
    this.checkWrite(key, value);
    const k = this.codec.encode(key);
    const res = await this.write(opts.ttlSeconds, value.byteLength, (lease) => createTxn(k, value, lease));
    return createResult(this.codec, key, value, res);
  }

  async update(key: string, value: Bytes, opts: GuardedWriteOptions): Promise<TxnResult> {
    this.checkWrite(key, value);
    const k = this.codec.encode(key);
    const res = await this.write(opts.ttlSeconds, value.byteLength, (lease) =>
      updateTxn(k, value, opts.expectedModRevision, lease),
    );
    return updateResult(this.codec, key, value, res);
  }

  async delete(key: string, opts: DeleteOptions = {}): Promise<TxnResult> {
    this.ensureOpen();
    this.checkKey(key);
    const k = this.codec.encode(key);
    const res = await this.write(undefined, undefined, () => deleteTxn(k, opts.expectedModRevision));
    return deleteResult(this.codec, key, res);
  }

  async compact(revision: number): Promise<void> {
    this.ensureOpen();
    try {
      await this.client.kv.compact({ revision });
    } catch (err) {
      const mapped = mapEtcdError(err);
      // Compacting at or below an earlier compaction changes nothing: treat it as done.
      if (mapped instanceof CompactedError) return;
      if (mapped instanceof FutureRevisionError) {
        throw new FutureRevisionError(revision, await this.currentRevision().catch(() => 0));
      }
      throw mapped;
    }
    this.compaction.note(revision);
  }

  /**
   * The lowest revision still readable. etcd keeps the compacted revision itself readable, so after
   * `compact(C)` this is C; before any compaction it is 1.
   */
  async compactedRevision(): Promise<number> {
    this.ensureOpen();
    return Math.max(1, await this.compaction.lookup());
  }

  async ping(): Promise<void> {
    this.ensureOpen();
    try {
      // Through `send`: with several members, ready means some member answers (a quorum read).
      await this.send(
        () => this.client.kv.range({ key: this.probeKey, count_only: true }, { deadline: Date.now() + PING_TIMEOUT_MS }),
        { read: true },
      );
    } catch (err) {
      throw mapEtcdError(err);
    }
  }

  /** etcd's physically allocated database bytes, from the Status call (kube's storage monitor asks the same). */
  async sizeBytes(): Promise<number> {
    this.ensureOpen();
    try {
      const status = await this.send(() => this.client.maintenance.status({ deadline: Date.now() + PING_TIMEOUT_MS }), { read: true });
      return Number(status.dbSize);
    } catch (err) {
      throw mapEtcdError(err);
    }
  }

  /** Reports etcd's active alarms (NOSPACE, CORRUPT): etcd refuses writes while one is raised. */
  async checkIntegrity(): Promise<string[]> {
    this.ensureOpen();
    try {
      const res = await this.client.maintenance.alarm({ action: 'Get', memberID: 0, alarm: 'None' });
      return res.alarms.map((a) => `etcd member ${a.memberID} has alarm ${String(a.alarm)}`);
    } catch (err) {
      throw mapEtcdError(err);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.compactor?.stop();
    for (const w of [...this.watches]) w.fail(new StoreClosedError());
    this.watches.clear();
    this.leases.clear();
    this.client.close();
  }

  /** Starts periodic compaction (idempotent; `intervalMs` 0 = none). */
  startCompactor(intervalMs: number): void {
    if (this.compactor || intervalMs <= 0 || this.closed) return;
    this.compactor = new Compactor({
      client: this.client,
      intervalMs,
      onCompacted: (rev) => this.compaction.note(rev),
    });
  }

  /**
   * Reads etcd's version (decides whether watches may send progress requests); also the first contact at
   * open, so it takes a deadline (epoch ms).
   */
  async learnServerVersion(deadline?: number): Promise<void> {
    this.ensureOpen();
    try {
      const status = await this.send(() => this.client.maintenance.status(deadline ? { deadline } : undefined), { read: true });
      this.serverVersion = status.version;
    } catch (err) {
      throw mapEtcdError(err);
    }
  }

  // ---- helpers --------------------------------------------------------------------------------------------

  private ensureOpen(): void {
    if (this.closed) throw new StoreClosedError();
  }

  private checkKey(key: string): void {
    if (this.keyPrefix && !key.startsWith(this.keyPrefix)) throw new KeyOutsidePrefixError(key, this.keyPrefix);
  }

  private checkWrite(key: string, value: Bytes): void {
    this.ensureOpen();
    this.checkKey(key);
    checkValueSize(value);
  }

  /** Runs a write transaction, attaching a lease when a TTL is asked; retries once if etcd lost the lease. */
  private async write(
    ttlSeconds: number | undefined,
    valueSize: number | undefined,
    build: (lease: string | undefined) => ITxnRequest,
  ): Promise<ITxnResponse> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.send(async () => {
          const lease = ttlSeconds !== undefined && ttlSeconds > 0 ? await this.leases.leaseFor(ttlSeconds) : undefined;
          return await this.client.kv.txn(build(lease));
        }, { read: false });
      } catch (err) {
        if (attempt === 0 && (err as Error)?.constructor?.name === 'EtcdLeaseInvalidError') {
          this.leases.clear();
          continue;
        }
        throw mapEtcdError(err, { valueSize });
      }
    }
  }

  /**
   * Sends an etcd call. With several members configured, a call that failed to reach one is sent again,
   * up to once per member (etcd3 skips members that just failed): always when it certainly never left,
   * and for reads whenever the member was unavailable. Errors come back raw; callers map them.
   */
  private async send<T>(call: () => Promise<T>, opts: { read: boolean }): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (err) {
        // Calls cut off by close() report the closed store, not a connection problem.
        if (this.closed) throw new StoreClosedError();
        if (attempt >= this.members) throw err;
        if (!neverSent(err) && !(opts.read && mapEtcdError(err) instanceof StorageUnavailableError)) throw err;
      }
    }
  }

  /** A range call with errors mapped and enriched with the compacted / current revision. */
  private async rangeCall(req: IRangeRequest, revision: number | undefined): Promise<IRangeResponse> {
    try {
      return await this.send(() => this.client.kv.range(req), { read: true });
    } catch (err) {
      throw await this.enrich(mapEtcdError(err, { revision }));
    }
  }

  private async enrich(err: Error): Promise<Error> {
    if (err instanceof CompactedError) {
      const compacted = await this.compaction.lookup().catch(() => this.compaction.lastKnown);
      return new CompactedError(err.requestedRevision, compacted);
    }
    if (err instanceof FutureRevisionError) {
      const current = await this.currentRevision().catch(() => 0);
      return new FutureRevisionError(err.requestedRevision, current);
    }
    return err;
  }

  private async isCompacted(revision: number): Promise<boolean> {
    try {
      await this.send(() => this.client.kv.range({ key: this.probeKey, revision, count_only: true }), { read: true });
      return false;
    } catch (err) {
      if (isCompactedMessage((err as Error).message ?? '')) return true;
      throw mapEtcdError(err);
    }
  }
}
