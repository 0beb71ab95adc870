/**
 * The server's view of the request context: the same object handlers receive as RequestContext, but writable
 * while the chain fills it in (request info, user, audit id).
 */
import type { RequestContext } from '../../request/context.ts';

export type ServerContext = { -readonly [K in keyof RequestContext]: RequestContext[K] } & {
  /** Aborts `signal` (the listener provides it; the request-timeout filter uses it). */
  abortRequest?: () => void;
};
export type ServerHandler = (ctx: ServerContext) => Promise<void>;
