/**
 * kube's httplog: at -v=3 and above one line per finished request, written when the response closes:
 * `"HTTP" verb="GET" URI="/api/v1/pods" latency="3.1ms" userAgent="kubectl/…" audit-ID="…" srcIP="127.0.0.1:53412" resp=200`.
 * The verbosity is read per request, so `PUT /debug/flags/v` takes effect for the next one.
 */
import type { Logger } from '../../machinery/logging.ts';
import { formatGoDuration } from '../../machinery/duration.ts';
import type { ServerHandler } from './types.ts';

/** kube's httplog level. */
export const HTTPLOG_LEVEL = 3;

export function withHttpLog(next: ServerHandler, deps: { logger: Logger }): ServerHandler {
  const { logger } = deps;
  // Not async: below -v=3 it only hands on next's promise.
  return function httplog(ctx) {
    if (!logger.enabled(HTTPLOG_LEVEL)) return next(ctx);
    const t0 = process.hrtime.bigint();
    // Read now: an HTTP/2 stream's socket proxy no longer answers once the stream has closed.
    const sock = ctx.req.socket;
    const host = sock?.remoteAddress ?? '';
    const port = sock?.remotePort ?? '';
    ctx.res.once('close', () => {
      const ns = process.hrtime.bigint() - t0;
      logger.info('httplog.ts', 'HTTP', {
        verb: ctx.req.method ?? '',
        URI: ctx.req.url ?? '',
        latency: formatGoDuration(ns / 1_000_000_000n, Number(ns % 1_000_000_000n)),
        userAgent: ctx.req.headers['user-agent'] ?? '',
        'audit-ID': ctx.auditId,
        srcIP: `${host.includes(':') ? `[${host}]` : host}:${port}`,
        resp: ctx.res.statusCode,
      }, HTTPLOG_LEVEL);
    });
    return next(ctx);
  };
}
