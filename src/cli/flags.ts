/**
 * kube-apiserver's flags (same names, types and defaults) plus our own (`--data-dir`, `--write-kubeconfig`,
 * `--storage`), and their mapping onto ServerOptions. Flags are accepted and stored even where the feature
 * comes later; a value that would need a missing feature is refused by name (DESIGN §8.7) instead of being
 * silently ignored.
 */
import { formatUsage, parseFlags, type FlagDef, type FlagValue, FlagError } from './pflag.ts';
import { formatDuration } from '../machinery/duration.ts';
import type { SecurityOptions, ServerOptions, StorageKind } from '../controlplane/options.ts';
import type { AuditOptionsInput } from '../audit/options.ts';
import { knownAuthorizationModes } from '../authz/modes.ts';
import '../authz/register-all.ts';
import { AUTHORIZATION_CONFIG_EXCLUSIVE } from '../authz/config/index.ts';
import { KUBE_VERSION } from '../endpoints/version.ts';
import { FeatureGates } from '../features/gates.ts';
import { ORDERED_PLUGINS } from '../admission/plugin-catalog.ts';
import { LOG_FORMATS, type LogFormat } from '../machinery/logging.ts';

const s = (name: string, usage: string, def?: string): FlagDef => ({ name, kind: 'string', usage, default: def ?? '' });
const b = (name: string, usage: string, def = false): FlagDef => ({ name, kind: 'bool', usage, default: def });
const i = (name: string, usage: string, def = 0): FlagDef => ({ name, kind: 'int', usage, default: def });
const d = (name: string, usage: string, defMs = 0): FlagDef => ({ name, kind: 'duration', usage, default: defMs });
const l = (name: string, usage: string, def: string[] = []): FlagDef => ({ name, kind: 'stringSlice', usage, default: def });
const a = (name: string, usage: string): FlagDef => ({ name, kind: 'stringArray', usage, default: [] });

export const FLAG_DEFS: readonly FlagDef[] = [
  // Our own
  s('data-dir', 'Directory for the embedded store, certificates and the admin kubeconfig.', './keelson-data'),
  s('write-kubeconfig', 'Where to write the admin kubeconfig (default <data-dir>/admin.kubeconfig).'),
  s('storage', 'Storage backend: sqlite (embedded, default), etcd (implied by --etcd-servers) or memory.'),
  // Secure serving
  i('secure-port', 'The port on which to serve HTTPS with authentication and authorization.', 6443),
  s('bind-address', 'The IP address on which to listen for the --secure-port port.', '127.0.0.1'),
  s('advertise-address', 'The IP address on which to advertise the apiserver to members of the cluster.'),
  s('cert-dir', 'The directory where the TLS certs are located. Ignored if --tls-cert-file and --tls-private-key-file are provided.'),
  s('tls-cert-file', 'File containing the default x509 Certificate for HTTPS.'),
  s('tls-private-key-file', 'File containing the default x509 private key matching --tls-cert-file.'),
  l('tls-cipher-suites', 'Comma-separated list of cipher suites for the server.'),
  s('tls-min-version', 'Minimum TLS version supported.'),
  a('tls-sni-cert-key', 'A pair of x509 certificate and private key file paths for SNI.'),
  i('http2-max-streams-per-connection', 'The limit that the server gives to clients for the maximum number of streams in an HTTP/2 connection.'),
  l('external-hostname', 'The hostname to use when generating externalized URLs for this master.'),
  // Etcd
  l('etcd-servers', 'List of etcd servers to connect with (scheme://ip:port), comma separated.'),
  s('etcd-prefix', 'The prefix to prepend to all resource paths in etcd.', '/registry'),
  s('etcd-cafile', 'SSL Certificate Authority file used to secure etcd communication.'),
  s('etcd-certfile', 'SSL certification file used to secure etcd communication.'),
  s('etcd-keyfile', 'SSL key file used to secure etcd communication.'),
  d('etcd-compaction-interval', 'The interval of compaction requests.', 300_000),
  i('etcd-count-metric-poll-period', 'Frequency of polling etcd for number of resources per type.'),
  d('etcd-healthcheck-timeout', 'The timeout to use when checking etcd health.', 2_000),
  d('etcd-readycheck-timeout', 'The timeout to use when checking etcd readiness.', 2_000),
  a('etcd-servers-overrides', 'Per-resource etcd servers overrides.'),
  s('storage-backend', 'The storage backend for persistence. Options: \'etcd3\' (default).'),
  s('storage-media-type', 'The media type to use to store objects in storage.', 'application/vnd.kubernetes.protobuf'),
  b('watch-cache', 'Enable watch caching in the apiserver', true),
  a('watch-cache-sizes', 'Watch cache size settings for some resources.'),
  s('encryption-provider-config', 'The file containing configuration for encryption providers to be used for storing secrets in etcd.'),
  b('encryption-provider-config-automatic-reload', 'Determines if the file set by --encryption-provider-config should be automatically reloaded.'),
  // Generic
  { name: 'runtime-config', kind: 'map', usage: 'A set of key=value pairs that enable or disable built-in APIs.', default: {} },
  { name: 'feature-gates', kind: 'boolMap', usage: `A set of key=value pairs that describe feature gates for alpha/experimental features. Options are:\n${FeatureGates.knownFeatures().join('\n')}`, default: {} },
  s('show-hidden-metrics-for-version', "The previous version for which you want to show hidden metrics. Only the previous minor version is meaningful, other values will not be allowed. The format is <major>.<minor>, e.g.: '1.16'."),
  i('max-requests-inflight', 'The maximum number of non-mutating requests in flight at a given time.', 400),
  i('max-mutating-requests-inflight', 'The maximum number of mutating requests in flight at a given time.', 200),
  i('min-request-timeout', 'An optional field indicating the minimum number of seconds a handler must keep a request open before timing it out.', 1800),
  d('request-timeout', 'An optional field indicating the duration a handler must keep a request open before timing it out.', 60_000),
  d('livez-grace-period', 'This option represents the maximum amount of time it should take for apiserver to complete its startup sequence and become live.'),
  d('shutdown-delay-duration', 'Time to delay the termination. During that time the server keeps serving requests normally.'),
  b('shutdown-send-retry-after', 'If true the HTTP Server will continue listening until all non long running request(s) in flight have been drained.'),
  i('shutdown-watch-termination-grace-period', 'This option, if set, represents the maximum amount of grace period the apiserver will wait for active watch request(s) to drain.'),
  b('enable-priority-and-fairness', 'If true, replace the max-in-flight handler with an enhanced one that queues and dispatches with priority and fairness', true),
  b('enable-garbage-collector', 'Enables the generic garbage collector.', true),
  i('goaway-chance', 'To prevent HTTP/2 clients from getting stuck on a single apiserver, randomly close a connection (GOAWAY).'),
  l('cors-allowed-origins', 'List of allowed origins for CORS, comma separated.'),
  b('profiling', 'Enable profiling via web interface host:port/debug/pprof/', true),
  b('contention-profiling', 'Enable block profiling, if profiling is enabled'),
  b('enable-logs-handler', 'If true, install a /logs handler for the apiserver logs.', true),
  b('allow-privileged', 'If true, allow privileged containers.'),
  s('service-cluster-ip-range', 'A CIDR notation IP range from which to assign service cluster IPs.'),
  s('service-node-port-range', 'A port range to reserve for services with NodePort visibility.', '30000-32767'),
  i('apiserver-count', 'The number of apiservers running in the cluster, must be a positive number. (In use when --endpoint-reconciler-type=master-count is enabled.)', 1),
  s('endpoint-reconciler-type', 'Use an endpoint reconciler (master-count, lease, none).', 'lease'),
  d('event-ttl', 'Amount of time to retain events.', 3_600_000),
  s('emulated-version', 'The versions different components emulate their capabilities (APIs, features, ...) of.'),
  // Leader election of the in-process controllers (kube-controller-manager's flags and defaults)
  b('leader-elect', 'Run the in-process controllers only while this server holds the leader election lease; enable when several servers share one store.', true),
  d('leader-elect-lease-duration', 'How long other candidates wait, after seeing the lease renewed, before they may take it: the longest a stopped leader can keep it.', 15_000),
  d('leader-elect-renew-deadline', 'How long the leader keeps trying to renew the lease before it stops its controllers. Must be less than the lease duration.', 10_000),
  d('leader-elect-retry-period', 'The pause between attempts to acquire or renew the lease.', 2_000),
  s('leader-elect-resource-lock', "The kind of object used as the lock. Only 'leases' is supported.", 'leases'),
  s('leader-elect-resource-name', 'The name of the Lease used as the lock.', 'kube-controller-manager'),
  s('leader-elect-resource-namespace', 'The namespace of the Lease used as the lock.', 'kube-system'),
  // Authentication
  b('anonymous-auth', 'Enables anonymous requests to the secure port of the API server.', true),
  s('client-ca-file', 'If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate.'),
  s('token-auth-file', 'If set, the file that will be used to secure the secure port of the API server via token authentication.'),
  b('enable-bootstrap-token-auth', 'Enable to allow secrets of type \'bootstrap.kubernetes.io/token\' in the \'kube-system\' namespace to be used for TLS bootstrapping authentication.'),
  s('authentication-config', 'File with Authentication Configuration to configure the JWT Token authenticator or the anonymous authenticator.'),
  a('api-audiences', 'Identifiers of the API.'),
  a('service-account-key-file', 'File containing PEM-encoded x509 RSA or ECDSA private or public keys, used to verify ServiceAccount tokens.'),
  s('service-account-signing-key-file', 'Path to the file that contains the current private key of the service account token issuer.'),
  a('service-account-issuer', 'Identifier of the service account token issuer.'),
  b('service-account-lookup', 'If true, validate ServiceAccount tokens exist in etcd as part of authentication.', true),
  d('service-account-max-token-expiration', 'The maximum validity duration of a token created by the service account token issuer.'),
  b('service-account-extend-token-expiration', 'Turns on projected service account expiration extension during token generation.', true),
  s('service-account-jwks-uri', 'Overrides the URI for the JSON Web Key Set in the discovery doc served at /.well-known/openid-configuration.'),
  s('oidc-issuer-url', 'The URL of the OpenID issuer, only HTTPS scheme will be accepted.'),
  s('oidc-client-id', 'The client ID for the OpenID Connect client, must be set if oidc-issuer-url is set.'),
  s('oidc-ca-file', 'If set, the OpenID server\'s certificate will be verified by one of the authorities in the oidc-ca-file.'),
  s('oidc-username-claim', 'The OpenID claim to use as the user name.', 'sub'),
  s('oidc-username-prefix', 'If provided, all usernames will be prefixed with this value.'),
  s('oidc-groups-claim', 'If provided, the name of a custom OpenID Connect claim for specifying user groups.'),
  s('oidc-groups-prefix', 'If provided, all groups will be prefixed with this value.'),
  { name: 'oidc-required-claim', kind: 'map', usage: 'A key=value pair that describes a required claim in the ID Token.', default: {} },
  l('oidc-signing-algs', 'Comma-separated list of allowed JOSE asymmetric signing algorithms.', ['RS256']),
  l('requestheader-username-headers', 'List of request headers to inspect for usernames.'),
  l('requestheader-group-headers', 'List of request headers to inspect for groups.'),
  l('requestheader-extra-headers-prefix', 'List of request header prefixes to inspect.'),
  l('requestheader-uid-headers', 'List of request headers to inspect for UIDs.'),
  s('requestheader-client-ca-file', 'Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers.'),
  l('requestheader-allowed-names', 'List of client certificate common names to allow to provide usernames in headers.'),
  s('authentication-token-webhook-config-file', 'File with webhook configuration for token authentication in kubeconfig format.'),
  d('authentication-token-webhook-cache-ttl', 'The duration to cache responses from the webhook token authenticator.', 120_000),
  s('authentication-token-webhook-version', 'The API version of the authentication.k8s.io TokenReview to send to and expect from the webhook.', 'v1beta1'),
  // Authorization
  l('authorization-mode', 'Ordered list of plug-ins to do authorization on secure port.', ['Node', 'RBAC']),
  s('authorization-config', 'File with Authorization Configuration to configure the authorizer chain.'),
  s('authorization-policy-file', 'File with authorization policy in json line by line format, used with --authorization-mode=ABAC.'),
  s('authorization-webhook-config-file', 'File with webhook configuration in kubeconfig format, used with --authorization-mode=Webhook.'),
  d('authorization-webhook-cache-authorized-ttl', 'The duration to cache \'authorized\' responses from the webhook authorizer.', 300_000),
  d('authorization-webhook-cache-unauthorized-ttl', 'The duration to cache \'unauthorized\' responses from the webhook authorizer.', 30_000),
  s('authorization-webhook-version', 'The API version of the authorization.k8s.io SubjectAccessReview to send to and expect from the webhook.', 'v1beta1'),
  // Admission
  l('admission-control', 'Deprecated: use --enable-admission-plugins or --disable-admission-plugins instead. Exactly these admission plugins run.'),
  l('enable-admission-plugins', 'admission plugins that should be enabled in addition to default enabled ones.'),
  l('disable-admission-plugins', 'admission plugins that should be disabled although they are in the default enabled plugins list.'),
  s('admission-control-config-file', 'File with admission control configuration.'),
  i('default-not-ready-toleration-seconds', 'Indicates the tolerationSeconds of the toleration for notReady:NoExecute that is added by default to every pod that does not already have such a toleration.', 300),
  i('default-unreachable-toleration-seconds', 'Indicates the tolerationSeconds of the toleration for unreachable:NoExecute that is added by default to every pod that does not already have such a toleration.', 300),
  // Audit (kube's AuditOptions; src/audit/options.ts)
  s('audit-policy-file', 'Path to the file that defines the audit policy configuration.'),
  s('audit-log-path', 'If set, all requests coming to the apiserver will be logged to this file.  \'-\' means standard out.'),
  i('audit-log-maxage', 'The maximum number of days to retain old audit log files based on the timestamp encoded in their filename.'),
  i('audit-log-maxbackup', 'The maximum number of old audit log files to retain. Setting a value of 0 will mean there\'s no restriction on the number of files.'),
  i('audit-log-maxsize', 'The maximum size in megabytes of the audit log file before it gets rotated.'),
  s('audit-log-format', 'Format of saved audits. "legacy" indicates 1-line text format for each event. "json" indicates structured json format. Known formats are legacy,json.', 'json'),
  s('audit-log-version', 'API group and version used for serializing audit events written to log.', 'audit.k8s.io/v1'),
  b('audit-log-compress', 'If set, the rotated log files will be compressed using gzip.'),
  s('audit-log-mode', 'Strategy for sending audit events. Blocking indicates sending events should block server responses. Batch causes the backend to buffer and write events asynchronously. Known modes are batch,blocking,blocking-strict.', 'blocking'),
  i('audit-log-batch-buffer-size', 'The size of the buffer to store events before batching and writing. Only used in batch mode.', 10000),
  i('audit-log-batch-max-size', 'The maximum size of a batch. Only used in batch mode.', 1),
  d('audit-log-batch-max-wait', 'The amount of time to wait before force writing the batch that hadn\'t reached the max size. Only used in batch mode.', 0),
  b('audit-log-batch-throttle-enable', 'Whether batching throttling is enabled. Only used in batch mode.', false),
  { name: 'audit-log-batch-throttle-qps', kind: 'float', usage: 'Maximum average number of batches per second. Only used in batch mode.', default: 0 },
  i('audit-log-batch-throttle-burst', 'Maximum number of requests sent at the same moment if ThrottleQPS was not utilized before. Only used in batch mode.', 0),
  b('audit-log-truncate-enabled', 'Whether event and batch truncating is enabled.'),
  i('audit-log-truncate-max-batch-size', 'Maximum size of the batch sent to the underlying backend. Actual serialized size can be several hundreds of bytes greater. If a batch exceeds this limit, it is split into several batches of smaller size.', 10485760),
  i('audit-log-truncate-max-event-size', 'Maximum size of the audit event sent to the underlying backend. If the size of an event is greater than this number, first request and response are removed, and if this doesn\'t reduce the size enough, event is discarded.', 102400),
  s('audit-webhook-config-file', 'Path to a kubeconfig formatted file that defines the audit webhook configuration.'),
  d('audit-webhook-initial-backoff', 'The amount of time to wait before retrying the first failed request.', 10_000),
  { name: 'audit-webhook-batch-initial-backoff', kind: 'duration', usage: 'The amount of time to wait before retrying the first failed request.', default: 10_000, deprecated: 'Deprecated, use --audit-webhook-initial-backoff instead.' },
  s('audit-webhook-version', 'API group and version used for serializing audit events written to webhook.', 'audit.k8s.io/v1'),
  s('audit-webhook-mode', 'Strategy for sending audit events. Blocking indicates sending events should block server responses. Batch causes the backend to buffer and write events asynchronously. Known modes are batch,blocking,blocking-strict.', 'batch'),
  i('audit-webhook-batch-buffer-size', 'The size of the buffer to store events before batching and writing. Only used in batch mode.', 10000),
  i('audit-webhook-batch-max-size', 'The maximum size of a batch. Only used in batch mode.', 400),
  d('audit-webhook-batch-max-wait', 'The amount of time to wait before force writing the batch that hadn\'t reached the max size. Only used in batch mode.', 30000),
  b('audit-webhook-batch-throttle-enable', 'Whether batching throttling is enabled. Only used in batch mode.', true),
  { name: 'audit-webhook-batch-throttle-qps', kind: 'float', usage: 'Maximum average number of batches per second. Only used in batch mode.', default: 10 },
  i('audit-webhook-batch-throttle-burst', 'Maximum number of requests sent at the same moment if ThrottleQPS was not utilized before. Only used in batch mode.', 15),
  b('audit-webhook-truncate-enabled', 'Whether event and batch truncating is enabled.'),
  i('audit-webhook-truncate-max-batch-size', 'Maximum size of the batch sent to the underlying backend. Actual serialized size can be several hundreds of bytes greater. If a batch exceeds this limit, it is split into several batches of smaller size.', 10485760),
  i('audit-webhook-truncate-max-event-size', 'Maximum size of the audit event sent to the underlying backend. If the size of an event is greater than this number, first request and response are removed, and if this doesn\'t reduce the size enough, event is discarded.', 102400),
  // Misc
  s('egress-selector-config-file', 'File with apiserver egress selector configuration.'),
  s('tracing-config-file', 'File with apiserver tracing configuration.'),
  s('proxy-client-cert-file', 'Client certificate used to prove the identity of the aggregator or kube-apiserver when it must call out during a request.'),
  s('proxy-client-key-file', 'Private key for the client certificate used to prove the identity of the aggregator.'),
  s('kubelet-client-certificate', 'Path to a client cert file for TLS.'),
  s('kubelet-client-key', 'Path to a client key file for TLS.'),
  s('kubelet-certificate-authority', 'Path to a cert file for the certificate authority.'),
  l('kubelet-preferred-address-types', 'List of the preferred NodeAddressTypes to use for kubelet connections.'),
  { name: 'v', kind: 'int', usage: 'number for the log level verbosity', default: 0, shorthand: 'v' },
  s('logging-format', 'Sets the log format.', 'text'),
  b('version', 'Print version information and quit'),
];

/** Flags whose non-empty value needs a feature that is not built yet: refused by name. */
const NOT_YET: Record<string, string> = {
  'egress-selector-config-file': 'egress selection',
  'tracing-config-file': 'tracing',
  'tls-sni-cert-key': 'SNI serving certificates',
  'tls-cipher-suites': 'choosing TLS cipher suites',
  'cors-allowed-origins': 'CORS',
  'etcd-servers-overrides': 'per-resource etcd servers',
};

export interface CliConfig {
  readonly help: boolean;
  readonly version: boolean;
  readonly options: ServerOptions;
  /** Lines to log at start (e.g. options kube-apiserver would reset). */
  readonly notices: string[];
  /** `-v` and `--logging-format`. */
  readonly logging: { readonly verbosity: number; readonly format: LogFormat };
}

function isSet(v: FlagValue | undefined): boolean {
  if (v === undefined || v === '' || v === false) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

/** argv → options. Throws FlagError for anything kube-apiserver would reject (the CLI exits 1). */
export function parseCommandLine(argv: readonly string[]): CliConfig {
  const p = parseFlags(FLAG_DEFS, argv);
  if (p.help) return { help: true, version: false, options: {}, notices: [], logging: { verbosity: 0, format: 'text' } };
  const extra = p.args.filter((x) => x.length > 0);
  if (extra.length) throw new FlagError(`"keelson" does not take any arguments, got ${JSON.stringify(extra).replace(/","/g, '" "')}`);
  const v = p.values;
  const str = (n: string): string => (v.get(n) as string | undefined) ?? '';
  const opt = (n: string): string | undefined => str(n) || undefined;
  const list = (n: string): string[] => (v.get(n) as string[] | undefined) ?? [];

  for (const [name, feature] of Object.entries(NOT_YET)) {
    if (p.changed.has(name) && isSet(v.get(name))) throw new FlagError(`--${name}: ${feature} is not implemented yet`);
  }
  const backend = str('storage-backend');
  if (backend && backend !== 'etcd3') throw new FlagError(`--storage-backend: unsupported storage backend ${JSON.stringify(backend)} (only etcd3)`);

  const storageFlag = str('storage');
  if (storageFlag && !['sqlite', 'etcd', 'memory'].includes(storageFlag)) {
    throw new FlagError(`invalid argument ${JSON.stringify(storageFlag)} for "--storage" flag: must be one of sqlite, etcd, memory`);
  }
  const etcdServers = list('etcd-servers').filter((x) => x !== '');
  const storage = (storageFlag || (etcdServers.length ? 'etcd' : 'sqlite')) as StorageKind;

  // kube-apiserver's authorization options: the configuration file excludes the mode flags, and each mode's
  // file comes with its mode.
  const authzConfig = str('authorization-config');
  const authzFlags = ['authorization-mode', 'authorization-webhook-config-file', 'authorization-webhook-version', 'authorization-webhook-cache-authorized-ttl', 'authorization-webhook-cache-unauthorized-ttl'];
  if (authzConfig && authzFlags.some((n) => p.changed.has(n))) throw new FlagError(AUTHORIZATION_CONFIG_EXCLUSIVE);
  const modes = authzConfig ? [] : list('authorization-mode');
  if (modes.includes('ABAC') && !str('authorization-policy-file')) throw new FlagError("authorization-mode ABAC's authorization policy file not passed");
  if (modes.includes('Webhook') && !str('authorization-webhook-config-file')) throw new FlagError("authorization-mode Webhook's authorization config file not passed");
  if (str('authorization-policy-file') && !modes.includes('ABAC')) throw new FlagError('cannot specify --authorization-policy-file without mode ABAC');
  if (str('authorization-webhook-config-file') && !modes.includes('Webhook')) throw new FlagError('cannot specify --authorization-webhook-config-file without mode Webhook');
  const known = knownAuthorizationModes();
  for (const m of modes) {
    if (!['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'].includes(m)) {
      throw new FlagError(`--authorization-mode: authorization-mode ${JSON.stringify(m)} is not a valid mode`);
    }
    if (!known.includes(m)) throw new FlagError(`--authorization-mode: ${m} authorization is not implemented yet`);
  }
  if (new Set(modes).size !== modes.length) throw new FlagError(`--authorization-mode: authorization-mode ${JSON.stringify(modes.join(','))} has mode specified more than once`);

  // kube-apiserver's AdmissionOptions: the deprecated --admission-control names exactly the plugins that run.
  const admissionControl = list('admission-control').filter((x) => x !== '');
  const enableAdmission = list('enable-admission-plugins').filter((x) => x !== '');
  const disableAdmission = list('disable-admission-plugins').filter((x) => x !== '');
  if (p.changed.has('admission-control') && (p.changed.has('enable-admission-plugins') || p.changed.has('disable-admission-plugins'))) {
    throw new FlagError('admission-control and enable-admission-plugins/disable-admission-plugins flags are mutually exclusive');
  }
  for (const n of admissionControl) {
    if (!ORDERED_PLUGINS.includes(n)) throw new FlagError(`admission-control plugin ${JSON.stringify(n)} is unknown`);
  }
  const tolerationSeconds = {
    defaultNotReadyTolerationSeconds: p.values.get('default-not-ready-toleration-seconds') as number,
    defaultUnreachableTolerationSeconds: p.values.get('default-unreachable-toleration-seconds') as number,
  };
  const admission = p.changed.has('admission-control')
    ? { enablePlugins: admissionControl, disablePlugins: ORDERED_PLUGINS.filter((n) => !admissionControl.includes(n)), configFile: opt('admission-control-config-file'), ...tolerationSeconds }
    : { enablePlugins: enableAdmission, disablePlugins: disableAdmission, configFile: opt('admission-control-config-file'), ...tolerationSeconds };

  const tlsMin = str('tls-min-version');
  const TLS_VERSIONS: Record<string, 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'> = { VersionTLS10: 'TLSv1', VersionTLS11: 'TLSv1.1', VersionTLS12: 'TLSv1.2', VersionTLS13: 'TLSv1.3' };
  if (tlsMin && !TLS_VERSIONS[tlsMin]) throw new FlagError(`--tls-min-version: unknown tls version ${JSON.stringify(tlsMin)}; possible values: ${Object.keys(TLS_VERSIONS).join(', ')}`);

  // component-base's metrics options: only the previous minor version may be named (none of ours is hidden yet).
  const hiddenFor = str('show-hidden-metrics-for-version');
  const previousMinor = `${KUBE_VERSION.major}.${Number(KUBE_VERSION.minor) - 1}`;
  if (hiddenFor && hiddenFor !== previousMinor) {
    throw new FlagError(`--show-hidden-metrics-for-version must be omitted or have the value '${previousMinor}'. Only the previous minor version is allowed`);
  }

  // component-base's logging options: only registered formats; a verbosity is a non-negative level.
  const loggingFormat = str('logging-format') || 'text';
  if (!(LOG_FORMATS as readonly string[]).includes(loggingFormat)) throw new FlagError(`logging-format: Invalid value: ${JSON.stringify(loggingFormat)}: Unsupported log format`);
  const verbosity = v.get('v') as number;
  if (verbosity < 0) throw new FlagError(`invalid argument "${verbosity}" for "-v, --v" flag: strconv.ParseUint: parsing "${verbosity}": invalid syntax`);

  const lockType = str('leader-elect-resource-lock');
  if (lockType !== 'leases') throw new FlagError(`--leader-elect-resource-lock: invalid lock-type ${JSON.stringify(lockType)} (only leases)`);
  const leaderElection = {
    leaderElect: v.get('leader-elect') as boolean,
    leaseDurationMs: v.get('leader-elect-lease-duration') as number,
    renewDeadlineMs: v.get('leader-elect-renew-deadline') as number,
    retryPeriodMs: v.get('leader-elect-retry-period') as number,
    resourceName: str('leader-elect-resource-name'),
    resourceNamespace: str('leader-elect-resource-namespace'),
  };

  const notices: string[] = [];
  if (p.changed.has('audit-webhook-batch-initial-backoff')) {
    notices.push('Flag --audit-webhook-batch-initial-backoff has been deprecated, Deprecated, use --audit-webhook-initial-backoff instead.');
  }
  const anonymousAuth = v.get('anonymous-auth') as boolean;
  if (anonymousAuth && modes.includes('AlwaysAllow')) {
    notices.push('AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer');
  }

  const options: ServerOptions = {
    port: v.get('secure-port') as number,
    bindAddress: str('bind-address') || '127.0.0.1',
    advertiseAddress: opt('advertise-address'),
    endpointReconcilerType: str('endpoint-reconciler-type') || 'lease',
    apiserverCount: v.get('apiserver-count') as number,
    storeHealthTimeoutMs: v.get('etcd-healthcheck-timeout') as number,
    dataDir: str('data-dir') || './keelson-data',
    storage,
    etcdServers,
    etcdPrefix: str('etcd-prefix') || '/registry',
    etcdCaFile: opt('etcd-cafile'),
    etcdCertFile: opt('etcd-certfile'),
    etcdKeyFile: opt('etcd-keyfile'),
    encryptionProviderConfig: opt('encryption-provider-config'),
    encryptionProviderConfigAutomaticReload: v.get('encryption-provider-config-automatic-reload') as boolean,
    writeKubeconfig: opt('write-kubeconfig'),
    tlsCertFile: opt('tls-cert-file'),
    tlsPrivateKeyFile: opt('tls-private-key-file'),
    clientCaFile: opt('client-ca-file'),
    tokenAuthFile: opt('token-auth-file'),
    anonymousAuth,
    anonymousAuthFlagSet: p.changed.has('anonymous-auth'),
    authorizationMode: modes,
    runtimeConfig: v.get('runtime-config') as Record<string, string>,
    featureGates: v.get('feature-gates') as Record<string, boolean>,
    livezGracePeriodMs: v.get('livez-grace-period') as number,
    shutdownDelayMs: v.get('shutdown-delay-duration') as number,
    maxRequestsInflight: v.get('max-requests-inflight') as number,
    maxMutatingRequestsInflight: v.get('max-mutating-requests-inflight') as number,
    minRequestTimeoutSeconds: v.get('min-request-timeout') as number,
    requestTimeoutMs: v.get('request-timeout') as number,
    enablePriorityAndFairness: v.get('enable-priority-and-fairness') as boolean,
    tlsMinVersion: tlsMin ? TLS_VERSIONS[tlsMin] : undefined,
    http2MaxStreamsPerConnection: (v.get('http2-max-streams-per-connection') as number) || undefined,
    certDir: opt('cert-dir'),
    watchCache: v.get('watch-cache') as boolean,
    garbageCollector: v.get('enable-garbage-collector') as boolean,
    allowPrivileged: v.get('allow-privileged') as boolean,
    serviceClusterIPRange: opt('service-cluster-ip-range'),
    serviceNodePortRange: opt('service-node-port-range'),
    admission,
    leaderElection,
    showHiddenMetricsForVersion: hiddenFor || undefined,
    audit: auditFlags(v, p.changed),
    ...securityFlags(v, p.changed),
    rawFlags: v,
  };
  return { help: false, version: v.get('version') === true, options, notices, logging: { verbosity, format: loggingFormat as LogFormat } };
}

/** `--audit-*` → AuditOptionsInput (kube's validation runs when the server starts: src/audit/options.ts). */
function auditFlags(v: ReadonlyMap<string, FlagValue>, changed: ReadonlySet<string>): AuditOptionsInput {
  const n = (name: string): number => v.get(name) as number;
  const str = (name: string): string => (v.get(name) as string | undefined) ?? '';
  const batch = (plugin: string) => ({
    mode: str(`audit-${plugin}-mode`), bufferSize: n(`audit-${plugin}-batch-buffer-size`), maxBatchSize: n(`audit-${plugin}-batch-max-size`),
    maxBatchWaitMs: n(`audit-${plugin}-batch-max-wait`), throttleEnable: v.get(`audit-${plugin}-batch-throttle-enable`) === true,
    throttleQPS: n(`audit-${plugin}-batch-throttle-qps`), throttleBurst: n(`audit-${plugin}-batch-throttle-burst`),
  });
  const truncate = (plugin: string) => ({
    enabled: v.get(`audit-${plugin}-truncate-enabled`) === true,
    maxBatchSize: n(`audit-${plugin}-truncate-max-batch-size`), maxEventSize: n(`audit-${plugin}-truncate-max-event-size`),
  });
  // The deprecated spelling writes the same setting; the newer flag wins when both are given.
  const backoff = changed.has('audit-webhook-initial-backoff') || !changed.has('audit-webhook-batch-initial-backoff')
    ? n('audit-webhook-initial-backoff') : n('audit-webhook-batch-initial-backoff');
  return {
    policyFile: str('audit-policy-file') || undefined,
    log: {
      path: str('audit-log-path') || undefined, maxAge: n('audit-log-maxage'), maxBackups: n('audit-log-maxbackup'), maxSize: n('audit-log-maxsize'),
      format: str('audit-log-format'), compress: v.get('audit-log-compress') === true, version: str('audit-log-version'),
      batch: batch('log'), truncate: truncate('log'),
    },
    webhook: {
      configFile: str('audit-webhook-config-file') || undefined, initialBackoffMs: backoff, version: str('audit-webhook-version'),
      batch: batch('webhook'), truncate: truncate('webhook'),
    },
  };
}

/** The authentication and authorization flags, grouped as SecurityOptions (unset groups stay undefined). */
const OIDC_FLAGS = ['oidc-issuer-url', 'oidc-client-id', 'oidc-ca-file', 'oidc-username-claim', 'oidc-username-prefix', 'oidc-groups-claim', 'oidc-groups-prefix', 'oidc-required-claim', 'oidc-signing-algs'];

function securityFlags(v: ReadonlyMap<string, FlagValue>, changed: ReadonlySet<string>): SecurityOptions {
  const str = (n: string): string => (v.get(n) as string | undefined) ?? '';
  const opt = (n: string): string | undefined => str(n) || undefined;
  const list = (n: string): string[] => ((v.get(n) as string[] | undefined) ?? []).filter((x) => x !== '');
  const ms = (n: string): number => v.get(n) as number;
  const saKeys = list('service-account-key-file');
  const saIssuers = list('service-account-issuer');
  const requestHeaderCa = opt('requestheader-client-ca-file');
  const tokenWebhook = opt('authentication-token-webhook-config-file');
  const authzWebhook = opt('authorization-webhook-config-file');
  const oidcIssuer = opt('oidc-issuer-url');
  return {
    enableBootstrapTokenAuth: v.get('enable-bootstrap-token-auth') === true,
    serviceAccounts: {
      keyFiles: saKeys.length ? saKeys : undefined,
      signingKeyFile: opt('service-account-signing-key-file'),
      issuers: saIssuers.length ? saIssuers : undefined,
      lookup: v.get('service-account-lookup') as boolean,
      maxTokenExpirationMs: ms('service-account-max-token-expiration'),
      extendTokenExpiration: v.get('service-account-extend-token-expiration') as boolean,
      jwksUri: opt('service-account-jwks-uri'),
    },
    apiAudiences: list('api-audiences').length ? list('api-audiences') : undefined,
    // Any --oidc-* flag makes the group present, so a client id without an issuer URL is refused by name.
    oidc: oidcIssuer || OIDC_FLAGS.some((n) => changed.has(n)) ? {
      issuerUrl: oidcIssuer ?? '',
      clientId: str('oidc-client-id'),
      caFile: opt('oidc-ca-file'),
      usernameClaim: str('oidc-username-claim'),
      usernamePrefix: opt('oidc-username-prefix'),
      groupsClaim: opt('oidc-groups-claim'),
      groupsPrefix: opt('oidc-groups-prefix'),
      requiredClaims: v.get('oidc-required-claim') as Record<string, string>,
      signingAlgs: list('oidc-signing-algs'),
    } : undefined,
    authenticationConfigFile: opt('authentication-config'),
    authenticationTokenWebhook: tokenWebhook ? {
      configFile: tokenWebhook, cacheTtlMs: ms('authentication-token-webhook-cache-ttl'), version: str('authentication-token-webhook-version'),
    } : undefined,
    requestHeader: requestHeaderCa || list('requestheader-username-headers').length ? {
      clientCaFile: requestHeaderCa ?? '',
      usernameHeaders: list('requestheader-username-headers'),
      groupHeaders: list('requestheader-group-headers'),
      extraHeaderPrefixes: list('requestheader-extra-headers-prefix'),
      uidHeaders: list('requestheader-uid-headers'),
      allowedNames: list('requestheader-allowed-names'),
    } : undefined,
    authorizationConfigFile: opt('authorization-config'),
    authorizationPolicyFile: opt('authorization-policy-file'),
    authorizationWebhook: authzWebhook ? {
      configFile: authzWebhook,
      authorizedTtlMs: ms('authorization-webhook-cache-authorized-ttl'),
      unauthorizedTtlMs: ms('authorization-webhook-cache-unauthorized-ttl'),
      version: str('authorization-webhook-version'),
    } : undefined,
  };
}

function formatDefault(def: FlagDef): string | undefined {
  const v = def.default;
  if (v === undefined || v === '' || v === false) return undefined;
  if (def.kind === 'duration') return (v as number) === 0 ? undefined : formatDuration(v as number);
  if (def.kind === 'int' || def.kind === 'float') return (v as number) === 0 ? undefined : String(v);
  if (Array.isArray(v)) return v.length ? `[${v.join(',')}]` : undefined;
  if (typeof v === 'object') return undefined;
  return String(v);
}

export function usage(): string {
  return [
    'Keelson: a Kubernetes-compatible API server.',
    '',
    'Usage:',
    '  keelson [flags]',
    '',
    'Flags:',
    formatUsage(FLAG_DEFS, formatDefault),
    '  -h, --help   help for keelson',
    '',
  ].join('\n');
}
