/**
 * Records every finished request in kube's request families (apiserver_request_total, _duration_seconds,
 * response sizes) when the response closes. The latency runs from this filter (right after request info), close to
 * kube's received timestamp. Response bytes are counted only for GET/LIST, the verbs kube sizes.
 */
import type { Metrics } from '../../endpoints/metrics.ts';
import { dryRunLabel, reportedVerb, scopeLabel } from '../../endpoints/metrics.ts';
import type { ServerContext, ServerHandler } from './types.ts';

/** Counts bytes the handler writes (kube's ResponseWriterDelegator.ContentLength). */
function countBytes(ctx: ServerContext): () => number {
  const res = ctx.res as { write: (...a: unknown[]) => boolean; end: (...a: unknown[]) => unknown };
  let n = 0;
  const add = (chunk: unknown): void => {
    if (typeof chunk === 'string') n += Buffer.byteLength(chunk);
    else if (chunk instanceof Uint8Array) n += chunk.byteLength;
  };
  const write = res.write;
  const end = res.end;
  res.write = function (this: unknown, ...a: unknown[]) {
    add(a[0]);
    return write.apply(this, a);
  };
  res.end = function (this: unknown, ...a: unknown[]) {
    if (typeof a[0] !== 'function') add(a[0]);
    return end.apply(this, a);
  };
  return () => n;
}

/**
 * Which non-resource paths kube instruments, and under which component: the health roots (component '') and
 * discovery (`/api`, `/apis`). Others (/version, /metrics, /openapi) are not in apiserver_request_total.
 */
const NON_RESOURCE_COMPONENT: ReadonlyMap<string, string> = new Map([
  ['/healthz', ''], ['/livez', ''], ['/readyz', ''], ['/api', 'apiserver'], ['/apis', 'apiserver'],
]);

export function withMetrics(next: ServerHandler, deps: { metrics: Metrics }): ServerHandler {
  return async function metrics(ctx) {
    const i = ctx.info;
    const component = i.isResourceRequest ? 'apiserver' : NON_RESOURCE_COMPONENT.get(i.path);
    if (component === undefined) {
      await next(ctx);
      return;
    }
    const t0 = performance.now();
    const sized = ctx.req.method === 'GET' && !(i.isResourceRequest && i.verb === 'watch') ? countBytes(ctx) : undefined;
    ctx.res.once('close', () => {
      const ct = ctx.req.headers['content-type'];
      const verb = reportedVerb(ctx.req.method ?? 'GET', i, ct, ctx.query);
      deps.metrics.recordRequest({
        verb, dryRun: dryRunLabel(ctx.query),
        group: i.apiGroup, version: i.apiVersion, resource: i.resource, subresource: i.isResourceRequest ? i.subresource : i.path, scope: scopeLabel(i),
        code: ctx.res.statusCode, component,
      }, (performance.now() - t0) / 1000, sized?.());
    });
    await next(ctx);
  };
}
