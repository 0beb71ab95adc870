/**
 * What the storage layer reports to metrics, as an interface so storage never imports upward (the server's
 * Metrics implements it). `instrumentStore` wraps any backend (memory, sqlite, etcd) and times each call the way
 * kube's etcd3 store does for etcd_request_duration_seconds: operation `get`, `create`, `update`, `delete`,
 * `listWithCount` (a range), labelled with the resource the key belongs to (`configmaps`, `deployments.apps`).
 */
import type { Bytes, ListCost, DeleteOptions, GetOptions, GuardedWriteOptions, KeyValue, RangeOptions, RangeResult, Store, TxnResult, WatchHandle, WatchListener, WatchOptions, WriteOptions } from './interface.ts';

export interface StorageMetricsSink {
  /** One store call: `seconds` it took, `failed` when it threw. `type` is kube's group-resource string. */
  observeStorageRequest(operation: string, type: string, seconds: number, failed: boolean): void;
  /** One LIST served by storage and what it cost: kube's apiserver_storage_list_* counters. */
  observeStorageList(type: string, cost: ListCost): void;
  /** Events a store watch delivered (apiserver_storage_events_received_total). */
  observeStorageEvents(type: string, count: number): void;
}

/** Maps a storage key (or prefix) to its resource's `resource.group` string; '' when unknown. */
export type ResourceOfKey = (key: string) => string;

/** Fallback when nothing better is known: `/registry/<resource>/…` or `/registry/<group>/<resource>/…`. */
export function resourceFromKey(key: string): string {
  const parts = key.split('/').filter((p) => p !== '');
  if (parts[0] === 'registry') parts.shift();
  const [a = '', b = ''] = parts;
  return a.includes('.') && b ? `${b}.${a}` : a;
}

const seconds = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e9;

/** Times every call of `store` into `sink`; watches count their events. Everything else passes through. */
export function instrumentStore(store: Store, sink: StorageMetricsSink, resourceOf: ResourceOfKey = resourceFromKey): Store {
  async function timed<T>(op: string, key: string, f: () => Promise<T>): Promise<T> {
    const t0 = process.hrtime.bigint();
    try {
      const r = await f();
      sink.observeStorageRequest(op, resourceOf(key), seconds(t0), false);
      return r;
    } catch (e) {
      sink.observeStorageRequest(op, resourceOf(key), seconds(t0), true);
      throw e;
    }
  }
  const wrapped: Store = {
    get: (key: string, opts?: GetOptions): Promise<KeyValue | undefined> => timed('get', key, () => store.get(key, opts)),
    range: (prefix: string, opts?: RangeOptions): Promise<RangeResult> => timed('listWithCount', prefix, () => store.range(prefix, opts)),
    noteList: (prefix: string, cost: ListCost): void => sink.observeStorageList(resourceOf(prefix), cost),
    currentRevision: () => store.currentRevision(),
    watch(prefix: string, opts: WatchOptions, listener: WatchListener): WatchHandle {
      const type = resourceOf(prefix);
      return store.watch(prefix, opts, {
        onEvents(events) {
          sink.observeStorageEvents(type, events.length);
          listener.onEvents(events);
        },
        ...(listener.onProgress ? { onProgress: (rev: number) => listener.onProgress!(rev) } : {}),
        onError: (err) => listener.onError(err),
      });
    },
    create: (key: string, value: Bytes, opts?: WriteOptions): Promise<TxnResult> => timed('create', key, () => store.create(key, value, opts)),
    update: (key: string, value: Bytes, opts: GuardedWriteOptions): Promise<TxnResult> => timed('update', key, () => store.update(key, value, opts)),
    delete: (key: string, opts?: DeleteOptions): Promise<TxnResult> => timed('delete', key, () => store.delete(key, opts)),
    compact: (revision: number) => store.compact(revision),
    compactedRevision: () => store.compactedRevision(),
    close: () => store.close(),
  };
  if (store.checkIntegrity) wrapped.checkIntegrity = () => store.checkIntegrity!();
  if (store.ping) wrapped.ping = () => store.ping!();
  if (store.sizeBytes) wrapped.sizeBytes = () => store.sizeBytes!();
  return wrapped;
}
