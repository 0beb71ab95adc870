/**
 * kube-controller-manager's part of the server: the controllers that must run once per cluster (namespace
 * deleter, garbage collector, service accounts and tokens, root CA, RBAC aggregation, bootstrap tokens, quota,
 * PVC/PV protection, and the CRD controller's writes) run only while this replica holds the leader election
 * Lease (`--leader-elect`, default on). The embedded and memory stores admit one process, so there the lease is
 * won on the first attempt and the start waits no retry period. With `--leader-elect=false` they simply run.
 */
import type { ResolvedOptions } from './options.ts';
import type { RestRegistry } from '../registry/rest.ts';
import type { CatalogLike } from '../controllers/namespace-deleter.ts';
import type { GcCatalog } from '../controllers/garbage-collector/index.ts';
import { startGarbageCollector } from '../controllers/garbage-collector/index.ts';
import { startLeaderControllers, type ControllerOptions } from '../controllers/index.ts';
import type { RunningCrdController } from '../controllers/crd-controller.ts';
import { LeaderElector } from '../client/leader-election.ts';

export interface ElectedControllersOptions {
  options: Pick<ResolvedOptions, 'leaderElection' | 'garbageCollector' | 'storage' | 'log'>;
  registry: RestRegistry;
  catalog: CatalogLike & GcCatalog;
  crd: RunningCrdController;
  controllers: ControllerOptions;
}

export interface ElectedControllers {
  /** The elector, when leader election is on (tests and diagnostics). */
  readonly elector: LeaderElector | undefined;
  /** Stops the controllers and releases the lease. */
  stop(): Promise<void>;
}

export async function startElectedControllers(p: ElectedControllersOptions): Promise<ElectedControllers> {
  const { options: o, registry } = p;
  let running: { stop(): Promise<void> }[] = [];
  const halt = async (): Promise<void> => {
    p.crd.setLeading(false);
    const stopping = running.reverse();
    running = [];
    for (const r of stopping) await r.stop();
  };
  const run = async (): Promise<void> => {
    try {
      running.push(await startLeaderControllers(p.controllers));
      // kube-controller-manager's garbage collector: cascading deletion and the orphan/foreground finalizers.
      if (o.garbageCollector) running.push(await startGarbageCollector({ registry, catalog: p.catalog, log: o.log }));
      p.crd.setLeading(true);
    } catch (err) {
      await halt();
      throw err;
    }
  };

  const le = o.leaderElection;
  const leases = le.leaderElect ? registry.lookup('coordination.k8s.io', 'v1', 'leases') : undefined;
  if (le.leaderElect && !leases) o.log('leader election: coordination.k8s.io/v1 leases are not served; running the controllers without it');
  if (!leases) {
    await run();
    return { elector: undefined, stop: halt };
  }
  const elector = new LeaderElector({
    leases, namespace: le.resourceNamespace, name: le.resourceName, identity: le.identity,
    leaseDurationMs: le.leaseDurationMs, renewDeadlineMs: le.renewDeadlineMs, retryPeriodMs: le.retryPeriodMs,
    exclusiveStore: o.storage !== 'etcd',
    log: o.log,
    callbacks: {
      onStartedLeading: run,
      onStoppedLeading: halt,
      onNewLeader: (id) => { if (id !== le.identity) o.log(`leader election: new leader elected: ${id}`); },
    },
  });
  await elector.start();
  return { elector, stop: () => elector.stop() };
}
