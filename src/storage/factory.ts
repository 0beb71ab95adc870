/**
 * Opens the configured storage backend. The etcd backend is imported lazily so that the embedded default
 * never loads the etcd/gRPC client.
 */
import { join } from 'node:path';
import { StorageError, type Store } from './interface.ts';
import { MemoryStore } from './memory/memory-store.ts';
import { openSqliteStore } from './sqlite/sqlite-store.ts';

export type StoreKind = 'memory' | 'sqlite' | 'etcd';

export interface OpenStoreOptions {
  readonly kind: StoreKind;
  /** sqlite: directory of `keelson.db` (created when missing). Default `./keelson-data`. */
  readonly dataDir?: string;
  /** etcd: client URLs (required for kind 'etcd'). */
  readonly etcdServers?: readonly string[];
  /** etcd: prepended to every key inside etcd (kube-apiserver's `--etcd-prefix`). */
  readonly etcdPrefix?: string;
  readonly etcdCaFile?: string;
  readonly etcdCertFile?: string;
  readonly etcdKeyFile?: string;
  /** Every backend: writes outside this key prefix are refused (e.g. `/registry/`). */
  readonly keyPrefix?: string;
  /** sqlite/memory: compact history older than this (default 5 minutes). */
  readonly historyRetentionMs?: number;
  /** etcd: how often to compact (default 5 minutes; 0 = never, for a second connection that only reads and writes a few keys). */
  readonly compactionIntervalMs?: number;
  /**
   * Called once this process owns the data (sqlite: the data dir's lock is held; memory and etcd: at once),
   * while the rest of the open (the writer thread's start) is still under way.
   */
  readonly onLocked?: () => void;
}

/** The file the sqlite backend uses inside `dataDir`. */
export const SQLITE_FILE = 'keelson.db';

export async function openStore(opts: OpenStoreOptions): Promise<Store> {
  switch (opts.kind) {
    case 'memory':
      opts.onLocked?.();
      return new MemoryStore({ keyPrefix: opts.keyPrefix, compactAfterMs: opts.historyRetentionMs ?? 5 * 60_000 });
    case 'sqlite':
      return openSqliteStore({
        path: join(opts.dataDir ?? 'keelson-data', SQLITE_FILE),
        keyPrefix: opts.keyPrefix,
        historyRetentionMs: opts.historyRetentionMs,
        ...(opts.onLocked ? { onLocked: opts.onLocked } : {}),
      });
    case 'etcd': {
      if (!opts.etcdServers || opts.etcdServers.length === 0) throw new StorageError('the etcd storage backend needs at least one server URL (etcdServers)');
      opts.onLocked?.();
      const { openEtcdStore } = await import('./etcd/etcd-store.ts');
      return openEtcdStore({
        servers: opts.etcdServers,
        prefix: opts.etcdPrefix,
        caFile: opts.etcdCaFile,
        certFile: opts.etcdCertFile,
        keyFile: opts.etcdKeyFile,
        keyPrefix: opts.keyPrefix,
        ...(opts.compactionIntervalMs !== undefined ? { compactionIntervalMs: opts.compactionIntervalMs } : {}),
      });
    }
    default:
      throw new StorageError(`unknown storage backend ${JSON.stringify((opts as { kind: unknown }).kind)} (memory, sqlite or etcd)`);
  }
}
