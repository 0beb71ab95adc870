/**
 * The HTTP side of the server, independent of storage and the API catalog: certificates in, authenticator and
 * authorizer built from options, health/version/metrics endpoints ahead of the given API endpoints, the chain,
 * the listener, and graceful shutdown. start.ts feeds it the real store/registry endpoints; tests feed fakes.
 *
 * Shutdown order (kube-apiserver's): /readyz starts failing → wait `--shutdown-delay-duration` while still
 * serving → stop accepting and end long-running requests → wait for in-flight requests → return.
 */
import type { Endpoint } from '../request/context.ts';
import type { ResolvedOptions } from './options.ts';
import type { Pki } from './pki.ts';
import { buildChain } from '../server/chain.ts';
import { listen, type Listener } from '../server/listener.ts';
import { MAX_REQUEST_BODY_BYTES } from '../server/body.ts';
import { serverUrl } from './kubeconfig.ts';
import { buildAuthenticator } from '../authn/index.ts';
import { requestHeaderCaPems } from '../authn/request-header.ts';
import type { Authenticator, TokenAuthenticator } from '../request/authenticator.ts';
import { buildAuthorizer, type AuthorizerDeps } from '../authz/modes.ts';
import type { Authorizer } from '../request/authorizer.ts';
import { createHealthEndpoint } from '../endpoints/health/index.ts';
import { PostStartHooks, standardChecks, type HealthCheck } from '../endpoints/health/checks.ts';
import { createVersionEndpoint } from '../endpoints/version.ts';
import { Metrics, createMetricsEndpoint } from '../endpoints/metrics.ts';
import { createDebugFlagsEndpoint } from '../endpoints/debug-flags.ts';
import type { Auditing } from '../audit/auditing.ts';
import type { FlowController, FlowControlStats } from '../flowcontrol/controller.ts';

export interface ApiServerConfig {
  readonly options: ResolvedOptions;
  readonly pki: Pki;
  /** API endpoints after health, version and metrics (discovery, openapi, resources), in order. */
  readonly endpoints: readonly Endpoint[];
  /** The `etcd` health check: resolves when the store answers. */
  readonly pingStore: () => Promise<void>;
  /** Further health checks on /healthz, /livez and /readyz (e.g. `kms-providers`). */
  readonly extraChecks?: readonly HealthCheck[];
  readonly informersSynced?: () => boolean;
  /** Post-start hooks; all are marked done by `markStarted()` unless the caller marks them itself. */
  readonly hooks?: PostStartHooks;
  readonly tokenAuthenticators?: readonly TokenAuthenticator[];
  readonly authorizerDeps?: AuthorizerDeps;
  /** Built by the caller (start.ts: src/authn/setup.ts); otherwise from the options' basics. */
  readonly authenticator?: Authenticator;
  /** Built by the caller (start.ts: src/authz/setup.ts); otherwise from `authorizationMode`. */
  readonly authorizer?: Authorizer;
  /** Shared with the store and admission (start.ts); otherwise made here. */
  readonly metrics?: Metrics;
  /** Built by the caller from the audit options (src/audit/options.ts); absent = no auditing. */
  readonly auditing?: Auditing;
  /** API Priority and Fairness (start.ts builds it unless `--enable-priority-and-fairness=false`); else max-in-flight. */
  readonly flowControl?: FlowController;
}

export interface ApiServer {
  readonly url: string;
  /** The chain's authenticator and authorizer, shared with TokenReview and the access reviews. */
  readonly authenticator: Authenticator;
  readonly authorizer: Authorizer;
  readonly port: number;
  readonly listener: Listener;
  readonly metrics: Metrics;
  /** Read-only priority-and-fairness figures (apiserver_flowcontrol_*); undefined with max-in-flight. */
  readonly flowControl?: FlowControlStats;
  readonly hooks: PostStartHooks;
  /** Marks every post-start hook finished (the server reports ready). */
  markStarted(): void;
  isShuttingDown(): boolean;
  /** Readiness fails, then after the shutdown delay the listener closes gracefully. Idempotent. */
  shutdown(): Promise<void>;
}

export async function createApiServer(c: ApiServerConfig): Promise<ApiServer> {
  const o = c.options;
  const hooks = c.hooks ?? new PostStartHooks();
  let shuttingDown = false;
  const metrics = c.metrics ?? new Metrics({ showHiddenForVersion: o.showHiddenMetricsForVersion });
  const startedAt = Date.now();
  const checks = standardChecks({
    hooks, pingStore: c.pingStore, informersSynced: c.informersSynced, isShuttingDown: () => shuttingDown, storeTimeoutMs: o.storeHealthTimeoutMs,
    extraChecks: c.extraChecks,
  });
  const authenticator = c.authenticator ?? await buildAuthenticator({
    clientCaPems: c.pki.clientCaPems, tokenAuthFile: o.tokenAuthFile, anonymous: o.anonymousAuth, tokens: c.tokenAuthenticators,
  });
  const authorizer = c.authorizer ?? await buildAuthorizer(o.authorizationMode, c.authorizerDeps);
  const handler = buildChain({
    authenticator,
    authorizer,
    metrics,
    endpoints: [
      createHealthEndpoint({ ...checks, livezGracePeriodMs: o.livezGracePeriodMs, startedAt, log: o.log }),
      createVersionEndpoint(),
      createMetricsEndpoint(metrics),
      createDebugFlagsEndpoint(o.logger),
      ...c.endpoints,
    ],
    maxReadOnlyInFlight: o.maxRequestsInflight,
    maxMutatingInFlight: o.maxMutatingRequestsInflight,
    maxBodyBytes: MAX_REQUEST_BODY_BYTES,
    requestTimeoutMs: o.requestTimeoutMs,
    log: o.log,
    logger: o.logger,
    ...(c.auditing ? { auditing: c.auditing } : {}),
    ...(c.flowControl ? { flowControl: c.flowControl } : {}),
  });
  const listener = await listen({
    host: o.bindAddress, port: o.port, certPem: c.pki.servingCertPem, keyPem: c.pki.servingKeyPem,
    // The TLS layer also asks for proxy certificates signed by the request-header CA (never trusted as users).
    clientCaPems: [...c.pki.clientCaPems, ...await requestHeaderCaPems(o)], handler, log: o.log, minTlsVersion: o.tlsMinVersion, maxStreamsPerConnection: o.http2MaxStreamsPerConnection,
  });
  let shutdownPromise: Promise<void> | undefined;
  return {
    url: serverUrl(o.bindAddress, listener.port),
    authenticator,
    authorizer,
    port: listener.port,
    listener,
    metrics,
    ...(c.flowControl ? { flowControl: c.flowControl } : {}),
    hooks,
    markStarted: () => hooks.markAllDone(),
    isShuttingDown: () => shuttingDown,
    shutdown(): Promise<void> {
      shutdownPromise ??= (async () => {
        shuttingDown = true;
        if (o.shutdownDelayMs > 0) await new Promise((r) => setTimeout(r, o.shutdownDelayMs));
        await listener.close({ graceMs: Math.max(5000, o.shutdownDelayMs) });
      })();
      return shutdownPromise;
    },
  };
}
