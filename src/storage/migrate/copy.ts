/**
 * Copies every object from one store to another (`keelson migrate`): the embedded sqlite store to etcd and
 * back, or etcd to etcd (another prefix, another cluster).
 *
 * - The source is read at one revision (paged), so the copy is one consistent state even if something still
 *   writes the source.
 * - Values are copied byte for byte (JSON, kube's protobuf, encrypted `k8s:enc:` values alike: a target
 *   server needs the same encryption configuration).
 * - Keys are written in the order of their source modRevision, so resourceVersions keep their relative
 *   order. The numbers themselves change (the target assigns its own revisions, as an etcd restore does):
 *   clients must re-list.
 * - Events keep kube's one-hour TTL from the time of the copy (a store does not expose a key's remaining lease).
 * - A non-empty target is refused unless `force`, which first deletes what the target holds.
 */
import { StorageError, type KeyValue, type Store } from '../interface.ts';

/** Every key the API server writes (src/controlplane/start.ts). */
export const REGISTRY_ROOT = '/registry/';
/**
 * Keys of Keelson's old doubled etcd layout, seen through the mounted layout (../etcd/codec.ts). They are
 * never an object of the target, only the data a migration in place is moving away from.
 */
const LEGACY_ROOT = `${REGISTRY_ROOT}registry/`;
/**
 * Runtime state of the replicas that wrote the source, with TTLs that cannot be carried over (the `kubernetes`
 * Service's master leases, the replica trust records): not objects, and stale in any other store.
 */
const RUNTIME_ROOTS = [`${REGISTRY_ROOT}masterleases/`, `${REGISTRY_ROOT}apiserver-replicas/`];
/** Whether a key under /registry/ is an object the copy carries. */
const isObjectKey = (key: string): boolean => !key.startsWith(LEGACY_ROOT) && !RUNTIME_ROOTS.some((r) => key.startsWith(r));
/** kube-apiserver's `--event-ttl` default, the TTL our registry gives events (registry/create.ts). */
const EVENT_TTL_SECONDS = 3600;
const PAGE = 500;

export interface CopyOptions {
  /** Delete what the target holds under /registry/ first instead of refusing. */
  readonly force?: boolean;
  /**
   * Writes in flight at once. Only for targets that commit writes in call order (the sqlite store's queue):
   * then the order of revisions is still the source's. 1 (default) for etcd.
   */
  readonly inFlight?: number;
  /** Progress lines (optional). */
  readonly log?: (line: string) => void;
}

export interface CopySummary {
  /** The source revision the copy reflects. */
  readonly sourceRevision: number;
  readonly keys: number;
  readonly bytes: number;
  /** Keys per resource (`configmaps`, `apps/deployments` style: the path segment(s) after /registry/). */
  readonly perResource: ReadonlyMap<string, number>;
  /** Keys deleted from the target first (`force`). */
  readonly replaced: number;
}

export class MigrationError extends StorageError {
  override name = 'MigrationError';
}

/** Every key under `prefix` as of one revision, paged. */
export async function readAll(store: Store, prefix: string): Promise<{ revision: number; items: KeyValue[] }> {
  const first = await store.range(prefix, { limit: PAGE });
  const revision = first.revision;
  const items = [...first.items];
  let more = first.more;
  while (more && items.length > 0) {
    const startKey = `${items[items.length - 1]!.key}\0`;
    const page = await store.range(prefix, { limit: PAGE, startKey, revision });
    items.push(...page.items);
    more = page.more;
  }
  return { revision, items };
}

/** `configmaps` for /registry/configmaps/ns/x; `stable.example.com/crontabs` for a custom resource. */
export function resourceOf(key: string): string {
  const parts = key.slice(REGISTRY_ROOT.length).split('/');
  return parts[0]!.includes('.') && parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

export async function copyStore(source: Store, target: Store, opts: CopyOptions = {}): Promise<CopySummary> {
  const log = opts.log ?? (() => {});
  const existing = (await readAll(target, REGISTRY_ROOT)).items.filter((kv) => isObjectKey(kv.key));
  if (existing.length > 0 && !opts.force) {
    throw new MigrationError(
      `the target is not empty: it holds ${existing.length} keys under ${REGISTRY_ROOT} (e.g. ${existing[0]!.key}); ` +
        'refusing to overwrite it (pass --force to replace its contents)',
    );
  }
  const { revision, items } = await readAll(source, REGISTRY_ROOT);
  // Old-layout keys of an etcd source are not objects; they never occur in a store the server wrote.
  const objects = items.filter((kv) => isObjectKey(kv.key)).sort((a, b) => a.modRevision - b.modRevision);
  log(`read ${objects.length} keys from the source at revision ${revision}`);
  for (const kv of existing) {
    const res = await target.delete(kv.key);
    if (!res.succeeded) throw new MigrationError(`could not delete ${kv.key} from the target`);
  }
  if (existing.length) log(`deleted ${existing.length} keys from the target (--force)`);
  const perResource = new Map<string, number>();
  let bytes = 0;
  const write = async (kv: KeyValue): Promise<void> => {
    const ttl = kv.key.startsWith(`${REGISTRY_ROOT}events/`) ? EVENT_TTL_SECONDS : undefined;
    const res = await target.create(kv.key, kv.value, ttl ? { ttlSeconds: ttl } : {});
    if (!res.succeeded) throw new MigrationError(`${kv.key} appeared in the target while copying (is a server using it?)`);
  };
  const window = Math.max(1, opts.inFlight ?? 1);
  for (let i = 0; i < objects.length; i += window) {
    const chunk = objects.slice(i, i + window);
    // Calls are issued in order; an in-order target commits them in that order.
    await Promise.all(chunk.map(write));
    for (const kv of chunk) {
      bytes += kv.value.byteLength;
      const r = resourceOf(kv.key);
      perResource.set(r, (perResource.get(r) ?? 0) + 1);
    }
    if (objects.length > 5000 && (i / window) % 10 === 0) log(`copied ${Math.min(i + window, objects.length)}/${objects.length}`);
  }
  // A final count: nothing may have been lost or added on the way.
  let written = (await target.range(REGISTRY_ROOT, { countOnly: true })).count;
  for (const other of [LEGACY_ROOT, ...RUNTIME_ROOTS]) written -= (await target.range(other, { countOnly: true })).count;
  if (written !== objects.length) {
    throw new MigrationError(`the target holds ${written} keys after the copy, expected ${objects.length}`);
  }
  return { sourceRevision: revision, keys: objects.length, bytes, perResource, replaced: existing.length };
}
