/**
 * RBAC at start: the bootstrap policy is reconciled (kube-apiserver's rbac/bootstrap-roles hook), then the
 * ClusterRole aggregation controller starts and has aggregated once before `startRbac` resolves, so a server
 * that reports ready already has `admin`, `edit` and `view` filled in.
 *
 * Without the rbac.authorization.k8s.io/v1 API (disabled by --runtime-config) both are skipped.
 */
import { ensureBootstrapPolicy, type EnsureReport, type GateCheck } from '../../authz/rbac/bootstrap/index.ts';
import type { RestRegistry } from '../../registry/rest.ts';
import { Informer } from '../../client/informer.ts';
import type { Logger } from '../../registry/system-context.ts';
import type { WorkQueue } from '../../client/work-queue.ts';
import { ClusterRoleAggregationController } from './clusterrole-aggregation.ts';

export { ClusterRoleAggregationController, aggregateRules, selectorMatches, AGGREGATION_FIELD_MANAGER } from './clusterrole-aggregation.ts';

export interface RbacStartOptions {
  registry: RestRegistry;
  log?: Logger;
  /** Feature gates deciding the gated controller roles (default: v1.33's defaults). */
  gate?: GateCheck;
  /** Reconcile the bootstrap policy first (default true). */
  bootstrap?: boolean;
}

export interface RunningRbac {
  /** What the start's reconciliation did (undefined when skipped). */
  readonly report: EnsureReport | undefined;
  /** The aggregation queue (empty when RBAC is not served). */
  readonly queues: WorkQueue[];
  stop(): Promise<void>;
}

export async function startRbac(opts: RbacStartOptions): Promise<RunningRbac> {
  const { registry, log } = opts;
  const storage = registry.lookup('rbac.authorization.k8s.io', 'v1', 'clusterroles');
  if (!storage) return { report: undefined, queues: [], stop: async () => {} };
  const report = opts.bootstrap === false ? undefined : await ensureBootstrapPolicy({ registry, ...(log ? { log } : {}), ...(opts.gate ? { gate: opts.gate } : {}) });

  const informer = new Informer({ storage, ...(log ? { log } : {}) });
  const controller = new ClusterRoleAggregationController({ clusterRoles: informer, storage, ...(log ? { log } : {}) });
  try {
    await informer.start();
    // The initial adds queued every aggregated role; aggregating them is part of starting. Aggregations feed
    // each other (view → edit → admin), and each write comes back through the watch, so wait until the cache
    // shows every aggregated role settled (bounded: a role that keeps failing does not block the start).
    for (let i = 0; i < 200; i++) {
      await controller.queue.whenIdle();
      if (controller.settled()) break;
      await new Promise((r) => setTimeout(r, 5));
    }
  } catch (err) {
    informer.stop();
    await controller.stop();
    throw err;
  }
  return {
    report,
    queues: [controller.queue],
    async stop() {
      informer.stop();
      await controller.stop();
    },
  };
}
