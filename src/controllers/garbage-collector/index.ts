/**
 * In-process garbage collector (kube-controller-manager's garbagecollector controller): cascading deletion by
 * `metadata.ownerReferences` — background (dependents of a gone owner are deleted), orphan (the `orphan`
 * finalizer: dependents lose the reference, the owner goes) and foreground (the `foregroundDeletion` finalizer:
 * the owner stays until its blocking dependents are gone).
 *
 * One informer per deletable resource (list + watch + delete, one per storage location) feeds the graph;
 * resources the catalog adds later (CRDs) get an informer when added. Work starts once every informer has
 * listed. `stop()` ends the informers, then waits for the queues' runs in flight.
 */
import type { ResourceDef } from '../../api/types.ts';
import type { RestRegistry } from '../../registry/rest.ts';
import { Informer } from '../informer.ts';
import type { Logger } from '../system-context.ts';
import { GarbageCollector } from './collector.ts';
import { GcOperations } from './operations.ts';
import { deletableResources, type GcCatalog, isDeletable, ResourceResolver, storageLocation } from './resources.ts';

export { GarbageCollector } from './collector.ts';
export { GC_FIELD_MANAGER } from './operations.ts';
export type { GcCatalog } from './resources.ts';

export interface GarbageCollectorOptions {
  registry: RestRegistry;
  catalog: GcCatalog;
  /** Diagnostics (deletions, retries, watch restarts). Default: silent. */
  log?: Logger;
  /** Workers per queue (default 8). */
  concurrency?: number;
}

export interface RunningGarbageCollector {
  stop(): Promise<void>;
  /** Resolves once both queues are empty at the same time (tests). */
  whenIdle(): Promise<void>;
  /** The collector (graph and queues), for diagnostics and tests. */
  readonly collector: GarbageCollector;
}

export async function startGarbageCollector(opts: GarbageCollectorOptions): Promise<RunningGarbageCollector> {
  const { registry, catalog, log } = opts;
  const resolver = new ResourceResolver({ catalog, registry });
  const collector = new GarbageCollector({
    ops: new GcOperations(resolver),
    resolver,
    ...(log ? { log } : {}),
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
  });
  /** Informers by storage location. */
  const monitors = new Map<string, Informer>();
  let stopped = false;

  const monitor = (def: ResourceDef): Informer | undefined => {
    const where = storageLocation(def);
    if (monitors.has(where)) return undefined;
    const storage = registry.lookup(def.group, def.version, def.resource);
    if (!storage) return undefined;
    const informer = new Informer({ storage, ...(log ? { log } : {}) });
    informer.addHandler({
      onAdd: (obj) => collector.onUpsert(def, obj),
      onUpdate: (_old, obj) => collector.onUpsert(def, obj),
      onDelete: (obj) => collector.onDelete(obj),
    });
    monitors.set(where, informer);
    return informer;
  };

  const initial = deletableResources(catalog.all()).map(monitor).filter((i): i is Informer => !!i);
  const unsubscribe = catalog.onChange?.((change) => {
    if (stopped || !isDeletable(change.def)) return;
    const where = storageLocation(change.def);
    if (change.type === 'added') {
      const informer = monitor(change.def);
      informer?.start().catch((err: unknown) => {
        log?.(`garbage collector: cannot watch ${change.def.resource}.${change.def.group}: ${(err as Error)?.message ?? String(err)}`);
        informer.stop();
        if (monitors.get(where) === informer) monitors.delete(where);
      });
    } else if (!catalog.all().some((d) => isDeletable(d) && storageLocation(d) === where)) {
      monitors.get(where)?.stop();
      monitors.delete(where);
    }
  });

  const stopAll = async () => {
    stopped = true;
    unsubscribe?.();
    for (const i of monitors.values()) i.stop();
    monitors.clear();
    await collector.stop();
  };

  try {
    await Promise.all(initial.map((i) => i.start()));
  } catch (err) {
    await stopAll();
    throw err;
  }
  collector.activate();

  let stopping: Promise<void> | undefined;
  return {
    collector,
    stop() {
      stopping ??= stopAll();
      return stopping;
    },
    async whenIdle() {
      const queues = [collector.deleteQueue, collector.orphanQueue];
      for (let i = 0; i < 100; i++) {
        await Promise.all(queues.map((q) => q.whenIdle()));
        await new Promise((r) => setImmediate(r));
        if (queues.every((q) => q.idleNow())) return;
      }
    },
  };
}
