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
  /**
   * Resolves once the server reports ready. The garbage collector's informers (every deletable resource, a full
   * list each) start then, as kube-controller-manager's do against a ready API server: at 100k objects their
   * lists took seconds of the start's CPU before /readyz could answer.
   */
  serving?: Promise<void>;
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
      if (o.garbageCollector) running.push(startWhenServing(p.serving, () => startGarbageCollector({ registry, catalog: p.catalog, log: o.log }), o.log));
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

/** Starts a controller once `serving` resolves (at once without it); stopping first cancels the start. */
function startWhenServing(serving: Promise<void> | undefined, start: () => Promise<{ stop(): Promise<void> }>, log: (line: string) => void): { stop(): Promise<void> } {
  let cancelled = false;
  let starting: Promise<{ stop(): Promise<void> } | undefined> | undefined;
  const begin = (): void => {
    if (cancelled) return;
    starting = start();
    starting.catch((err: unknown) => log(`controller start failed: ${err instanceof Error ? err.message : String(err)}`));
  };
  if (serving) void serving.then(begin);
  else begin();
  return {
    async stop() {
      cancelled = true;
      // Never started (the server was not ready yet): nothing to wait for.
      const c = await starting?.catch(() => undefined);
      await c?.stop();
    },
  };
}
