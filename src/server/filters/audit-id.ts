/** Every request gets an audit id (response header `Audit-Id`): the client's `Audit-ID` header when it sent one, else a fresh UUID. */
import { randomUUID } from 'node:crypto';
import type { ServerHandler } from './types.ts';

export function withAuditId(next: ServerHandler): ServerHandler {
  // Not async: it only hands on next's promise (one frame fewer per request).
  return function auditId(ctx) {
    const given = ctx.req.headers['audit-id'];
    const v = Array.isArray(given) ? given[0] : given;
    // Every response writer sends it (request/respond.ts commonHeaders), watch streams and proxied answers too.
    ctx.auditId = v && v.trim() ? v.trim() : randomUUID();
    return next(ctx);
  };
}
