/**
 * What `startServer` accepts: a typed mirror of the kube-apiserver flags we honour (src/cli/flags.ts maps the
 * command line onto it). Every field is optional; `resolveOptions` fills the defaults for library use, which
 * differ from the CLI's in two ways: port 0 (random) and no data dir (memory store, in-memory certificates).
 */
import path from 'node:path';
import { parseCidr, parsePortRange } from '../registry/services/cidr.ts';
import { DEFAULT_NODE_PORT_RANGE, DEFAULT_SERVICE_CIDR } from '../registry/services/setup.ts';
import type { AuthenticationOptions } from '../authn/options.ts';
import type { AuthorizationOptions } from '../authz/options.ts';
import type { AdmissionOptions } from '../admission/config.ts';
import type { AuditOptionsInput } from '../audit/options.ts';
import type { Endpoint } from '../request/context.ts';
import { OptionsError } from '../machinery/errors.ts';
import { Logger } from '../machinery/logging.ts';
import { DEFAULT_LEADER_ELECTION_TIMING, defaultLeaderIdentity, leaderElectionTimingError } from '../client/leader-election.ts';

export type StorageKind = 'memory' | 'sqlite' | 'etcd';

/** Every authentication and authorization input beyond the certificate and token-file basics. */
export interface SecurityOptions extends AuthenticationOptions, AuthorizationOptions {}

export interface ServerOptions extends SecurityOptions {
  /** `--secure-port`; 0 picks a free port. Library default 0, CLI default 6443. */
  port?: number;
  /** `--bind-address`, default 127.0.0.1. */
  bindAddress?: string;
  /** `--advertise-address`: where the `kubernetes` Service points (default: the bind address, loopback for wildcards). */
  advertiseAddress?: string;
  /** `--etcd-healthcheck-timeout` in ms (default 2s): how long the `etcd` health check waits for the store. */
  storeHealthTimeoutMs?: number;
  /** `--endpoint-reconciler-type`: lease (default), master-count or none. */
  endpointReconcilerType?: string;
  /** `--apiserver-count` (master-count reconciler): default 1, must be positive. */
  apiserverCount?: number;
  /** Library and test use: shorter periods for the identity lease, the endpoint reconciler and replica records. */
  replicaTiming?: ReplicaTiming;
  /** `--data-dir`: certificates, kubeconfig and the sqlite store live here. Unset = nothing on disk. */
  dataDir?: string;
  /** `--storage`; default sqlite with a data dir, memory without, etcd when etcdServers are given. */
  storage?: StorageKind;
  etcdServers?: string[];
  etcdPrefix?: string;
  etcdCaFile?: string;
  etcdCertFile?: string;
  etcdKeyFile?: string;
  /** `--encryption-provider-config`: an EncryptionConfiguration file (encryption at rest). */
  encryptionProviderConfig?: string;
  /** `--encryption-provider-config-automatic-reload`: re-read that file when it changes. */
  encryptionProviderConfigAutomaticReload?: boolean;
  /** Library/tests: how often a reloading config file is re-checked (ms; kube: one minute), KMS probe intervals. */
  encryptionTuning?: { resyncMs?: number; kmsHealthyIntervalMs?: number; kmsUnhealthyIntervalMs?: number };
  /** `--write-kubeconfig`; default `<data-dir>/admin.kubeconfig`; false = do not write one. */
  writeKubeconfig?: string | false;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  /** `--client-ca-file`: further CAs whose client certificates authenticate users (ours is always trusted). */
  clientCaFile?: string;
  /** `--token-auth-file`: static bearer tokens (CSV). */
  tokenAuthFile?: string;
  /** `--anonymous-auth`, default true; turned off when AlwaysAllow is among the modes, as kube-apiserver does. */
  anonymousAuth?: boolean;
  /** `--anonymous-auth` was given explicitly (it may not be combined with the configuration file's `anonymous`). */
  anonymousAuthFlagSet?: boolean;
  /**
   * `--authorization-mode`, in order. Default `Node,RBAC` (the admin kubeconfig's user is in system:masters, which
   * bypasses both); empty when `authorizationConfigFile` is given.
   */
  authorizationMode?: string[];
  /** `--runtime-config` (`api/all=true`, `batch/v2alpha1=true`, ...). */
  runtimeConfig?: Record<string, string>;
  /** `--feature-gates`. */
  featureGates?: Record<string, boolean>;
  /** `--livez-grace-period` in ms (default 0). */
  livezGracePeriodMs?: number;
  /** `--shutdown-delay-duration` in ms (default 0): /readyz fails this long before listeners close. */
  shutdownDelayMs?: number;
  /** `--max-requests-inflight` (default 400; 0 = unlimited). */
  maxRequestsInflight?: number;
  /** `--max-mutating-requests-inflight` (default 200; 0 = unlimited). */
  maxMutatingRequestsInflight?: number;
  /** `--request-timeout` in ms (default 60s) for requests that are not long-running. */
  requestTimeoutMs?: number;
  /** `--enable-priority-and-fairness` (default true): API Priority and Fairness instead of max-in-flight. */
  enablePriorityAndFairness?: boolean;
  /** `--min-request-timeout` in seconds (default 1800): the base for watch timeouts. */
  minRequestTimeoutSeconds?: number;
  /** `--tls-min-version` as Node names it (default TLSv1.2, as kube). */
  tlsMinVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  /** `--http2-max-streams-per-connection` (default 1000). */
  http2MaxStreamsPerConnection?: number;
  /** `--cert-dir`: where the generated certificates live (default: the data dir). */
  certDir?: string;
  /** `--watch-cache` (default true): serve reads and watches from per-resource caches. */
  watchCache?: boolean;
  /**
   * How long old revisions stay readable (store compaction and the watch cache's event window); default 5 minutes,
   * kube's watch-history window. Library and test use: a short value makes 410 Gone/Expired paths reachable.
   */
  historyRetentionMs?: number;
  /** `--enable-garbage-collector` (default true). */
  garbageCollector?: boolean;
  /**
   * `--allow-privileged` (kube-apiserver's default false): containers may set `securityContext.privileged`.
   * kind and kubeadm clusters pass true.
   */
  allowPrivileged?: boolean;
  /** Run the in-process controllers (namespace lifecycle, service accounts, root CA). Default true. */
  controllers?: boolean;
  /** The quota controller's full recount interval (kube-controller-manager's --resource-quota-sync-period, 5 min). */
  resourceQuotaSyncPeriodMs?: number;
  /** `--leader-elect*`: the controllers run only on the replica holding the Lease (src/client/leader-election.ts). */
  leaderElection?: LeaderElectionOptions;
  /** Log sink for one-line messages; default stderr for the CLI, silent for the library. */
  log?: (line: string) => void;
  /**
   * The structured logger (klog text or JSON, `-v`): request lines (httplog, -v=3) and `PUT /debug/flags/v` use
   * it. Default: one that writes to `log` at verbosity 0.
   */
  logger?: Logger;
  /** `--show-hidden-metrics-for-version` (already checked by the CLI: only the previous minor). */
  showHiddenMetricsForVersion?: string;
  /** `--service-cluster-ip-range` (default 10.96.0.0/12, kubeadm's and kind's; the `kubernetes` Service gets its first address). */
  serviceClusterIPRange?: string;
  /** `--service-node-port-range` (default 30000-32767). */
  serviceNodePortRange?: string;
  /** `--enable-admission-plugins`, `--disable-admission-plugins`, `--admission-control-config-file`. */
  admission?: AdmissionOptions;
  /** `--audit-policy-file`, `--audit-log-*`, `--audit-webhook-*` (src/audit/options.ts); unset = no auditing. */
  audit?: AuditOptionsInput;
  /**
   * Library and test use: endpoints tried before the API's, behind the whole filter chain (e.g. one that throws,
   * to exercise panic recovery and the audit Panic stage).
   */
  extraEndpoints?: readonly Endpoint[];
  /** Every flag as parsed (names without dashes), for features that read their own flags later. */
  rawFlags?: ReadonlyMap<string, unknown>;
}

/** Internal periods of the per-replica loops (defaults are kube's); tests shorten them. */
export interface ReplicaTiming {
  identityLeaseDurationSeconds?: number;
  identityRenewIntervalMs?: number;
  identityGcPeriodMs?: number;
  endpointReconcileIntervalMs?: number;
  /** TTL of the master leases and of the replica records. */
  endpointLeaseTtlSeconds?: number;
}

export interface ResolvedOptions extends SecurityOptions {
  port: number;
  endpointReconcilerType: 'lease' | 'master-count' | 'none';
  apiserverCount: number;
  replicaTiming: ReplicaTiming;
  bindAddress: string;
  advertiseAddress: string;
  storeHealthTimeoutMs: number;
  dataDir: string | undefined;
  storage: StorageKind;
  etcdServers: string[];
  etcdPrefix: string;
  etcdCaFile?: string;
  etcdCertFile?: string;
  etcdKeyFile?: string;
  encryptionProviderConfig?: string;
  encryptionProviderConfigAutomaticReload: boolean;
  encryptionTuning?: { resyncMs?: number; kmsHealthyIntervalMs?: number; kmsUnhealthyIntervalMs?: number };
  kubeconfigPath: string | undefined;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  clientCaFile?: string;
  tokenAuthFile?: string;
  anonymousAuth: boolean;
  anonymousAuthFlagSet: boolean;
  authorizationMode: string[];
  runtimeConfig: Record<string, string>;
  featureGates: Record<string, boolean>;
  livezGracePeriodMs: number;
  shutdownDelayMs: number;
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  minRequestTimeoutSeconds: number;
  requestTimeoutMs: number;
  enablePriorityAndFairness: boolean;
  controllers: boolean;
  tlsMinVersion: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  http2MaxStreamsPerConnection: number;
  certDir: string | undefined;
  watchCache: boolean;
  historyRetentionMs: number;
  garbageCollector: boolean;
  allowPrivileged: boolean;
  resourceQuotaSyncPeriodMs: number;
  leaderElection: Required<LeaderElectionOptions>;
  serviceClusterIPRange: string;
  serviceNodePortRange: string;
  log: (line: string) => void;
  logger: Logger;
  showHiddenMetricsForVersion: string | undefined;
  admission: AdmissionOptions;
  audit: AuditOptionsInput | undefined;
  extraEndpoints: readonly Endpoint[];
}

/** kube-apiserver's own default is AlwaysAllow; clusters (kubeadm, kind, k3s) and Keelson run Node,RBAC. */
export const DEFAULT_AUTHORIZATION_MODES: readonly string[] = ['Node', 'RBAC'];

/** Fills defaults and checks combinations; throws OptionsError naming the offending option. */
export function resolveOptions(o: ServerOptions = {}): ResolvedOptions {
  const etcdServers = o.etcdServers ?? [];
  const storage: StorageKind = o.storage ?? (etcdServers.length ? 'etcd' : o.dataDir ? 'sqlite' : 'memory');
  if (storage === 'etcd' && !etcdServers.length) throw new OptionsError('--storage=etcd needs --etcd-servers');
  if (storage !== 'etcd' && etcdServers.length) throw new OptionsError(`--etcd-servers cannot be combined with --storage=${storage}`);
  if (storage === 'sqlite' && !o.dataDir) throw new OptionsError('--storage=sqlite needs --data-dir');
  const port = o.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new OptionsError(`--secure-port ${port} must be between 0 and 65535, inclusive`);
  if (Boolean(o.tlsCertFile) !== Boolean(o.tlsPrivateKeyFile)) {
    throw new OptionsError('--tls-cert-file and --tls-private-key-file must be given together');
  }
  const dataDir = o.dataDir ? path.resolve(o.dataDir) : undefined;
  let kubeconfigPath: string | undefined;
  if (o.writeKubeconfig === false) kubeconfigPath = undefined;
  else if (o.writeKubeconfig) kubeconfigPath = path.resolve(o.writeKubeconfig);
  else if (dataDir) kubeconfigPath = path.join(dataDir, 'admin.kubeconfig');
  if (o.authorizationConfigFile && o.authorizationMode?.length) {
    throw new OptionsError('--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined');
  }
  const authorizationMode = o.authorizationConfigFile ? [] : o.authorizationMode?.length ? o.authorizationMode : [...DEFAULT_AUTHORIZATION_MODES];
  // kube-apiserver: "AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false."
  let anonymousAuth = o.anonymousAuth ?? true;
  if (anonymousAuth && authorizationMode.includes('AlwaysAllow')) anonymousAuth = false;
  const nonNegative = (name: string, v: number | undefined, def: number): number => {
    const n = v ?? def;
    if (!Number.isFinite(n) || n < 0) throw new OptionsError(`${name} must be non-negative, got ${n}`);
    return n;
  };
  const bindAddress = o.bindAddress ?? '127.0.0.1';
  const enablePriorityAndFairness = o.enablePriorityAndFairness ?? true;
  const maxRequestsInflight = nonNegative('--max-requests-inflight', o.maxRequestsInflight, 400);
  const maxMutatingRequestsInflight = nonNegative('--max-mutating-requests-inflight', o.maxMutatingRequestsInflight, 200);
  if (enablePriorityAndFairness && maxRequestsInflight + maxMutatingRequestsInflight <= 0) {
    throw new OptionsError(`invalid configuration: MaxRequestsInFlight=${maxRequestsInflight} and MaxMutatingRequestsInFlight=${maxMutatingRequestsInflight}; they must add up to something positive`);
  }
  const endpointReconcilerType = o.endpointReconcilerType || 'lease';
  if (endpointReconcilerType !== 'lease' && endpointReconcilerType !== 'master-count' && endpointReconcilerType !== 'none') {
    throw new OptionsError(`Reconciler not implemented: ${endpointReconcilerType}`);
  }
  const apiserverCount = o.apiserverCount ?? 1;
  if (!Number.isInteger(apiserverCount) || apiserverCount <= 0) {
    throw new OptionsError(`--apiserver-count should be a positive number, but value '${apiserverCount}' provided`);
  }
  return {
    ...securityOptions(o),
    port,
    endpointReconcilerType,
    apiserverCount,
    replicaTiming: o.replicaTiming ?? {},
    bindAddress,
    advertiseAddress: o.advertiseAddress || (bindAddress === '0.0.0.0' || bindAddress === '' ? '127.0.0.1' : bindAddress === '::' ? '::1' : bindAddress),
    storeHealthTimeoutMs: nonNegative('--etcd-healthcheck-timeout', o.storeHealthTimeoutMs, 2000),
    dataDir,
    storage,
    etcdServers,
    etcdPrefix: o.etcdPrefix ?? '/registry',
    etcdCaFile: o.etcdCaFile,
    etcdCertFile: o.etcdCertFile,
    etcdKeyFile: o.etcdKeyFile,
    encryptionProviderConfig: o.encryptionProviderConfig || undefined,
    encryptionProviderConfigAutomaticReload: o.encryptionProviderConfigAutomaticReload ?? false,
    encryptionTuning: o.encryptionTuning,
    kubeconfigPath,
    tlsCertFile: o.tlsCertFile,
    tlsPrivateKeyFile: o.tlsPrivateKeyFile,
    clientCaFile: o.clientCaFile,
    tokenAuthFile: o.tokenAuthFile,
    anonymousAuth,
    anonymousAuthFlagSet: o.anonymousAuthFlagSet ?? false,
    authorizationMode,
    runtimeConfig: o.runtimeConfig ?? {},
    featureGates: o.featureGates ?? {},
    livezGracePeriodMs: nonNegative('--livez-grace-period', o.livezGracePeriodMs, 0),
    shutdownDelayMs: nonNegative('--shutdown-delay-duration', o.shutdownDelayMs, 0),
    maxRequestsInflight,
    maxMutatingRequestsInflight,
    enablePriorityAndFairness,
    minRequestTimeoutSeconds: nonNegative('--min-request-timeout', o.minRequestTimeoutSeconds, 1800),
    requestTimeoutMs: nonNegative('--request-timeout', o.requestTimeoutMs, 60_000),
    controllers: o.controllers ?? true,
    tlsMinVersion: o.tlsMinVersion ?? 'TLSv1.2',
    http2MaxStreamsPerConnection: o.http2MaxStreamsPerConnection ?? 1000,
    certDir: o.certDir ? path.resolve(o.certDir) : dataDir,
    watchCache: o.watchCache ?? true,
    historyRetentionMs: o.historyRetentionMs ?? 5 * 60_000,
    garbageCollector: o.garbageCollector ?? true,
    allowPrivileged: o.allowPrivileged ?? false,
    resourceQuotaSyncPeriodMs: o.resourceQuotaSyncPeriodMs ?? 5 * 60_000,
    leaderElection: resolveLeaderElection(o.leaderElection),
    serviceClusterIPRange: checked('--service-cluster-ip-range', o.serviceClusterIPRange || DEFAULT_SERVICE_CIDR, parseCidr),
    serviceNodePortRange: checked('--service-node-port-range', o.serviceNodePortRange || DEFAULT_NODE_PORT_RANGE, parsePortRange),
    log: o.log ?? (o.logger ? o.logger.sink('keelson') : () => {}),
    logger: o.logger ?? new Logger({ write: o.log ?? (() => {}) }),
    showHiddenMetricsForVersion: o.showHiddenMetricsForVersion || undefined,
    admission: o.admission ?? {},
    audit: o.audit,
    extraEndpoints: o.extraEndpoints ?? [],
  };
}

/** kube-controller-manager's --leader-elect* flags. */
export interface LeaderElectionOptions {
  /** Default true. */
  leaderElect?: boolean;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Default `kube-controller-manager`. */
  resourceName?: string;
  /** Default `kube-system`. */
  resourceNamespace?: string;
  /** Default `<hostname>_<uuid>`. */
  identity?: string;
}

function resolveLeaderElection(o: LeaderElectionOptions = {}): Required<LeaderElectionOptions> {
  const r = {
    leaderElect: o.leaderElect ?? true,
    leaseDurationMs: o.leaseDurationMs ?? DEFAULT_LEADER_ELECTION_TIMING.leaseDurationMs,
    renewDeadlineMs: o.renewDeadlineMs ?? DEFAULT_LEADER_ELECTION_TIMING.renewDeadlineMs,
    retryPeriodMs: o.retryPeriodMs ?? DEFAULT_LEADER_ELECTION_TIMING.retryPeriodMs,
    resourceName: o.resourceName || 'kube-controller-manager',
    resourceNamespace: o.resourceNamespace || 'kube-system',
    identity: o.identity || defaultLeaderIdentity(),
  };
  if (r.leaderElect) {
    const err = leaderElectionTimingError(r);
    if (err) throw new OptionsError(`--leader-elect-lease-duration/--leader-elect-renew-deadline/--leader-elect-retry-period: ${err}`);
  }
  return r;
}

/** The security inputs pass through as given; their own modules validate them when they build. */
function securityOptions(o: ServerOptions): SecurityOptions {
  const { enableBootstrapTokenAuth, serviceAccounts, apiAudiences, oidc, authenticationConfigFile, authenticationTokenWebhook,
    requestHeader, authorizationConfigFile, authorizationPolicyFile, authorizationWebhook } = o;
  return { enableBootstrapTokenAuth, serviceAccounts, apiAudiences, oidc, authenticationConfigFile, authenticationTokenWebhook,
    requestHeader, authorizationConfigFile, authorizationPolicyFile, authorizationWebhook };
}

/** A range flag that parses, or an OptionsError naming the flag. */
function checked(flag: string, value: string, parse: (v: string) => { text: string }): string {
  try {
    return parse(value).text;
  } catch (e) {
    throw new OptionsError(`invalid ${flag} ${JSON.stringify(value)}: ${(e as Error).message}`);
  }
}
