/**
 * kube's request deadline for requests that are not long-running: `--request-timeout` (default 60s), shortened
 * by a `?timeout=<Go duration>` query parameter; an unparsable one is a 400. When the deadline passes before the
 * response started, the client gets kube's 504 and the request's signal is aborted so the handler can stop.
 */
import { errors } from '../../machinery/errors.ts';
import { respondError } from '../../endpoints/respond.ts';
import { parseDuration } from '../../machinery/duration.ts';
import { isLongRunning } from './max-in-flight.ts';
import type { ServerHandler } from './types.ts';

export function withRequestTimeout(next: ServerHandler, deps: { requestTimeoutMs: number }): ServerHandler {
  return async function requestTimeout(ctx) {
    if (isLongRunning(ctx.info) || deps.requestTimeoutMs <= 0) {
      await next(ctx);
      return;
    }
    let timeout = deps.requestTimeoutMs;
    const given = ctx.query.get('timeout');
    if (given) {
      const ms = parseDuration(given);
      if (ms === undefined) {
        respondError(ctx, errors.badRequest(`invalid timeout specified in the request URL - time: invalid duration ${JSON.stringify(given)}`));
        return;
      }
      if (ms > 0 && ms < timeout) timeout = ms;
    }
    const timer = setTimeout(() => {
      if (!ctx.res.headersSent) respondError(ctx, errors.timeout('Timeout: request did not complete within the allotted timeout'));
      ctx.abortRequest?.();
    }, timeout);
    try {
      await next(ctx);
    } finally {
      clearTimeout(timer);
    }
  };
}
