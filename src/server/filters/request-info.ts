/** Fills ctx.info (see request-info.ts); a URL kube cannot classify is a 500 as in kube-apiserver. */
import { respondBytes } from '../../request/respond.ts';
import { requestInfoFor, RequestInfoError } from '../request-info.ts';
import type { ServerHandler } from './types.ts';

export function withRequestInfo(next: ServerHandler): ServerHandler {
  // Not async: it only hands on next's promise (one frame fewer per request).
  return function requestInfo(ctx) {
    try {
      ctx.info = requestInfoFor(ctx.req.method ?? 'GET', ctx.url);
    } catch (err) {
      if (!(err instanceof RequestInfoError)) throw err;
      ctx.info = err.partial;
      respondBytes(ctx, 500, 'text/plain; charset=utf-8',
        `Internal Server Error: ${JSON.stringify(ctx.req.url ?? '')}: failed to create RequestInfo: ${err.message}\n`,
        { 'X-Content-Type-Options': 'nosniff' });
      return Promise.resolve();
    }
    return next(ctx);
  };
}
