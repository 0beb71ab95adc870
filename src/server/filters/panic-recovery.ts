/**
 * Anything a later filter or handler throws becomes a 500 Status (or, when the response has started, the
 * response is ended) instead of crashing the process; the connection and other streams survive.
 */
import { respondError } from '../../endpoints/respond.ts';
import type { ServerHandler } from './types.ts';

export function withPanicRecovery(next: ServerHandler, deps: { log: (line: string) => void }): ServerHandler {
  return async function panicRecovery(ctx) {
    try {
      await next(ctx);
    } catch (err) {
      const isStatus = err instanceof Error && err.name === 'StatusError';
      if (!isStatus) deps.log(`panic serving ${ctx.req.method ?? ''} ${ctx.url.pathname}: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
      try {
        if (ctx.res.headersSent) ctx.res.end();
        else respondError(ctx, err);
      } catch {
        // The stream is gone; nothing left to tell the client.
      }
    }
  };
}
