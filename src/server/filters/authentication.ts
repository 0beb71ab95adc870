/**
 * Sets ctx.user from the authenticator (x509 → bearer tokens → anonymous when allowed). Invalid credentials
 * or none (with anonymous off) → 401 `Unauthorized` Status, as kube-apiserver answers. The Authorization
 * header is dropped once used so nothing later can forward it.
 */
import type { TLSSocket } from 'node:tls';
import type { Http2ServerRequest } from 'node:http2';
import { errors } from '../../machinery/errors.ts';
import { respondError } from '../../endpoints/respond.ts';
import type { AuthRequest, Authenticator } from '../../request/authenticator.ts';
import type { Req } from '../../request/context.ts';
import type { ServerHandler } from './types.ts';
import type { Metrics } from '../../endpoints/metrics.ts';

/** The TLS socket behind an HTTP/1.1 request or an HTTP/2 stream. */
export function tlsSocketOf(req: Req): TLSSocket | undefined {
  const h2 = (req as Http2ServerRequest).stream?.session?.socket as TLSSocket | undefined;
  const s = h2 ?? (req.socket as TLSSocket | undefined);
  return s && typeof s.getPeerCertificate === 'function' ? s : undefined;
}

export function authRequestOf(req: Req, path: string): AuthRequest {
  return {
    header: (name) => {
      const v = req.headers[name.toLowerCase()];
      return Array.isArray(v) ? v[0] : v;
    },
    tlsSocket: tlsSocketOf(req),
    path,
    rawHeaders: req.rawHeaders,
  };
}

export function withAuthentication(next: ServerHandler, deps: { authenticator: Authenticator; log: (line: string) => void; metrics?: Metrics }): ServerHandler {
  return async function authentication(ctx) {
    const t0 = performance.now();
    const r = await deps.authenticator.authenticate(authRequestOf(ctx.req, ctx.info.path));
    // kube's recordAuthenticationMetrics: error, failure (nothing recognised the request) or success.
    deps.metrics?.recordAuthentication(r.kind === 'authenticated' ? 'success' : r.kind === 'error' ? 'error' : 'failure',
      (performance.now() - t0) / 1000, r.kind === 'authenticated' ? r.user.username : undefined);
    if (r.kind !== 'authenticated') {
      if (r.kind === 'error') deps.log(`Unable to authenticate the request: ${r.message}`);
      respondError(ctx, errors.unauthorized());
      return;
    }
    ctx.user = r.user;
    if (r.method !== 'anonymous') delete ctx.req.headers.authorization;
    await next(ctx);
  };
}
