/**
 * The catalog of served resources: one ResourceDef per (group, version, resource), the groups in kube's
 * discovery order with preferred versions, and change notification (CRDs add and remove entries later).
 *
 * Invariants: lookups are exact (lower-case plural resource, case-sensitive kind); `groups()` lists each
 * group once, versions preferred first, and only versions with at least one served resource.
 */
import type { ResourceDef } from './types.ts';
import { type StorageGVK } from './resources/conversion.ts';
import { expandResource, type GroupSpec } from './resources/define.ts';
import { parseRuntimeConfig } from './resources/runtime-config.ts';
import { storageVersionHash } from './resources/storage-version-hash.ts';
import { converterFor, type VersionConverter } from './resources/conversion.ts';
import { compareKubeVersions } from '../machinery/kube-version.ts';

export interface ApiGroupInfo {
  /** '' for the core group. */
  name: string;
  /** Served versions, preferred first. */
  versions: string[];
  preferredVersion: string;
}

export type CatalogChange = { type: 'added' | 'removed'; def: ResourceDef };

export interface CatalogOptions {
  /** `--runtime-config` key/value pairs (`api/all=true`, `batch/v1=false`, …). */
  runtimeConfig?: Record<string, string>;
}

const key = (g: string, v: string, r: string) => `${g}/${v}/${r}`;

export class Catalog {
  readonly #defs = new Map<string, ResourceDef>();
  readonly #byKind = new Map<string, ResourceDef>();
  readonly #storage = new WeakMap<ResourceDef, StorageGVK>();
  readonly #hash = new WeakMap<ResourceDef, StorageGVK>();
  /** Group order and per-group version order (preferred first) as declared. */
  readonly #groupOrder: string[] = [];
  readonly #versionOrder = new Map<string, string[]>();
  readonly #listeners = new Set<(c: CatalogChange) => void>();
  #groupsCache: ApiGroupInfo[] | undefined;

  /**
   * The resources of the given groups (in their order), filtered by --runtime-config. The built-in groups of
   * kube-apiserver v1.33 are src/registry/resources/groups (`builtinCatalog()` there).
   */
  static fromGroups(groups: readonly GroupSpec[], opts: CatalogOptions = {}): Catalog {
    const enabled = parseRuntimeConfig(opts.runtimeConfig, groups);
    const c = new Catalog();
    for (const g of groups) {
      for (const v of g.versions) {
        const byDefault = v.enabledByDefault ?? true;
        if (!enabled(g.group, v.version, byDefault)) continue;
        for (const r of v.resources) {
          const { def, storage, hash } = expandResource(g.group, v.version, r);
          c.#insert(def, storage);
          c.#hash.set(def, hash);
        }
      }
    }
    return c;
  }

  all(): readonly ResourceDef[] {
    return [...this.#defs.values()];
  }

  lookup(group: string, version: string, resource: string): ResourceDef | undefined {
    return this.#defs.get(key(group, version, resource));
  }

  lookupKind(group: string, version: string, kind: string): ResourceDef | undefined {
    return this.#byKind.get(key(group, version, kind));
  }

  /** Served resources of one group version, sorted by resource name. */
  resourcesOf(group: string, version: string): ResourceDef[] {
    return this.all().filter((d) => d.group === group && d.version === version).sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
  }

  /** Groups in discovery order (core first), versions preferred first. */
  groups(): readonly ApiGroupInfo[] {
    if (this.#groupsCache) return this.#groupsCache;
    const served = new Map<string, Set<string>>();
    for (const d of this.#defs.values()) {
      let s = served.get(d.group);
      if (!s) served.set(d.group, (s = new Set()));
      s.add(d.version);
    }
    const out: ApiGroupInfo[] = [];
    for (const name of this.#groupOrder) {
      const vs = served.get(name);
      if (!vs) continue;
      const order = this.#versionOrder.get(name) ?? [];
      const versions = order.filter((v) => vs.has(v));
      out.push({ name, versions, preferredVersion: versions[0]! });
    }
    this.#groupsCache = out;
    return out;
  }

  /** storageVersionHash for discovery; undefined for virtual resources (kube omits it for them). */
  storageVersionHash(def: ResourceDef): string | undefined {
    if (def.virtual) return undefined;
    const s = this.#hash.get(def) ?? this.storageGroupVersion(def);
    return storageVersionHash(s.group, s.version, def.kind);
  }

  /** The group/version objects of this resource are stored as. */
  storageGroupVersion(def: ResourceDef): StorageGVK {
    return this.#storage.get(def) ?? { group: def.group, version: def.storageVersion ?? def.version };
  }

  /**
   * How objects of this resource convert to and from their storage version; undefined when served and
   * stored versions are the same (the common case). The registry applies it around storage.
   */
  converter(def: ResourceDef): VersionConverter | undefined {
    return converterFor(def, this.storageGroupVersion(def));
  }

  /** Adds (or replaces) a resource, e.g. a CRD's version; listeners hear about it. */
  add(def: ResourceDef, storage?: StorageGVK): void {
    const prev = this.lookup(def.group, def.version, def.resource);
    if (prev) this.#delete(prev);
    this.#insert(def, storage ?? { group: def.group, version: def.storageVersion ?? def.version });
    this.#emit({ type: 'added', def });
  }

  remove(def: ResourceDef): boolean {
    const cur = this.lookup(def.group, def.version, def.resource);
    if (!cur) return false;
    this.#delete(cur);
    this.#emit({ type: 'removed', def: cur });
    return true;
  }

  /** Subscribes to additions and removals; returns the unsubscribe function. */
  onChange(cb: (c: CatalogChange) => void): () => void {
    this.#listeners.add(cb);
    return () => { this.#listeners.delete(cb); };
  }

  #insert(def: ResourceDef, storage: StorageGVK): void {
    this.#defs.set(key(def.group, def.version, def.resource), def);
    this.#byKind.set(key(def.group, def.version, def.kind), def);
    this.#storage.set(def, storage);
    if (!this.#groupOrder.includes(def.group)) this.#groupOrder.push(def.group);
    const vs = this.#versionOrder.get(def.group) ?? [];
    if (!vs.includes(def.version)) {
      vs.push(def.version);
      // Custom resource groups: kube orders versions by priority (v2 > v1 > v1beta1 > v1alpha1 > others).
      if (def.custom) vs.sort(compareKubeVersions);
      this.#versionOrder.set(def.group, vs);
    }
    this.#groupsCache = undefined;
  }

  #delete(def: ResourceDef): void {
    this.#defs.delete(key(def.group, def.version, def.resource));
    const k = key(def.group, def.version, def.kind);
    if (this.#byKind.get(k) === def) this.#byKind.delete(k);
    this.#groupsCache = undefined;
  }

  #emit(c: CatalogChange): void {
    for (const l of [...this.#listeners]) l(c);
  }
}
