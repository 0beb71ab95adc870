/**
 * The composition root: options → store (its lock first; the certificates load while its writer thread
 * starts) → catalog → registry (watch caches) → endpoints → listener → bootstrap and controllers → ready →
 * admin kubeconfig; the garbage collector's informers start once ready (./elected-controllers.ts).
 * `stop()` unwinds in reverse: readiness fails, the shutdown delay passes, listeners close (watches end
 * through their abort signals), controllers stop, the registry's caches stop, and the store flushes and
 * closes. A failure while starting unwinds whatever had started.
 */
import type { Endpoint } from '../request/context.ts';
import { resolveOptions, type ServerOptions } from './options.ts';
import { ensurePki } from './pki.ts';
import { buildKubeconfig, serverUrl, writeKubeconfig } from './kubeconfig.ts';
import { createApiServer, type ApiServer } from './api-server.ts';
import { openStore } from '../storage/factory.ts';
import { shareWatches } from '../storage/cacher/shared-watch.ts';
import { builtinCatalog } from '../registry/resources/groups/index.ts';
import { createRegistry, type Registry } from '../registry/registry.ts';
import type { RestStorage } from '../registry/rest.ts';
import type { ResourceDef } from '../api/types.ts';
import { bindingsStorage, podSubresources } from '../registry/special/pods/index.ts';
import { ComponentStatusStorage, httpsHealthProbe, type ComponentProbe } from '../registry/special/component-statuses.ts';
import { reviewStorages } from '../registry/reviews/index.ts';
import { startControlPlaneBootstrap } from '../controllers/index.ts';
import { startElectedControllers } from './elected-controllers.ts';
import { ensureBootstrapPolicy } from '../authz/rbac/bootstrap/index.ts';
import { ensureSystemNamespaces, ensureSystemPriorityClasses } from '../controllers/bootstrap.ts';
import { firstServiceIP } from '../registry/services/setup.ts';
import { createDiscoveryEndpoint } from '../endpoints/discovery/index.ts';
import { createOpenApiEndpoint } from '../endpoints/openapi/index.ts';
import { createResourceEndpoint } from '../endpoints/resource-endpoint.ts';
import { FeatureGates } from '../features/gates.ts';
import { withServingGates } from '../features/serving.ts';
import { buildRequestAuthentication } from '../authn/setup.ts';
import { buildRequestAuthorization } from '../authz/setup.ts';
import { rbacStorageGuard } from '../registry/rbac/guard.ts';
import { generateSigningKeyAhead, serviceAccountIssuer } from '../authn/serviceaccount/index.ts';
import { tokenRequestSubresource } from '../authn/serviceaccount/token-request.ts';
import { startCrdController } from '../controllers/crd-controller.ts';
import { buildAdmission, type AdmissionChain } from '../admission/index.ts';
import { Metrics } from '../endpoints/metrics.ts';
import { instrumentStore } from '../storage/metrics.ts';
import { objectCounter, resourceResolver, storageSize } from './storage-metrics.ts';
import { createAuditing } from '../audit/options.ts';
import { encryptingStore, kmsHealthChecks, openEncryption } from './encryption.ts';
import { startFlowControl } from '../flowcontrol/index.ts';
import { registerFlowControlMetrics } from '../flowcontrol/metrics.ts';
import { tracePhase } from './start-trace.ts';
import { registerReplicaTrust, startReplicaHooks } from './replica-hooks.ts';

/** Secure health ports kube-apiserver probes for `componentstatuses`. */
const KUBE_SCHEDULER_PORT = 10259;
const KUBE_CONTROLLER_MANAGER_PORT = 10257;

/** `etcd-<n>` per etcd server (the embedded store answers as `etcd-0`): healthy when the store answers. */
function storeProbes(o: { etcdServers: string[] }, store: { ping?(): Promise<void>; currentRevision(): Promise<number> }): ComponentProbe[] {
  const count = Math.max(1, o.etcdServers.length);
  return Array.from({ length: count }, (_, i) => ({
    name: `etcd-${i}`,
    check: async () => {
      if (store.ping) await store.ping();
      else await store.currentRevision();
      return 'ok';
    },
  }));
}

/** Every key the registry writes lives under kube-apiserver's storage root. */
const REGISTRY_PREFIX = '/registry/';

export type { ServerOptions } from './options.ts';

export interface RunningServer {
  /** `https://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Where the admin kubeconfig was written; undefined when none was written (library without a data dir). */
  readonly kubeconfigPath: string | undefined;
  /** The admin kubeconfig text (YAML) — usable even when nothing was written. */
  readonly kubeconfig: string;
  /** The CA a client should trust for the serving certificate. */
  readonly caPem: string;
  readonly adminCertPem: string;
  readonly adminKeyPem: string;
  /** Graceful shutdown; idempotent. */
  stop(): Promise<void>;
}

/** Starts a Keelson server in this process. Library defaults: random port, memory store, nothing on disk. */
export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const o = resolveOptions(opts);
  // Refused before anything is written or opened; `keelson` already printed the gates' warnings.
  const gates = FeatureGates.create(o.featureGates);
  const cleanups: (() => Promise<void>)[] = [];
  const unwind = async (): Promise<void> => {
    while (cleanups.length) {
      const c = cleanups.pop()!;
      try {
        await c();
      } catch (err) {
        o.log(`error while stopping: ${(err as Error).message}`);
      }
    }
  };
  try {
    // The audit policy and backends first: a bad file refuses to start before anything is opened or written.
    // Registered first, so stopped last: every request the listener still serves is recorded.
    tracePhase('startServer entered');
    // A first start's RSA service account key takes 100–350 ms in libuv's pool: begin before anything else.
    generateSigningKeyAhead({ certDir: o.certDir, signingKeyFile: o.serviceAccounts?.signingKeyFile });
    const auditing = await createAuditing(o.audit, o.log);
    if (auditing) cleanups.push(() => auditing.shutdown());
    // A malformed --encryption-provider-config refuses the start before any file or connection is opened.
    const encryption = await openEncryption(o);
    if (encryption) cleanups.push(() => Promise.resolve(encryption.close()));
    const catalog = builtinCatalog({ runtimeConfig: o.runtimeConfig });
    let lockHeld!: () => void;
    const locked = new Promise<void>((resolve) => (lockHeld = resolve));
    const opening = openStore({
      kind: o.storage, dataDir: o.dataDir, etcdServers: o.etcdServers, etcdPrefix: o.etcdPrefix,
      etcdCaFile: o.etcdCaFile, etcdCertFile: o.etcdCertFile, etcdKeyFile: o.etcdKeyFile, keyPrefix: REGISTRY_PREFIX,
      historyRetentionMs: o.historyRetentionMs, onLocked: lockHeld,
    });
    // Certificates after the store's lock: it refuses a second server on this data dir before it touches them.
    // They load (or are issued) while the store's writer thread starts. The service account key (RSA, generated
    // ahead on a first start) is made at the same time; TokenRequest signs with it, so it exists before the registry.
    await Promise.race([locked, opening]);
    const credentials = Promise.all([
      ensurePki({
        dataDir: o.certDir, bindAddress: o.bindAddress, tlsCertFile: o.tlsCertFile, tlsPrivateKeyFile: o.tlsPrivateKeyFile, clientCaFile: o.clientCaFile,
        extraSans: [o.advertiseAddress],
      }),
      serviceAccountIssuer(o),
    ]);
    credentials.catch(() => {}); // awaited below, after the store is in the cleanups
    const opened = await opening;
    // Values are encrypted between the registry's codec and the backend (kube's storage transformers).
    tracePhase('store opened');
    const backend = encryption ? encryptingStore(opened, encryption, () => catalog) : opened;
    // etcd sends progress notifications rarely; one shared watch makes every event progress for every cache,
    // so consistent reads of idle resources are answered from the cache instead of falling back to etcd.
    const shared = o.storage === 'etcd' ? await shareWatches(backend, { root: REGISTRY_PREFIX }) : backend;
    cleanups.push(() => shared.close());
    const [pki, saIssuer] = await credentials;
    tracePhase('certificates and service account key ready');
    // Replicas on one store must share keys and CAs: refused here, before anything is served (./replica-check.ts).
    const replica = await registerReplicaTrust(o, opened, pki, saIssuer);
    cleanups.push(() => replica.stop());
    // One Metrics for the whole server: the store's calls, admission, the chain and the watch handler feed it.
    const metrics = new Metrics({ showHiddenForVersion: o.showHiddenMetricsForVersion });
    const store = instrumentStore(shared, metrics, resourceResolver(catalog));
    metrics.setObjectCounter(objectCounter(catalog, shared));
    const sizeOf = storageSize(o, opened);
    if (sizeOf) metrics.setStorageSize(sizeOf);
    // Reviews (TokenReview, access reviews) decide with the request chain's own authenticator and authorizer;
    // the server that owns them is created below, and reviews only run once it serves requests.
    let server: ApiServer | undefined;
    const chainOf = (): ApiServer => {
      if (!server) throw new Error('a review ran before the server was created');
      return server;
    };
    const reviews = reviewStorages({ authenticator: () => chainOf().authenticator, authorizer: () => chainOf().authorizer, apiAudiences: saIssuer.config.apiAudiences });
    let registryRef: Registry | undefined;
    const registryOf = (): Registry => registryRef!;
    const componentProbes = (): ComponentProbe[] => [
      httpsHealthProbe('scheduler', KUBE_SCHEDULER_PORT),
      // The controller manager's controllers run in this process when enabled.
      o.controllers ? { name: 'controller-manager', check: () => Promise.resolve('ok') } : httpsHealthProbe('controller-manager', KUBE_CONTROLLER_MANAGER_PORT),
      ...storeProbes(o, store),
    ];
    const virtualStorage = (def: ResourceDef): RestStorage | undefined => reviews(def) ?? bindingsStorage(def, registryOf, { bindingLabels: gates.enabled('PodTopologyLabelsAdmission') })
      ?? (def.group === '' && def.resource === 'componentstatuses' ? new ComponentStatusStorage(def, componentProbes) : undefined);
    let admissionRef: AdmissionChain | undefined;
    const registry = await createRegistry({ virtualStorage, admission: () => admissionRef, wrapStorage: rbacStorageGuard({ authorizer: () => chainOf().authorizer }), catalog, store, cache: o.watchCache, updatesFromCache: !encryption, cacher: { windowMs: o.historyRetentionMs, log: o.log }, garbageCollection: o.garbageCollector, allowPrivileged: o.allowPrivileged,
      services: { clusterIPRange: o.serviceClusterIPRange, nodePortRange: o.serviceNodePortRange }, subresourceStorages: [tokenRequestSubresource(saIssuer), podSubresources({ bindingLabels: gates.enabled('PodTopologyLabelsAdmission') })] });
    registryRef = registry;
    tracePhase('registry and watch caches ready');
    cleanups.push(() => registry.stop());
    // apiextensions-apiserver's controllers: CRDs already stored are served before the listener opens.
    // With leader election its writes wait for the lease (src/controlplane/elected-controllers.ts); it serves at once.
    const crdController = await startCrdController({ registry, catalog, log: o.log, leading: !(o.controllers && o.leaderElection.leaderElect) });
    cleanups.push(() => crdController.stop());

    tracePhase('CRD controller started');
    // Resolved once the server is ready: background work (OpenAPI documents) waits for it.
    let markReady!: () => void;
    const ready = new Promise<void>((r) => { markReady = r; });
    const apiEndpoints: Endpoint[] = [
      createDiscoveryEndpoint({ catalog }),
      createOpenApiEndpoint({ catalog, warmWhen: ready }),
      createResourceEndpoint({
        registry, catalog, onDeprecatedRequest: (u) => metrics.recordDeprecatedRequest(u),
        onWatchEvent: (g, v, k, bytes) => metrics.recordWatchEvent(g, v, k, bytes),
      }),
    ];
    // Gates that change serving (APIResponseCompression, CBORServingAndStorage, AllowUnsafeMalformedObjectDeletion)
    // become fields of each request's context (src/features/serving.ts).
    const endpoints = withServingGates(gates, apiEndpoints, { authorizer: () => chainOf().authorizer });
    const authn = await buildRequestAuthentication({ options: o, clientCaPems: pki.clientCaPems, registry, log: o.log });
    cleanups.push(() => authn.stop());
    const authz = await buildRequestAuthorization({ options: o, registry, log: o.log });
    cleanups.push(() => authz.stop());
    await authz.ready();
    tracePhase('authentication and authorization ready');
    // Admission: every write through the registry (controllers' and bootstrap's too, as kube's loopback client's)
    // goes through the chain from here on.
    const admission = await buildAdmission({
      options: o.admission, registry, catalog, authorizer: () => chainOf().authorizer, featureEnabled: (g) => gates.enabled(g), resources: () => catalog.all(),
      lookupKind: (g, v, k) => {
        const def = catalog.lookupKind(g, v, k);
        return def && !def.virtual ? { resource: def.resource, namespaced: def.namespaced } : undefined;
      },
      log: o.log, now: () => new Date(), metrics,
    });
    cleanups.push(() => admission.stop());
    await admission.ready();
    admissionRef = admission;
    tracePhase('admission ready');
    // API Priority and Fairness: the bootstrap configuration is in place and read before the first request.
    const apf = o.enablePriorityAndFairness
      ? await startFlowControl({ registry, serverConcurrencyLimit: o.maxRequestsInflight + o.maxMutatingRequestsInflight, watchList: gates.enabled('WatchList'), log: o.log, resources: () => catalog.all() })
      : undefined;
    if (apf) cleanups.push(() => Promise.resolve(apf.stop()));
    if (apf) registerFlowControlMetrics(metrics.registry, apf.controller);
    tracePhase('flow control ready');
    server = await createApiServer({
      ...(apf ? { flowControl: apf.controller } : {}),
      options: o,
      auditing,
      pki,
      authenticator: authn.authenticator,
      authorizer: authz.authorizer,
      metrics,
      endpoints: [...o.extraEndpoints, ...authn.endpoints, ...endpoints],
      extraChecks: kmsHealthChecks(encryption),
      pingStore: async () => {
        if (store.ping) await store.ping();
        else await store.currentRevision();
      },
    });
    cleanups.push(() => server.shutdown());
    tracePhase('listening');

    if (o.controllers) {
      const controllerOptions = { registry, catalog, rootCaPem: pki.serverCaPem, serviceAccountIssuer: saIssuer, bootstrapTokens: o.enableBootstrapTokenAuth ?? false, resourceQuotaSyncPeriodMs: o.resourceQuotaSyncPeriodMs, apiServer: { host: o.advertiseAddress, port: server.port, serviceIP: firstServiceIP(o.serviceClusterIPRange) }, featureEnabled: (g: string) => gates.enabled(g), log: o.log };
      // kube-apiserver's post-start hooks run on every replica; the controllers on the lease holder only.
      const bootstrap = await startControlPlaneBootstrap(controllerOptions);
      cleanups.splice(cleanups.length - 1, 0, () => Promise.resolve(bootstrap.stop()));
      const elected = await startElectedControllers({ options: o, registry, catalog, crd: crdController, controllers: controllerOptions, serving: ready });
      // Controllers stop after the listener closed (registered later = unwound earlier, so insert before it).
      cleanups.splice(cleanups.length - 1, 0, () => elected.stop());
    } else {
      // kube-apiserver's own post-start hooks (system namespaces, rbac/bootstrap-roles) run with or without a
      // controller manager; the default roles live partly in kube-system and kube-public.
      await ensureSystemNamespaces(registry);
      await ensureSystemPriorityClasses(registry);
      await ensureBootstrapPolicy({ registry, log: o.log, gate: (g) => gates.enabled(g) });
    }
    tracePhase('controllers and bootstrap policy done');
    // Identity lease and the `kubernetes` endpoints: registered last, so a graceful stop removes this replica's
    // endpoint first, while the listener still serves.
    const hooks = await startReplicaHooks(o, { registry, store: opened, port: server.port, identity: gates.enabled('APIServerIdentity') });
    cleanups.push(() => hooks.stop());
    server.markStarted();
    markReady();
    tracePhase('ready');

    const url = serverUrl(o.bindAddress, server.port);
    const kubeconfig = buildKubeconfig({ server: url, caPem: pki.serverCaPem, certPem: pki.adminCertPem, keyPem: pki.adminKeyPem });
    if (o.kubeconfigPath) await writeKubeconfig(o.kubeconfigPath, kubeconfig);

    let stopping: Promise<void> | undefined;
    return {
      url,
      port: server.port,
      kubeconfigPath: o.kubeconfigPath,
      kubeconfig,
      caPem: pki.serverCaPem,
      adminCertPem: pki.adminCertPem,
      adminKeyPem: pki.adminKeyPem,
      stop: () => (stopping ??= unwind()),
    };
  } catch (err) {
    await unwind();
    throw err;
  }
}
