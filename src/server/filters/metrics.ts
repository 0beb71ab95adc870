/** Counts every finished request in apiserver_request_total by kube's labels (recorded when the response ends). */
import type { Metrics } from '../../endpoints/metrics.ts';
import { reportedVerb, scopeLabel } from '../../endpoints/metrics.ts';
import type { ServerHandler } from './types.ts';

export function withMetrics(next: ServerHandler, deps: { metrics: Metrics }): ServerHandler {
  return async function metrics(ctx) {
    ctx.res.once('close', () => {
      const i = ctx.info;
      const ct = ctx.req.headers['content-type'];
      deps.metrics.recordRequest({
        verb: reportedVerb(ctx.req.method ?? 'GET', i, ct), dryRun: ctx.query.getAll('dryRun').join(','),
        group: i.apiGroup, version: i.apiVersion, resource: i.resource, subresource: i.subresource, scope: scopeLabel(i),
        code: ctx.res.statusCode,
      });
    });
    await next(ctx);
  };
}
