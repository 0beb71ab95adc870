/**
 * In-process garbage collector (kube-controller-manager's garbagecollector controller): cascading deletion by
 * `metadata.ownerReferences` — background (dependents of a gone owner are deleted), orphan (the `orphan`
 * finalizer: dependents lose the reference, the owner goes) and foreground (the `foregroundDeletion` finalizer:
 * the owner stays until its blocking dependents are gone).
 *
 * One informer per deletable resource (list + watch + delete, one per storage location) feeds the graph;
 * resources the catalog adds later (CRDs) get an informer when added. Like kube-controller-manager next to
 * kube-apiserver, it starts in the background: `startGarbageCollector` resolves at once, informers list
 * concurrently, and work starts once all have listed (`whenSynced`). `stop()` ends the informers and retry
 * timers, then waits for the runs in flight.
 */
import type { RestRegistry } from '../../registry/rest.ts';
import type { Logger } from '../../registry/system-context.ts';
import { GarbageCollector } from './collector.ts';
import { Monitors } from './monitors.ts';
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
  /** Resolves once every informer has listed and work has started (or the collector stopped). */
  whenSynced(): Promise<void>;
  /** Resolves once synced and both queues are empty at the same time (tests). */
  whenIdle(): Promise<void>;
  /** The collector (graph and queues), for diagnostics and tests. */
  readonly collector: GarbageCollector;
}

export function startGarbageCollector(opts: GarbageCollectorOptions): Promise<RunningGarbageCollector> {
  const { registry, catalog, log } = opts;
  const resolver = new ResourceResolver({ catalog, registry });
  const monitors = new Monitors({ registry, handler: { onUpsert: (def, obj) => collector.onUpsert(def, obj), onDelete: (obj) => collector.onDelete(obj) }, ...(log ? { log } : {}) });
  const collector = new GarbageCollector({
    ops: new GcOperations(resolver),
    resolver,
    cached: (ref, namespace) => monitors.cached(ref.apiVersion, ref.kind, namespace, ref.name),
    synced: () => monitors.synced(),
    ...(log ? { log } : {}),
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
  });
  let stopped = false;

  for (const def of deletableResources(catalog.all())) monitors.add(def);
  const unsubscribe = catalog.onChange?.((change) => {
    if (stopped || !isDeletable(change.def)) return;
    // After this event has reached every listener (the registry serves the def from its own listener).
    if (change.type === 'added') setImmediate(() => { if (!stopped) monitors.add(change.def); });
    // Another def may still serve the same storage (a CRD version removed, others kept).
    else if (!catalog.all().some((d) => isDeletable(d) && storageLocation(d) === storageLocation(change.def))) monitors.remove(change.def);
  });
  const synced = monitors.synced().then(() => {
    if (!stopped) collector.activate();
  });

  let stopping: Promise<void> | undefined;
  return Promise.resolve({
    collector,
    stop() {
      stopping ??= (async () => {
        stopped = true;
        unsubscribe?.();
        monitors.stop();
        await collector.stop();
      })();
      return stopping;
    },
    whenSynced: () => synced,
    async whenIdle() {
      await synced;
      const queues = [collector.deleteQueue, collector.orphanQueue];
      for (let i = 0; i < 100; i++) {
        await Promise.all(queues.map((q) => q.whenIdle()));
        await new Promise((r) => setImmediate(r));
        if (queues.every((q) => q.idleNow())) return;
      }
    },
  });
}
