/**
 * Requests that announce a body over the limit (3 MiB, kube's MaxRequestBodyBytes) are refused with 413 before
 * anything is read. Bodies without a length are bounded where they are read (src/server/body.ts readBody).
 */
import { respondError } from '../../endpoints/respond.ts';
import { tooLarge } from '../body.ts';
import type { ServerHandler } from './types.ts';

export function withBodyLimit(next: ServerHandler, deps: { maxBodyBytes: number }): ServerHandler {
  // Not async: it only hands on next's promise.
  return function bodyLimit(ctx) {
    const cl = ctx.req.headers['content-length'];
    if (cl !== undefined && Number(cl) > deps.maxBodyBytes) {
      respondError(ctx, tooLarge(deps.maxBodyBytes));
      // Do not read the rest; let HTTP/1.1 close the connection instead of draining megabytes.
      if ('httpVersionMajor' in ctx.req && ctx.req.httpVersionMajor === 1) ctx.req.socket.destroySoon?.();
      return Promise.resolve();
    }
    return next(ctx);
  };
}
