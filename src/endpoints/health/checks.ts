/**
 * The health checks kube-apiserver reports, by the names it uses (compare
 * test/fixtures/kube-v1.32/responses/health.txt), backed by what Keelson really has: a store ping, the
 * post-start hooks run by startServer, and the shutdown state.
 */

/** A named check; `check` throws (or rejects) with the reason when unhealthy. */
export interface HealthCheck {
  readonly name: string;
  check(): void | Promise<void>;
}

/** kube-apiserver's post-start hooks, in the order /livez lists them. */
export const POST_START_HOOKS = [
  'start-apiserver-admission-initializer',
  'generic-apiserver-start-informers',
  'priority-and-fairness-config-consumer',
  'priority-and-fairness-filter',
  'storage-object-count-tracker-hook',
  'start-apiextensions-informers',
  'start-apiextensions-controllers',
  'crd-informer-synced',
  'start-system-namespaces-controller',
  'start-cluster-authentication-info-controller',
  'start-kube-apiserver-identity-lease-controller',
  'start-kube-apiserver-identity-lease-garbage-collector',
  'start-legacy-token-tracking-controller',
  'start-service-ip-repair-controllers',
  'rbac/bootstrap-roles',
  'scheduling/bootstrap-system-priority-classes',
  'priority-and-fairness-config-producer',
  'bootstrap-controller',
  'start-kube-aggregator-informers',
  'apiservice-status-local-available-controller',
  'apiservice-status-remote-available-controller',
  'apiservice-registration-controller',
  'apiservice-wait-for-first-sync',
  'apiservice-discovery-controller',
  'kube-apiserver-autoregistration',
] as const;
/** Listed after the hooks above, before the two openapi controllers (as kube-apiserver orders them). */
const LATE_HOOKS = ['apiservice-openapi-controller', 'apiservice-openapiv3-controller'] as const;

/** Tracks which post-start hooks finished; a hook's check fails with "not finished" until then. */
export class PostStartHooks {
  private readonly done = new Set<string>();
  markDone(name: string): void {
    this.done.add(name);
  }
  markAllDone(): void {
    for (const h of [...POST_START_HOOKS, ...LATE_HOOKS]) this.done.add(h);
  }
  isDone(name: string): boolean {
    return this.done.has(name);
  }
  check(name: string): HealthCheck {
    return {
      name: `poststarthook/${name}`,
      check: () => {
        if (!this.done.has(name)) throw new Error('not finished');
      },
    };
  }
}

export interface StandardCheckDeps {
  readonly hooks: PostStartHooks;
  /** Resolves when the store answers (the `etcd` check). */
  readonly pingStore: () => Promise<void>;
  /** Timeout for the store ping (`--etcd-healthcheck-timeout`, default 2s). */
  readonly storeTimeoutMs?: number;
  /** True once the watch caches have synced. */
  readonly informersSynced?: () => boolean;
  readonly isShuttingDown: () => boolean;
  /** Checks kube adds next to the store's (e.g. `kms-providers` with encryption at rest), on every endpoint. */
  readonly extraChecks?: readonly HealthCheck[];
}

async function withTimeout(p: Promise<void>, ms: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([p, new Promise<never>((_, rej) => { timer = setTimeout(() => rej(new Error(`${what} timed out after ${ms}ms`)), ms); })]);
  } finally {
    clearTimeout(timer);
  }
}

export interface StandardChecks {
  readonly livez: HealthCheck[];
  readonly readyz: HealthCheck[];
  readonly healthz: HealthCheck[];
}

export function standardChecks(d: StandardCheckDeps): StandardChecks {
  const timeout = d.storeTimeoutMs ?? 2000;
  const ping: HealthCheck = { name: 'ping', check: () => {} };
  const log: HealthCheck = { name: 'log', check: () => {} };
  const etcd: HealthCheck = { name: 'etcd', check: () => withTimeout(d.pingStore(), timeout, 'store ping') };
  // Readiness folds the store's reachability into informer-sync: the caches cannot be in sync without it.
  const informerSync: HealthCheck = {
    name: 'informer-sync',
    check: async () => {
      if (d.informersSynced && !d.informersSynced()) throw new Error('informers not started yet');
      await withTimeout(d.pingStore(), timeout, 'store ping');
    },
  };
  const extra = d.extraChecks ?? [];
  const shutdown: HealthCheck = { name: 'shutdown', check: () => { if (d.isShuttingDown()) throw new Error('process is shutting down'); } };
  const hooks = [
    ...POST_START_HOOKS.map((h) => d.hooks.check(h)),
    { name: 'autoregister-completion', check: () => { if (!d.hooks.isDone('kube-apiserver-autoregistration')) throw new Error('not finished'); } },
    ...LATE_HOOKS.map((h) => d.hooks.check(h)),
  ];
  return {
    livez: [ping, log, etcd, ...extra, ...hooks],
    readyz: [ping, log, informerSync, ...extra, ...hooks, shutdown],
    healthz: [ping, log, etcd, ...extra, ...hooks],
  };
}
