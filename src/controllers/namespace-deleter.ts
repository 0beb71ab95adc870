/**
 * Empties a namespace that is being deleted, then removes the `kubernetes` finalizer from `spec.finalizers`
 * through the `finalize` sub-resource so the registry can remove the namespace (kube-controller-manager's
 * namespaced_resources_deleter, in process).
 *
 * Order per sync: read the namespace (gone or not terminating → done) → phase Terminating → delete the
 * content of every served namespaced resource (deletecollection, or list + delete) → count what remains
 * (objects waiting on their finalizers) → status conditions as kube reports them → remaining > 0: ask to
 * run again later; else finalize.
 */
import type { KObject } from '../machinery/objects.ts';
import type { ResourceDef } from '../api/types.ts';
import type { RestRegistry, RestStorage } from '../registry/rest.ts';
import { isConflict, isNotFound } from '../machinery/errors.ts';
import { systemContext } from '../registry/system-context.ts';
import { conditionsChanged, type ContentTotals, namespaceConditions, type NamespaceCondition } from './namespace-conditions.ts';

/** What the deleter needs of the catalog (`Catalog` from src/api/catalog.ts satisfies it). */
export interface CatalogLike {
  all(): readonly ResourceDef[];
}

export const FINALIZER_KUBERNETES = 'kubernetes';

export interface DeleteOutcome {
  /** Objects still in the namespace (waiting on finalizers or graceful deletion). */
  remaining: number;
  /** True when the `kubernetes` finalizer was removed (or was already gone). */
  finalized: boolean;
}

export interface NamespaceDeleterOptions {
  registry: RestRegistry;
  catalog: CatalogLike;
}

export class NamespaceDeleter {
  constructor(private readonly opts: NamespaceDeleterOptions) {}

  private namespaces(): RestStorage {
    const s = this.opts.registry.lookup('', 'v1', 'namespaces');
    if (!s) throw new Error('namespaces are not served');
    return s;
  }

  /** Storage for the namespace's `finalize`/`status` sub-resource: `namespaces/<sub>` when the registry serves it so. */
  private sub(name: 'finalize' | 'status'): { storage: RestStorage; subresource: string } {
    const s = this.opts.registry.lookup('', 'v1', `namespaces/${name}`);
    return s ? { storage: s, subresource: name } : { storage: this.namespaces(), subresource: name };
  }

  /** One namespaced resource per storage location, every one that can be listed and deleted. */
  contentResources(): ResourceDef[] {
    const seen = new Set<string>();
    const out: ResourceDef[] = [];
    for (const def of this.opts.catalog.all()) {
      if (!def.namespaced || def.virtual || def.resource.includes('/')) continue;
      if (!def.verbs.includes('list') || !(def.verbs.includes('deletecollection') || def.verbs.includes('delete'))) continue;
      const where = def.storagePrefix || `${def.group}/${def.resource}`;
      if (seen.has(where)) continue;
      seen.add(where);
      out.push(def);
    }
    return out;
  }

  async delete(nsName: string): Promise<DeleteOutcome> {
    let ns: KObject;
    try {
      ns = (await this.namespaces().get(systemContext(), nsName, {})).object;
    } catch (err) {
      if (isNotFound(err)) return { remaining: 0, finalized: true };
      throw err;
    }
    if (!ns.metadata.deletionTimestamp) return { remaining: 0, finalized: false };
    if (!specFinalizers(ns).includes(FINALIZER_KUBERNETES)) return { remaining: 0, finalized: true };

    const totals: ContentTotals = { remaining: new Map(), finalizers: new Map(), deleteErrors: [] };
    for (const def of this.contentResources()) await this.deleteResource(nsName, def, totals);

    await this.updateStatus(nsName, namespaceConditions(totals));
    const remaining = [...totals.remaining.values()].reduce((a, b) => a + b, 0);
    if (remaining > 0 || totals.deleteErrors.length > 0) return { remaining: Math.max(remaining, 1), finalized: false };
    await this.finalize(nsName);
    return { remaining: 0, finalized: true };
  }

  private async deleteResource(nsName: string, def: ResourceDef, totals: ContentTotals): Promise<void> {
    const storage = this.opts.registry.lookup(def.group, def.version, def.resource);
    if (!storage) return;
    const ctx = () => systemContext({ namespace: nsName });
    try {
      if (def.verbs.includes('deletecollection')) {
        await storage.deleteCollection(ctx(), {}, { propagationPolicy: 'Background' });
      } else {
        const { items } = await storage.list(ctx(), {});
        for (const item of items) {
          if (item.object.metadata.deletionTimestamp) continue;
          try {
            await storage.delete(ctx(), item.object.metadata.name ?? '', { propagationPolicy: 'Background' });
          } catch (err) {
            if (!isNotFound(err)) throw err;
          }
        }
      }
      const { items } = await storage.list(ctx(), {});
      if (items.length === 0) return;
      const gr = `${def.resource}.${def.group}`;
      totals.remaining.set(gr, (totals.remaining.get(gr) ?? 0) + items.length);
      for (const item of items) {
        for (const f of item.object.metadata.finalizers ?? []) totals.finalizers.set(f, (totals.finalizers.get(f) ?? 0) + 1);
      }
    } catch (err) {
      totals.deleteErrors.push(`${def.resource}.${def.group}: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  /** Sets phase Terminating and the deletion conditions through `namespaces/status` (skipped when unchanged). */
  private async updateStatus(nsName: string, conditions: NamespaceCondition[]): Promise<void> {
    const { storage, subresource } = this.sub('status');
    try {
      await storage.guaranteedUpdate(systemContext({ subresource }), nsName, (cur) => {
        if (!cur) throw notFoundMarker;
        const status = (cur.status ?? {}) as { phase?: string; conditions?: NamespaceCondition[] };
        const next = conditionsChanged(status.conditions ?? [], conditions);
        if (status.phase === 'Terminating' && !next) return cur;
        const copy = structuredClone(cur);
        copy.status = { ...status, phase: 'Terminating', conditions: next ?? status.conditions ?? [] };
        return copy;
      }, {});
    } catch (err) {
      // The namespace may be gone already, and status is informational: never block deletion on it.
      if (err !== notFoundMarker && !isNotFound(err) && !isConflict(err)) throw err;
    }
  }

  /** Removes `kubernetes` from spec.finalizers via the finalize sub-resource (the registry then removes the namespace). */
  private async finalize(nsName: string): Promise<void> {
    const { storage, subresource } = this.sub('finalize');
    try {
      await storage.guaranteedUpdate(systemContext({ subresource }), nsName, (cur) => {
        if (!cur) throw notFoundMarker;
        const fins = specFinalizers(cur);
        if (!fins.includes(FINALIZER_KUBERNETES)) return cur;
        const copy = structuredClone(cur);
        copy.spec = { ...((cur.spec ?? {}) as object), finalizers: fins.filter((f) => f !== FINALIZER_KUBERNETES) };
        return copy;
      }, {});
    } catch (err) {
      if (err !== notFoundMarker && !isNotFound(err)) throw err;
    }
  }
}

const notFoundMarker = new Error('namespace not found');

export function specFinalizers(ns: KObject): string[] {
  const spec = ns.spec as { finalizers?: string[] } | undefined;
  return spec?.finalizers ?? [];
}
