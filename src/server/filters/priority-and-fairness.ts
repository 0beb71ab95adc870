/**
 * kube's API Priority and Fairness filter (k8s.io/apiserver pkg/server/filters/priority-and-fairness.go), in
 * max-in-flight's place: after impersonation (the effective user is classified), before authorization. Every
 * classified response carries `X-Kubernetes-PF-FlowSchema-UID` and `X-Kubernetes-PF-PriorityLevel-UID`; a
 * request its level refuses (queue full, over the limit, or waiting longer than a quarter of its deadline)
 * gets Go's plain-text 429 `Too many requests, please try again later.` with the level's `Retry-After`.
 * Watches hold their seats only until their response starts; other long-running requests are not limited.
 */
import { respondBytes } from '../../request/respond.ts';
import { scopeLabel, type Metrics } from '../../endpoints/metrics.ts';
import type { FlowController } from '../../flowcontrol/controller.ts';
import { isLongRunning } from './max-in-flight.ts';
import type { ServerContext, ServerHandler } from './types.ts';

export { FLOW_SCHEMA_UID_HEADER, PRIORITY_LEVEL_UID_HEADER } from '../../request/respond.ts';

/** kube caps the wait in a queue at one minute. */
const MAX_WAIT_MS = 60_000;
const MUTATING = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

export interface PriorityAndFairnessDeps {
  readonly flowControl: FlowController;
  /** `--request-timeout` in ms: a request waits at most a quarter of it in a queue (0 = kube's 15 s). */
  readonly requestTimeoutMs: number;
  readonly metrics?: Metrics;
}

export function withPriorityAndFairness(next: ServerHandler, deps: PriorityAndFairnessDeps): ServerHandler {
  const fc = deps.flowControl;
  const inflight = deps.metrics?.inflight ?? { readOnly: 0, mutating: 0 };
  const waitLimitMs = Math.min(deps.requestTimeoutMs > 0 ? deps.requestTimeoutMs / 4 : 15_000, MAX_WAIT_MS);
  return async function priorityAndFairness(ctx) {
    const info = ctx.info;
    const watch = info.isResourceRequest && info.verb === 'watch';
    if (isLongRunning(info) && !watch) {
      const done = deps.metrics?.trackLongRunning({ verb: info.verb.toUpperCase(), group: info.apiGroup, version: info.apiVersion, resource: info.resource, subresource: info.subresource, scope: scopeLabel(info) });
      try {
        await next(ctx);
      } finally {
        done?.();
      }
      return;
    }
    // The wait is measured from the request's arrival, on the monotonic clock the queues use.
    const deadline = performance.now() + waitLimitMs - Math.max(0, Date.now() - ctx.startTime);
    // The signal is passed as a function: reading ctx.signal makes the request's AbortController.
    const d = fc.decide({ info, user: ctx.user }, ctx.query, deadline, () => ctx.signal);
    // Sent with the response, whichever writer writes it (request/respond.ts commonHeaders).
    ctx.flowSchemaUid = d.flowSchemaUid;
    ctx.priorityLevelUid = d.priorityLevelUid;
    const a = d.admission instanceof Promise ? await d.admission : d.admission;
    if (!a.execute) {
      if (a.reason === 'cancelled' || ctx.signal.aborted) return;
      respondBytes(ctx, 429, 'text/plain; charset=utf-8', 'Too many requests, please try again later.\n', {
        'Retry-After': String(fc.retryAfter(d.priorityLevel)), 'X-Content-Type-Options': 'nosniff',
      });
      return;
    }
    const kind = info.isResourceRequest && MUTATING.has(info.verb) ? 'mutating' : 'readOnly';
    if (watch) {
      await serveWatch(next, ctx, a.finish, fc.registerWatch(info), deps.metrics);
      return;
    }
    inflight[kind]++;
    try {
      await next(ctx);
    } finally {
      inflight[kind]--;
      a.finish();
    }
  };
}

/**
 * A watch keeps its seats until it is initialized (its response has started) or ends, whichever is first;
 * it stays registered for the write estimates as long as it runs.
 */
async function serveWatch(next: ServerHandler, ctx: ServerContext, finish: () => void, forget: () => void, metrics?: Metrics): Promise<void> {
  const i = ctx.info;
  const done = metrics?.trackLongRunning({ verb: 'WATCH', group: i.apiGroup, version: i.apiVersion, resource: i.resource, subresource: i.subresource, scope: scopeLabel(i) });
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    finish();
  };
  const poll = (): void => {
    if (released) return;
    if (ctx.res.headersSent) release();
    else setTimeout(poll, 1);
  };
  setImmediate(poll);
  try {
    await next(ctx);
  } finally {
    release();
    forget();
    done?.();
  }
}
