/**
 * The registry: one `GenericStore` (or special REST) per served, non-virtual ResourceDef, with one reader per
 * storage prefix shared by every def stored there (core `events` and `events.k8s.io/v1` share
 * `/registry/events/` and so one watch cache). Readers are watch caches (`Cacher`) by default, or
 * `DirectReader`s (`cache: false`). Defs the catalog adds later (CRDs) get their storage as soon as they are
 * added; their first requests wait for the cache to load.
 *
 * Lifecycle: `createRegistry` resolves once every cache has loaded; `stop()` stops all caches (watchers end).
 */
import type { ResourceDef, SubresourceDef } from '../api/types.ts';
import { Cacher, type CacherOptions } from '../storage/cacher/cacher.ts';
import { DirectReader } from '../storage/cacher/direct-reader.ts';
import type { ObjectCodec, ObjectReader } from '../storage/cacher/types.ts';
import type { Store } from '../storage/interface.ts';
import type { RestRegistry, RestStorage } from './rest.ts';
import { createCodec } from './codec.ts';
import { GenericStore, type GenericStoreOptions } from './generic-store.ts';
import { LazyReader } from './lazy-reader.ts';
import { NamespaceStore } from './special/namespaces.ts';
import type { VersionConverter } from './store-core.ts';
import type { Admission } from './admission.ts';
import { admittingCreates } from './admitting-creates.ts';
import { createServiceAllocators, type ServiceAllocationOptions } from './services/setup.ts';
import { ServiceRest } from './services/service-rest.ts';
import type { Allocators } from './services/allocation.ts';
import { customResourceStorage } from './customresources/storage.ts';

/** What the registry needs from the catalog (src/api/catalog.ts `Catalog` fits). */
export interface CatalogLike {
  all(): readonly ResourceDef[];
  lookup(group: string, version: string, resource: string): ResourceDef | undefined;
  onChange?(cb: (c: { type: 'added' | 'removed'; def: ResourceDef }) => void): () => void;
  /** How objects of a resource stored in another version convert (Catalog.converter). */
  converter?(def: ResourceDef): VersionConverter | undefined;
}

export interface RegistryOptions {
  readonly catalog: CatalogLike;
  readonly store: Store;
  /** Serve reads and watches from watch caches (default true); false reads the store directly. */
  readonly cache?: boolean;
  /** Options for every watch cache (window, bookmark interval, timeouts). */
  readonly cacher?: Omit<CacherOptions, 'store' | 'prefix' | 'codec'>;
  /** --enable-garbage-collector (default true): deletes add orphan/foregroundDeletion finalizers as asked. */
  readonly garbageCollection?: boolean;
  /** The WatchList feature (sendInitialEvents), default true. */
  readonly watchList?: boolean;
  /** kube-apiserver --allow-privileged (default false): privileged containers pass validation. */
  readonly allowPrivileged?: boolean;
  /**
   * Updates that ask for it may start from the watch cache's current revision and answer a no-op with it
   * (default true). Off under encryption at rest: whether a value is stale (written with a key that no longer
   * encrypts) is known only on a fresh read, and kube rewrites stale values even when nothing else changed.
   */
  readonly updatesFromCache?: boolean;
  /** Clock for timestamps (tests). */
  readonly now?: () => Date;
  /** Service cluster IP / node port allocation (`--service-cluster-ip-range`, `--service-node-port-range`); off when unset. */
  readonly services?: ServiceAllocationOptions;
  /**
   * The admission chain every write goes through (src/admission, built after the registry: hence a getter).
   * Without it nothing is admitted: not even NamespaceLifecycle's checks (tests that want them pass a chain).
   */
  readonly admission?: () => Admission | undefined;
  /** Storage for virtual defs (reviews: create-only, nothing stored); defs it returns undefined for stay unserved. */
  readonly virtualStorage?: (def: ResourceDef) => RestStorage | undefined;
  /** Wraps each stored def's storage (RBAC escalation checks); gets this registry to read other resources. */
  readonly wrapStorage?: (def: ResourceDef, storage: RestStorage, registry: RestRegistry) => RestStorage;
  /**
   * Storages of sub-resources with REST of their own (`pods/eviction`, `pods/binding`, `serviceaccounts/token`,
   * …), asked in order for every declared sub-resource other than status and scale (which the main storage
   * serves); the first answer is served at `<resource>/<sub>`. Sub-resources nobody answers for stay unserved.
   */
  readonly subresourceStorages?: readonly SubresourceStorageFactory[];
}

/** Builds the storage of one sub-resource, given the main resource's storage and the registry (for lookups). */
export type SubresourceStorageFactory = (o: { def: ResourceDef; sub: SubresourceDef; main: RestStorage; registry: Registry }) => RestStorage | undefined;

export interface Registry extends RestRegistry {
  stop(): Promise<void>;
  storageFor(def: ResourceDef): RestStorage;
}

interface PrefixEntry {
  reader: LazyReader;
  stop: () => Promise<void>;
  users: number;
}

const dkey = (g: string, v: string, r: string) => `${g}/${v}/${r}`;

/** Selectable fields of every def sharing the prefix (they share one cache, hence one codec). */
function codecFor(defs: readonly ResourceDef[]): ObjectCodec {
  const selectableFields: NonNullable<ResourceDef['selectableFields']> = {};
  for (const d of defs) Object.assign(selectableFields, d.selectableFields ?? {});
  return createCodec({ selectableFields });
}

class RegistryImpl implements Registry {
  private readonly storages = new Map<string, RestStorage>();
  private readonly byDef = new Map<ResourceDef, RestStorage>();
  private readonly prefixes = new Map<string, PrefixEntry>();
  private unsubscribe: (() => void) | undefined;
  private stopped = false;
  private readonly serviceAllocators: Allocators | undefined;

  constructor(private readonly opts: RegistryOptions) {
    this.serviceAllocators = opts.services
      ? createServiceAllocators({ ...opts.services, store: opts.store, ipAddresses: () => this.lookup('networking.k8s.io', 'v1', 'ipaddresses') })
      : undefined;
  }

  async init(): Promise<void> {
    const defs = this.opts.catalog.all().filter((d) => !d.virtual);
    const groups = new Map<string, ResourceDef[]>();
    for (const d of defs) groups.set(d.storagePrefix, [...(groups.get(d.storagePrefix) ?? []), d]);
    for (const [prefix, list] of groups) this.openPrefix(prefix, list);
    for (const d of defs) this.addDef(d);
    for (const d of this.opts.catalog.all()) if (d.virtual) this.addVirtual(d);
    this.unsubscribe = this.opts.catalog.onChange?.((c) => {
      if (c.type === 'added' && c.def.virtual) {
        this.addVirtual(c.def);
      } else if (c.type === 'added') {
        if (!this.prefixes.has(c.def.storagePrefix)) this.openPrefix(c.def.storagePrefix, [c.def]);
        this.addDef(c.def);
      } else if (c.type === 'removed') {
        void this.removeDef(c.def);
      }
    });
    // Fail fast (and clean up) when a cache cannot load.
    try {
      await Promise.all([...this.prefixes.values()].map((p) => p.reader.ready()));
      // Allocations of the Services already stored are marked used before anything else can allocate.
      for (const s of this.storages.values()) if (s instanceof ServiceRest) await s.repair();
    } catch (e) {
      await this.stop();
      throw e;
    }
  }

  private openPrefix(prefix: string, defs: readonly ResourceDef[]): void {
    const codec = codecFor(defs);
    const { store } = this.opts;
    let started: Promise<ObjectReader>;
    let stop: () => Promise<void>;
    if (this.opts.cache ?? true) {
      const cacher = Cacher.start({ ...(this.opts.cacher ?? {}), store, prefix, codec });
      started = cacher;
      stop = async () => {
        const c = await cacher.catch(() => undefined);
        await c?.stop();
      };
    } else {
      started = Promise.resolve(new DirectReader({ store, codec }));
      stop = () => Promise.resolve();
    }
    this.prefixes.set(prefix, { reader: new LazyReader(started), stop, users: 0 });
  }

  private addDef(def: ResourceDef): void {
    const entry = this.prefixes.get(def.storagePrefix)!;
    // A def replacing one of the same key (a CRD's new generation) keeps the prefix's user count.
    if (!this.storages.has(dkey(def.group, def.version, def.resource))) entry.users++;
    // Custom resources bring their own (conversion + defaulting on read, src/registry/customresources/resource-def.ts).
    const converter = (def as { crd?: { converter?: VersionConverter } }).crd?.converter ?? this.opts.catalog.converter?.(def);
    const opts: GenericStoreOptions = {
      def, store: this.opts.store, reader: entry.reader, codec: codecFor([def]),
      ...(converter ? { converter } : {}),
      ...(this.opts.admission ? { admission: this.opts.admission } : {}),
      ...(this.opts.garbageCollection !== undefined ? { garbageCollection: this.opts.garbageCollection } : {}),
      ...(this.opts.watchList !== undefined ? { watchList: this.opts.watchList } : {}),
      ...(this.opts.allowPrivileged ? { allowPrivileged: true } : {}),
      ...(this.opts.updatesFromCache === false ? { updatesFromCache: false } : {}),
      ...(this.opts.now ? { now: this.opts.now } : {}),
    };
    let storage: RestStorage = def.group === '' && def.resource === 'namespaces' ? new NamespaceStore(opts) : new GenericStore(opts);
    if (this.serviceAllocators && def.group === '' && def.resource === 'services') storage = new ServiceRest(storage, this.serviceAllocators, () => this.lookup('networking.k8s.io', 'v1', 'servicecidrs'));
    storage = customResourceStorage({ def, storage, storeOptions: opts });
    if (this.opts.wrapStorage) storage = this.opts.wrapStorage(def, storage, this);
    this.storages.set(dkey(def.group, def.version, def.resource), storage);
    this.byDef.set(def, storage);
    this.addSubresources(def, storage);
  }

  private addSubresources(def: ResourceDef, main: RestStorage): void {
    for (const sub of def.subresources ?? []) {
      if (sub.name === 'status' || sub.name === 'scale') continue;
      for (const f of this.opts.subresourceStorages ?? []) {
        const s = f({ def, sub, main, registry: this });
        if (!s) continue;
        this.storages.set(dkey(def.group, def.version, `${def.resource}/${sub.name}`), this.admitted(s, def, sub.name));
        break;
      }
    }
  }

  private addVirtual(def: ResourceDef): void {
    const virtual = this.opts.virtualStorage?.(def);
    if (!virtual) return;
    const storage = this.admitted(virtual, def, '');
    this.storages.set(dkey(def.group, def.version, def.resource), storage);
    this.byDef.set(def, storage);
  }

  private async removeDef(def: ResourceDef): Promise<void> {
    const k = dkey(def.group, def.version, def.resource);
    const storage = this.storages.get(k);
    if (!storage) return;
    this.storages.delete(k);
    this.byDef.delete(storage.def);
    for (const sub of def.subresources ?? []) this.storages.delete(dkey(def.group, def.version, `${def.resource}/${sub.name}`));
    if (def.virtual) return;
    const entry = this.prefixes.get(def.storagePrefix);
    if (entry && --entry.users <= 0) {
      this.prefixes.delete(def.storagePrefix);
      await entry.stop();
    }
  }

  admission(): Admission | undefined {
    return this.opts.admission?.();
  }

  /** Sub-resource and virtual storages that only create (eviction, binding, token, reviews) admit here. */
  private admitted(storage: RestStorage, def: ResourceDef, subresource: string): RestStorage {
    return this.opts.admission ? admittingCreates(storage, { def, subresource, admission: this.opts.admission }) : storage;
  }

  lookup(group: string, version: string, resource: string): RestStorage | undefined {
    return this.storages.get(dkey(group, version, resource));
  }

  storageFor(def: ResourceDef): RestStorage {
    const s = this.byDef.get(def) ?? this.lookup(def.group, def.version, def.resource);
    if (!s) throw new Error(`no storage for ${def.group}/${def.version}/${def.resource}`);
    return s;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.unsubscribe?.();
    const entries = [...this.prefixes.values()];
    this.prefixes.clear();
    await Promise.all(entries.map((e) => e.stop()));
  }
}

export async function createRegistry(opts: RegistryOptions): Promise<Registry> {
  const r = new RegistryImpl(opts);
  await r.init();
  return r;
}
