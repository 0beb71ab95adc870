/**
 * The filter chain, one ordered list read top to bottom (outermost first). Each filter is `withX(next, deps)`;
 * the innermost handler tries the endpoints in order and ends with kube's plain-text 404.
 *
 *   audit id → panic recovery → httplog → request info → request timeout → metrics → body limit → authentication → audit
 *   → impersonation → max-in-flight (priority and fairness when a flow controller is given) → authorization → endpoints
 */
import type { Endpoint } from '../request/context.ts';
import type { Authenticator } from '../request/authenticator.ts';
import type { Authorizer } from '../request/authorizer.ts';
import type { Metrics } from '../endpoints/metrics.ts';
import type { Logger } from '../machinery/logging.ts';
import { withHttpLog } from './filters/httplog.ts';
import type { Auditing } from '../audit/auditing.ts';
import { respondBytes } from '../request/respond.ts';
import type { ServerHandler } from './filters/types.ts';
import { withAuditId } from './filters/audit-id.ts';
import { withPanicRecovery } from './filters/panic-recovery.ts';
import { withRequestInfo } from './filters/request-info.ts';
import { withMetrics } from './filters/metrics.ts';
import { withRequestTimeout } from './filters/request-timeout.ts';
import { withBodyLimit } from './filters/body-limit.ts';
import { withAuthentication } from './filters/authentication.ts';
import { withAudit } from './filters/audit.ts';
import { withImpersonation } from './filters/impersonation.ts';
import { withMaxInFlight } from './filters/max-in-flight.ts';
import { withPriorityAndFairness } from './filters/priority-and-fairness.ts';
import type { FlowController } from '../flowcontrol/controller.ts';
import { withAuthorization } from './filters/authorization.ts';

export interface ChainDeps {
  readonly authenticator: Authenticator;
  readonly authorizer: Authorizer;
  readonly metrics: Metrics;
  /** Tried in order; the first that returns true served the request. */
  readonly endpoints: readonly Endpoint[];
  readonly maxReadOnlyInFlight: number;
  readonly maxMutatingInFlight: number;
  readonly maxBodyBytes: number;
  /** `--request-timeout` in ms for requests that are not long-running; 0 = none. */
  readonly requestTimeoutMs: number;
  readonly log: (line: string) => void;
  /** Request lines at -v=3 (kube's httplog); none when absent. */
  readonly logger?: Logger;
  /** `--audit-policy-file` with a backend; absent = requests are not audited. */
  readonly auditing?: Auditing;
  /** API Priority and Fairness (`--enable-priority-and-fairness`); without it, max-in-flight limits. */
  readonly flowControl?: FlowController;
}

type Filter = (next: ServerHandler, deps: ChainDeps) => ServerHandler;

/** Outermost first. */
export const FILTERS: readonly { name: string; wrap: Filter }[] = [
  { name: 'audit-id', wrap: (n) => withAuditId(n) },
  { name: 'panic-recovery', wrap: (n, d) => withPanicRecovery(n, d) },
  { name: 'httplog', wrap: (n, d) => (d.logger ? withHttpLog(n, { logger: d.logger }) : n) },
  { name: 'request-info', wrap: (n) => withRequestInfo(n) },
  { name: 'request-timeout', wrap: (n, d) => withRequestTimeout(n, d) },
  { name: 'metrics', wrap: (n, d) => withMetrics(n, d) },
  { name: 'body-limit', wrap: (n, d) => withBodyLimit(n, d) },
  { name: 'authentication', wrap: (n, d) => withAuthentication(n, d) },
  { name: 'audit', wrap: (n, d) => withAudit(n, d) },
  { name: 'impersonation', wrap: (n, d) => withImpersonation(n, d) },
  { name: 'max-in-flight', wrap: (n, d) => d.flowControl
    ? withPriorityAndFairness(n, { flowControl: d.flowControl, requestTimeoutMs: d.requestTimeoutMs, metrics: d.metrics })
    : withMaxInFlight(n, { maxReadOnly: d.maxReadOnlyInFlight, maxMutating: d.maxMutatingInFlight, metrics: d.metrics }) },
  { name: 'authorization', wrap: (n, d) => withAuthorization(n, d) },
];

/** The endpoints in order, then `404 page not found` (Go's http.NotFound, as kube's final handler). */
export function routeEndpoints(endpoints: readonly Endpoint[]): ServerHandler {
  const notFound = (ctx: Parameters<ServerHandler>[0]): Promise<void> => {
    respondBytes(ctx, 404, 'text/plain; charset=utf-8', '404 page not found\n', { 'X-Content-Type-Options': 'nosniff' });
    return Promise.resolve();
  };
  // Endpoints answer "not mine" synchronously (see Endpoint); only one that may serve is awaited.
  const from = (ctx: Parameters<ServerHandler>[0], first: number): Promise<void> => {
    for (let i = first; i < endpoints.length; i++) {
      const r = endpoints[i]!(ctx);
      if (r === false) continue;
      if (r === true) return Promise.resolve();
      return r.then((served) => (served ? undefined : from(ctx, i + 1)));
    }
    return notFound(ctx);
  };
  return function route(ctx) {
    return from(ctx, 0);
  };
}

export function buildChain(deps: ChainDeps): ServerHandler {
  let h = routeEndpoints(deps.endpoints);
  for (let i = FILTERS.length - 1; i >= 0; i--) h = FILTERS[i]!.wrap(h, deps);
  return h;
}
