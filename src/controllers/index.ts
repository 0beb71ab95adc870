/**
 * In-process controllers that make the server a usable control plane (what users rely on from
 * kube-controller-manager) plus kube-apiserver's own bootstrap:
 * - system namespaces (and optionally the `kubernetes` Service) exist before `startControllers` resolves;
 * - namespace controller: a deleted namespace is emptied and then removed;
 * - serviceaccount controller: `default` ServiceAccount in every active namespace;
 * - root-ca publisher: ConfigMap `kube-root-ca.crt` in every active namespace;
 * - resourcequota controller: every quota's status.hard and status.used (src/controllers/resource-quota.ts).
 * All of them call the registry directly with the `system:apiserver` identity (no HTTP loopback).
 * The bootstrap (`startControlPlaneBootstrap`) runs on every replica; the controllers (`startLeaderControllers`)
 * on the leader election lease's holder only (src/controlplane/elected-controllers.ts).
 */
import type { RestRegistry, RestStorage } from '../registry/rest.ts';
import { type ApiServerEndpoint, ensureKubernetesService, ensureSystemNamespaces, ensureSystemPriorityClasses } from './bootstrap.ts';
import { Informer } from '../client/informer.ts';
import { NamespaceController } from './namespace-controller.ts';
import { StorageProtectionController } from './storage-protection.ts';
import { type CatalogLike, NamespaceDeleter } from './namespace-deleter.ts';
import { DEFAULT_SERVICE_ACCOUNT, ServiceAccountController } from './serviceaccount-controller.ts';
import { ROOT_CA_CONFIGMAP, RootCaPublisher } from './root-ca-publisher.ts';
import type { Logger } from '../registry/system-context.ts';
import { startRbac } from './rbac/index.ts';
import { ensureBootstrapPolicy } from '../authz/rbac/bootstrap/index.ts';
import { startServiceAccountTokens } from './serviceaccount-tokens.ts';
import { startBootstrapTokenControllers } from './bootstrap-tokens.ts';
import type { ServiceAccountIssuer } from '../authn/serviceaccount/issuer.ts';
import { startResourceQuotaController } from './resource-quota.ts';

export { SYSTEM_NAMESPACES, KUBERNETES_SERVICE_IP } from './bootstrap.ts';
export { ROOT_CA_CONFIGMAP } from './root-ca-publisher.ts';

export interface ControllerOptions {
  registry: RestRegistry;
  catalog: CatalogLike;
  /** PEM of the CA clients verify the server with (published as kube-root-ca.crt). */
  rootCaPem: string;
  /** When set, the `kubernetes` Service/Endpoints/EndpointSlice in `default` point here. */
  apiServer?: ApiServerEndpoint;
  /** Diagnostics (retries, watch restarts). Default: silent. */
  log?: Logger;
  /** How often the system namespaces are re-created when deleted (kube's system-namespaces controller: 1 min). */
  systemNamespacesIntervalMs?: number;
  /** Feature gates (decide the gated default RBAC roles); default: v1.33's defaults. */
  featureEnabled?: (gate: string) => boolean;
  /** When set, the tokens controller fills secret-based service account tokens signed by it. */
  serviceAccountIssuer?: ServiceAccountIssuer;
  /** Run the bootstrap token cleaner and the cluster-info signer (kube's tokencleaner, bootstrapsigner). */
  bootstrapTokens?: boolean;
  /** The quota controller's full recount interval (kube-controller-manager's --resource-quota-sync-period: 5 min). */
  resourceQuotaSyncPeriodMs?: number;
}

export interface RunningControllers {
  stop(): Promise<void>;
  /** Resolves once every queue is empty (tests use it to wait for the controllers to settle). */
  whenIdle(): Promise<void>;
}

function need(registry: RestRegistry, resource: string): RestStorage {
  const s = registry.lookup('', 'v1', resource);
  if (!s) throw new Error(`controllers need ${resource}, which the registry does not serve`);
  return s;
}

/**
 * kube-apiserver's own post-start hooks, run on every replica (several at once on one store): system
 * namespaces, system PriorityClasses, the `kubernetes` Service, the RBAC bootstrap policy, and the
 * system-namespaces controller that recreates a deleted kube-node-lease. Each step treats AlreadyExists as
 * done and retries conflicts, so replicas starting together neither fail nor make two copies.
 */
export async function startControlPlaneBootstrap(opts: Pick<ControllerOptions, 'registry' | 'apiServer' | 'log' | 'systemNamespacesIntervalMs' | 'featureEnabled'>): Promise<{ stop(): void }> {
  const { registry, log } = opts;
  // The namespaces first (the default roles live partly in kube-system and kube-public); then the rest at
  // once, so their durable writes share group commits instead of waiting on one another.
  await ensureSystemNamespaces(registry);
  await Promise.all([
    ensureSystemPriorityClasses(registry),
    opts.apiServer ? ensureKubernetesService(registry, opts.apiServer, log) : undefined,
    registry.lookup('rbac.authorization.k8s.io', 'v1', 'clusterroles')
      ? ensureBootstrapPolicy({ registry, ...(log ? { log } : {}), ...(opts.featureEnabled ? { gate: opts.featureEnabled } : {}) })
      : undefined,
  ]);
  const resync = setInterval(() => {
    ensureSystemNamespaces(registry).catch((err: unknown) => log?.(`system namespaces: ${(err as Error).message}`));
  }, opts.systemNamespacesIntervalMs ?? 60_000);
  resync.unref();
  return { stop: () => clearInterval(resync) };
}

/** The bootstrap and then the controllers, in one call (one process, no leader election). */
export async function startControllers(opts: ControllerOptions): Promise<RunningControllers> {
  const bootstrap = await startControlPlaneBootstrap(opts);
  try {
    const controllers = await startLeaderControllers(opts);
    return {
      stop: async () => {
        bootstrap.stop();
        await controllers.stop();
      },
      whenIdle: () => controllers.whenIdle(),
    };
  } catch (err) {
    bootstrap.stop();
    throw err;
  }
}

/**
 * kube-controller-manager's controllers, which run on one replica at a time (the leader election lease's
 * holder): namespaces, service accounts and tokens, root CA, RBAC aggregation, bootstrap tokens, quota, and
 * PVC/PV protection. Resolves once their caches have synced and RBAC aggregation has settled.
 */
export async function startLeaderControllers(opts: ControllerOptions): Promise<RunningControllers> {
  const { registry, log } = opts;
  const logOpt = log ? { log } : {};
  // The clusterrole-aggregation controller (the policy itself was reconciled by the bootstrap).
  const rbac = await startRbac({ registry, ...logOpt, bootstrap: false, ...(opts.featureEnabled ? { gate: opts.featureEnabled } : {}) });

  const serviceAccounts = need(registry, 'serviceaccounts');
  const configMaps = need(registry, 'configmaps');
  const nsInformer = new Informer({ storage: need(registry, 'namespaces'), ...logOpt });
  const saInformer = new Informer({ storage: serviceAccounts, fieldSelector: `metadata.name=${DEFAULT_SERVICE_ACCOUNT}`, ...logOpt });
  const cmInformer = new Informer({ storage: configMaps, fieldSelector: `metadata.name=${ROOT_CA_CONFIGMAP}`, ...logOpt });
  const informers = [nsInformer, saInformer, cmInformer];

  const nsController = new NamespaceController({ namespaces: nsInformer, deleter: new NamespaceDeleter({ registry, catalog: opts.catalog }), ...logOpt });
  const saController = new ServiceAccountController({ namespaces: nsInformer, serviceAccounts: saInformer, storage: serviceAccounts, ...logOpt });
  const publisher = new RootCaPublisher({ namespaces: nsInformer, configMaps: cmInformer, storage: configMaps, rootCaPem: opts.rootCaPem, ...logOpt });
  const saTokens = opts.serviceAccountIssuer
    ? await startServiceAccountTokens({ registry, issuer: opts.serviceAccountIssuer, rootCaPem: opts.rootCaPem, ...logOpt })
    : undefined;
  const bootstrap = opts.bootstrapTokens ? await startBootstrapTokenControllers({ registry, ...logOpt }) : undefined;
  // kube-controller-manager's resourcequota controller (registries without quotas — test doubles — go without).
  const quota = registry.lookup('', 'v1', 'resourcequotas') ? await startResourceQuotaController({
    registry, catalog: opts.catalog, ...logOpt, ...(opts.resourceQuotaSyncPeriodMs ? { resyncPeriodMs: opts.resourceQuotaSyncPeriodMs } : {}),
  }) : undefined;
  // kube-controller-manager's pvc-protection and pv-protection controllers (registries without claims — test doubles — go without).
  const claimStorage = registry.lookup('', 'v1', 'persistentvolumeclaims');
  const volumeStorage = registry.lookup('', 'v1', 'persistentvolumes');
  const podStorage = registry.lookup('', 'v1', 'pods');
  const storageInformers = claimStorage && volumeStorage && podStorage
    ? [new Informer({ storage: claimStorage, ...logOpt }), new Informer({ storage: volumeStorage, ...logOpt }), new Informer({ storage: podStorage, ...logOpt })]
    : [];
  const storageProtection = storageInformers.length ? new StorageProtectionController({
    claims: storageInformers[0]!, volumes: storageInformers[1]!, pods: storageInformers[2]!, claimStorage: claimStorage!, volumeStorage: volumeStorage!, ...logOpt,
  }) : undefined;
  informers.push(...storageInformers);
  const queues = [nsController.queue, saController.queue, publisher.queue, ...(storageProtection ? [storageProtection.queue] : []), ...(quota ? [quota.queue] : []), ...rbac.queues, ...(saTokens?.queues ?? []), ...(bootstrap?.queues ?? [])];
  const stopTokens = async (): Promise<void> => {
    await storageProtection?.stop();
    await saTokens?.stop();
    await bootstrap?.stop();
    await quota?.stop();
  };

  try {
    // Dependent caches first, so the namespace informer's initial adds find them synced.
    await saInformer.start();
    await cmInformer.start();
    // Pods before claims, so a claim's first sync sees the pods that hold it.
    for (const i of [...storageInformers].reverse()) await i.start();
    await nsInformer.start();
  } catch (err) {
    for (const i of informers) i.stop();
    await Promise.all([nsController.stop(), saController.stop(), publisher.stop(), rbac.stop(), stopTokens()]);
    throw err;
  }

  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        for (const i of informers) i.stop();
        await Promise.all([nsController.stop(), saController.stop(), publisher.stop(), rbac.stop(), stopTokens()]);
      })();
      return stopped;
    },
    async whenIdle() {
      // A queue's work can enqueue into another (namespace events fan out), so loop until all are idle at once.
      for (let i = 0; i < 50; i++) {
        await Promise.all(queues.map((q) => q.whenIdle()));
        await new Promise((r) => setImmediate(r));
        if (queues.every((q) => q.idleNow())) return;
      }
    },
  };
}
