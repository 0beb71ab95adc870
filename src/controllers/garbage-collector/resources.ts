/**
 * Which resources the garbage collector watches and how it reaches an object from its coordinates
 * (kube's GetDeletableResources + REST mapper, over our catalog and registry).
 */
import type { ResourceDef } from '../../api/types.ts';
import type { RestRegistry, RestStorage } from '../../registry/rest.ts';
import { groupOf } from './graph.ts';

/** What the collector needs of the catalog (`Catalog` from src/api/catalog.ts satisfies it). */
export interface GcCatalog {
  all(): readonly ResourceDef[];
  onChange?(cb: (c: { type: 'added' | 'removed'; def: ResourceDef }) => void): () => void;
}

/**
 * Resources kube's collector ignores by default (DefaultIgnoredResources: core events). The same objects are
 * still seen through events.k8s.io, which shares their storage and is not ignored.
 */
const IGNORED = new Set(['/events']);

/** A top-level persisted resource that can be listed, watched and deleted, and is not ignored. */
export function isDeletable(def: ResourceDef): boolean {
  if (def.virtual || def.resource.includes('/') || IGNORED.has(`${def.group}/${def.resource}`)) return false;
  return def.verbs.includes('list') && def.verbs.includes('watch') && def.verbs.includes('delete');
}

/**
 * One def per storage location (defs sharing a prefix — core and events.k8s.io events, several versions of
 * one kind — hold the same objects; watching each would report every uid twice).
 */
export function deletableResources(defs: readonly ResourceDef[]): ResourceDef[] {
  const seen = new Set<string>();
  const out: ResourceDef[] = [];
  for (const def of defs) {
    if (!isDeletable(def)) continue;
    const where = storageLocation(def);
    if (seen.has(where)) continue;
    seen.add(where);
    out.push(def);
  }
  return out;
}

export function storageLocation(def: ResourceDef): string {
  return def.storagePrefix || `${def.group}/${def.resource}`;
}

export class UnknownKindError extends Error {
  constructor(apiVersion: string, kind: string) {
    super(`unable to find the resource for ${kind} in ${apiVersion}`);
  }
}

/** Resolves `apiVersion` + `kind` to the def and storage serving it (the exact version, as kube's REST mapping). */
export class ResourceResolver {
  constructor(private readonly opts: { catalog: GcCatalog; registry: RestRegistry }) {}

  resolve(apiVersion: string, kind: string): { def: ResourceDef; storage: RestStorage } {
    const group = groupOf(apiVersion);
    const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
    for (const def of this.opts.catalog.all()) {
      if (def.kind !== kind || def.group !== group || def.version !== version) continue;
      if (def.virtual || def.resource.includes('/')) continue;
      const storage = this.opts.registry.lookup(def.group, def.version, def.resource);
      if (storage) return { def, storage };
    }
    throw new UnknownKindError(apiVersion, kind);
  }
}
