/**
 * Binds the storage layer's metrics to the catalog: which resource a key belongs to (etcd_request_duration_seconds'
 * `type`, kube's group-resource string such as `deployments.apps`), the per-resource object counts behind
 * apiserver_storage_objects, and the sqlite file's or etcd's database size behind apiserver_storage_size_bytes.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Catalog } from '../api/catalog.ts';
import type { Store } from '../storage/interface.ts';
import { resourceFromKey, type ResourceOfKey } from '../storage/metrics.ts';
import { SQLITE_FILE } from '../storage/factory.ts';
import type { StorageSize } from '../endpoints/metrics.ts';

type Prefixes = readonly { readonly prefix: string; readonly resource: string }[];

/** Storage prefixes of the served (stored) resources, longest first, refreshed when the catalog changes. */
function prefixesOf(catalog: Pick<Catalog, 'all' | 'onChange'>): () => Prefixes {
  let cached: Prefixes | undefined;
  catalog.onChange(() => { cached = undefined; });
  return () => {
    if (cached) return cached;
    const seen = new Map<string, string>();
    for (const d of catalog.all()) {
      if (d.virtual || seen.has(d.storagePrefix)) continue;
      seen.set(d.storagePrefix, d.group ? `${d.resource}.${d.group}` : d.resource);
    }
    cached = [...seen].map(([prefix, resource]) => ({ prefix, resource })).sort((a, b) => b.prefix.length - a.prefix.length);
    return cached;
  };
}

export function resourceResolver(catalog: Pick<Catalog, 'all' | 'onChange'>): ResourceOfKey {
  const prefixes = prefixesOf(catalog);
  return (key) => prefixes().find((p) => key.startsWith(p.prefix))?.resource ?? resourceFromKey(key);
}

/** Counts each resource's objects (keys only); a failed count reports -1, as kube does. */
export function objectCounter(catalog: Pick<Catalog, 'all' | 'onChange'>, store: Store): () => Promise<ReadonlyMap<string, number>> {
  const prefixes = prefixesOf(catalog);
  return async () => {
    const out = new Map<string, number>();
    await Promise.all(prefixes().map(async ({ prefix, resource }) => {
      try {
        const r = await store.range(prefix, { countOnly: true });
        out.set(resource, (out.get(resource) ?? 0) + r.count);
      } catch {
        out.set(resource, -1);
      }
    }));
    return out;
  };
}

/** The sqlite database's bytes on disk (file plus write-ahead log); undefined when there is no file yet. */
export function sqliteSize(dataDir: string | undefined): () => Promise<StorageSize | undefined> {
  return async () => {
    if (!dataDir) return undefined;
    let total = 0;
    for (const f of [SQLITE_FILE, `${SQLITE_FILE}-wal`]) {
      try {
        total += (await stat(join(dataDir, f))).size;
      } catch {
        // no WAL yet
      }
    }
    return total ? { bytes: total } : undefined;
  };
}

/**
 * apiserver_storage_size_bytes' source per backend: the sqlite file, etcd's Status dbSize (`endpoint` names the
 * first configured server for the hidden per-endpoint family), nothing for the memory store (kube has none).
 */
export function storageSize(o: { storage: string; dataDir?: string; etcdServers?: readonly string[] }, store: Pick<Store, 'sizeBytes'>): (() => Promise<StorageSize | undefined>) | undefined {
  if (o.storage === 'sqlite') return sqliteSize(o.dataDir);
  const size = store.sizeBytes?.bind(store);
  if (!size) return undefined;
  const endpoint = o.etcdServers?.[0];
  return async () => ({ bytes: await size(), ...(endpoint !== undefined ? { endpoint } : {}) });
}
