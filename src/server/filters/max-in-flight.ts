/**
 * kube's max-in-flight limit: separate bounds for read-only and mutating requests (`--max-requests-inflight`,
 * `--max-mutating-requests-inflight`; 0 = unbounded). Over the bound → 429 `Too many requests, please try again
 * later.` with `Retry-After: 1`. Long-running requests (watches, proxy/exec/attach/log/portforward) and
 * `system:masters` are not counted, as in kube-apiserver.
 */
import { errors } from '../../machinery/errors.ts';
import { respondError } from '../../endpoints/respond.ts';
import type { RequestInfo } from '../../request/context.ts';
import { reportedVerb, scopeLabel, type Metrics } from '../../endpoints/metrics.ts';
import type { ServerHandler } from './types.ts';

const LONG_RUNNING_SUBRESOURCES = new Set(['proxy', 'attach', 'log', 'exec', 'portforward']);
const MUTATING = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

export function isLongRunning(info: RequestInfo): boolean {
  if (!info.isResourceRequest) return false;
  return info.verb === 'watch' || info.verb === 'proxy' || LONG_RUNNING_SUBRESOURCES.has(info.subresource);
}

export interface InFlightDeps {
  readonly maxReadOnly: number;
  readonly maxMutating: number;
  readonly metrics?: Metrics;
}

export function withMaxInFlight(next: ServerHandler, deps: InFlightDeps): ServerHandler {
  const inflight = deps.metrics?.inflight ?? { readOnly: 0, mutating: 0 };
  return async function maxInFlight(ctx) {
    if (isLongRunning(ctx.info)) {
      // Not limited (kube-apiserver neither), but counted on their own gauge.
      const i = ctx.info;
      const done = deps.metrics?.trackLongRunning({ verb: reportedVerb(ctx.req.method ?? 'GET', i, ctx.req.headers['content-type'], ctx.query), group: i.apiGroup, version: i.apiVersion, resource: i.resource, subresource: i.subresource, scope: scopeLabel(i) });
      try {
        await next(ctx);
      } finally {
        done?.();
      }
      return;
    }
    if (ctx.user.groups.includes('system:masters')) {
      await next(ctx);
      return;
    }
    const kind = ctx.info.isResourceRequest && MUTATING.has(ctx.info.verb) ? 'mutating' : 'readOnly';
    const max = kind === 'mutating' ? deps.maxMutating : deps.maxReadOnly;
    if (max > 0 && inflight[kind] >= max) {
      respondError(ctx, errors.tooManyRequests());
      return;
    }
    inflight[kind]++;
    deps.metrics?.noteInflight();
    try {
      await next(ctx);
    } finally {
      inflight[kind]--;
    }
  };
}
