/**
 * A Store that encrypts values on the way to the backend and decrypts them on the way back: kube's value
 * transformers placed between the codec (above) and the backend (below), so the embedded SQLite store and etcd
 * hold the same bytes kube-apiserver would write. Keys, revisions and watch semantics pass through unchanged.
 *
 * A stored value no provider can read is handed up as an {@link UntransformableValue}: the raw bytes plus the
 * transformer's error. The registry's decoder turns it into kube's corrupt-object error (never a crash), so
 * such an object can be inspected and removed with `ignoreStoreReadErrorWithClusterBreakingPotential`.
 *
 * Watch events are decrypted in arrival order; a watcher's batches are delivered one after another even when a
 * KMS plugin answers slowly.
 */
import type {
  DeleteOptions, GetOptions, GuardedWriteOptions, KeyValue, RangeOptions, RangeResult, Store, TxnResult, WatchEvent,
  WatchHandle, WatchListener, WatchOptions, WriteOptions,
} from '../interface.ts';
import { identityTransformer, isPromise, type FromStorage, type Transformer } from './transformer.ts';

/** Bytes that no configured provider could decrypt; `reason` is the transformer's error. */
export class UntransformableValue extends Uint8Array {
  reason = '';
}

function untransformable(raw: Uint8Array, reason: string): UntransformableValue {
  const v = new UntransformableValue(raw.length);
  v.set(raw);
  v.reason = reason;
  return v;
}

/**
 * Plaintext read with a provider that no longer writes (an older key, identity behind an encrypting provider):
 * an update must write it again even when nothing changed, so `kubectl replace` re-encrypts (kube's `stale`).
 */
export class StaleValue extends Uint8Array {}

export function isStale(value: Uint8Array): boolean {
  return value instanceof StaleValue;
}

function stale(data: Uint8Array): StaleValue {
  const v = new StaleValue(data.length);
  v.set(data);
  return v;
}

/** Picks the transformer of a storage key (undefined: the key's resource is not configured). */
export type TransformerForKey = (key: string) => Transformer | undefined;

const te = new TextEncoder();

export class TransformingStore implements Store {
  constructor(private readonly backend: Store, private readonly transformerFor: TransformerForKey) {}

  private async toStorage(key: string, value: Uint8Array): Promise<Uint8Array> {
    const t = this.transformerFor(key);
    if (!t) return value;
    return t.toStorage(value, te.encode(key));
  }

  /** Decrypts one kv; values without a configured provider still go through kube's identity check. */
  private fromStorage(kv: KeyValue): KeyValue | Promise<KeyValue> {
    if (kv.value.length === 0) return kv;
    const t = this.transformerFor(kv.key) ?? identityTransformer;
    const ok = (r: FromStorage): KeyValue => (r.stale ? { ...kv, value: stale(r.data) } : r.data === kv.value ? kv : { ...kv, value: r.data });
    const bad = (e: unknown): KeyValue => ({ ...kv, value: untransformable(kv.value, e instanceof Error ? e.message : String(e)) });
    let r: FromStorage | Promise<FromStorage>;
    try {
      r = t.fromStorage(kv.value, te.encode(kv.key));
    } catch (e) {
      return bad(e);
    }
    return isPromise(r) ? r.then(ok, bad) : ok(r);
  }

  private async fromStorageAll(items: readonly KeyValue[]): Promise<KeyValue[]> {
    const out = items.map((kv) => this.fromStorage(kv));
    return out.some(isPromise) ? Promise.all(out.map((r) => Promise.resolve(r))) : (out as KeyValue[]);
  }

  /** `written`: the plaintext just stored, handed back instead of decrypting what was written. */
  private async txn(r: TxnResult, written?: Uint8Array): Promise<TxnResult> {
    if (!r.succeeded) return r.current ? { succeeded: false, current: await this.fromStorage(r.current) } : r;
    const kv = written !== undefined ? { ...r.kv, value: written } : await this.fromStorage(r.kv);
    return r.prevKv ? { ...r, kv, prevKv: await this.fromStorage(r.prevKv) } : { ...r, kv };
  }

  async get(key: string, opts?: GetOptions): Promise<KeyValue | undefined> {
    const kv = await this.backend.get(key, opts);
    return kv ? this.fromStorage(kv) : undefined;
  }

  async range(prefix: string, opts?: RangeOptions): Promise<RangeResult> {
    const r = await this.backend.range(prefix, opts);
    if (opts?.keysOnly || opts?.countOnly || r.items.length === 0) return r;
    return { ...r, items: await this.fromStorageAll(r.items) };
  }

  currentRevision(): Promise<number> {
    return this.backend.currentRevision();
  }

  watch(prefix: string, opts: WatchOptions, listener: WatchListener): WatchHandle {
    let chain: Promise<void> = Promise.resolve();
    let ended = false;
    const decryptEvent = async (e: WatchEvent): Promise<WatchEvent> => {
      const prevKv = e.prevKv ? await this.fromStorage(e.prevKv) : undefined;
      if (e.type === 'delete') return { type: 'delete', kv: e.kv, prevKv: prevKv! };
      const kv = await this.fromStorage(e.kv);
      return prevKv ? { type: 'put', kv, prevKv } : { type: 'put', kv };
    };
    const inner = this.backend.watch(prefix, opts, {
      onEvents: (events) => {
        chain = chain.then(async () => {
          const out = await Promise.all(events.map(decryptEvent));
          if (!ended) listener.onEvents(out);
        });
      },
      onProgress: listener.onProgress ? (rev) => {
        chain = chain.then(() => { if (!ended) listener.onProgress!(rev); });
      } : undefined,
      onError: (err) => {
        chain = chain.then(() => {
          if (ended) return;
          ended = true;
          listener.onError(err);
        });
      },
    });
    return {
      dispose: () => {
        ended = true;
        inner.dispose();
      },
    };
  }

  async create(key: string, value: Uint8Array, opts?: WriteOptions): Promise<TxnResult> {
    return this.txn(await this.backend.create(key, await this.toStorage(key, value), opts), value);
  }

  async update(key: string, value: Uint8Array, opts: GuardedWriteOptions): Promise<TxnResult> {
    return this.txn(await this.backend.update(key, await this.toStorage(key, value), opts), value);
  }

  async delete(key: string, opts?: DeleteOptions): Promise<TxnResult> {
    return this.txn(await this.backend.delete(key, opts));
  }

  compact(revision: number): Promise<void> {
    return this.backend.compact(revision);
  }

  compactedRevision(): Promise<number> {
    return this.backend.compactedRevision();
  }

  close(): Promise<void> {
    return this.backend.close();
  }

  checkIntegrity(): Promise<string[]> {
    return this.backend.checkIntegrity ? this.backend.checkIntegrity() : Promise.resolve([]);
  }

  ping(): Promise<void> {
    return this.backend.ping ? this.backend.ping() : this.backend.currentRevision().then(() => undefined);
  }
}
