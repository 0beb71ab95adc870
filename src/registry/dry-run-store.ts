/**
 * Dry-run as a storage wrapper ("wrap, don't fork"): every registry step runs unchanged, only the final write is
 * answered from the current state instead of being made. Semantics follow kube's DryRunnableStorage:
 * - create: fails like a real create when the key exists; otherwise "succeeds" with modRevision 0, so the
 *   returned object has no resourceVersion (nothing was stored);
 * - update: checks the guard like a real update, and "succeeds" keeping the current modRevision (the answer
 *   shows the resourceVersion the object still has);
 * - delete: checks the guard and answers with the current value as `prevKv`.
 * Reads, watches and everything else go to the wrapped store.
 */
import type {
  Bytes, DeleteOptions, GetOptions, GuardedWriteOptions, KeyValue, RangeOptions, RangeResult, Store, TxnResult,
  WatchHandle, WatchListener, WatchOptions, WriteOptions,
} from '../storage/interface.ts';
import { checkValueSize } from '../storage/interface.ts';

export class DryRunStore implements Store {
  constructor(private readonly inner: Store) {}

  get(key: string, opts?: GetOptions): Promise<KeyValue | undefined> {
    return this.inner.get(key, opts);
  }

  range(prefix: string, opts?: RangeOptions): Promise<RangeResult> {
    return this.inner.range(prefix, opts);
  }

  currentRevision(): Promise<number> {
    return this.inner.currentRevision();
  }

  watch(prefix: string, opts: WatchOptions, listener: WatchListener): WatchHandle {
    return this.inner.watch(prefix, opts, listener);
  }

  async create(key: string, value: Bytes, _opts?: WriteOptions): Promise<TxnResult> {
    checkValueSize(value);
    const current = await this.inner.get(key);
    if (current) return { succeeded: false, current };
    return { succeeded: true, revision: 0, kv: { key, value, createRevision: 0, modRevision: 0, version: 1 } };
  }

  async update(key: string, value: Bytes, opts: GuardedWriteOptions): Promise<TxnResult> {
    checkValueSize(value);
    const current = await this.inner.get(key);
    if (!current || current.modRevision !== opts.expectedModRevision) return { succeeded: false, current };
    return {
      succeeded: true, revision: current.modRevision,
      kv: { ...current, value, version: current.version + 1 }, prevKv: current,
    };
  }

  async delete(key: string, opts?: DeleteOptions): Promise<TxnResult> {
    const current = await this.inner.get(key);
    if (!current) return { succeeded: false, current: undefined };
    if (opts?.expectedModRevision !== undefined && current.modRevision !== opts.expectedModRevision) return { succeeded: false, current };
    return { succeeded: true, revision: current.modRevision, kv: { ...current, value: new Uint8Array() }, prevKv: current };
  }

  compact(): Promise<void> {
    return Promise.reject(new Error('compact is not available in a dry run'));
  }

  compactedRevision(): Promise<number> {
    return this.inner.compactedRevision();
  }

  /** The wrapped store is not ours to close. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
