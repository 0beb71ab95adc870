/**
 * Sets ctx.user from the authenticator (x509 → bearer tokens → anonymous when allowed). Invalid credentials
 * or none (with anonymous off) → 401 `Unauthorized` Status, as kube-apiserver answers. The Authorization
 * header is dropped once used so nothing later can forward it.
 */
import type { TLSSocket } from 'node:tls';
import type { Http2ServerRequest } from 'node:http2';
import { errors } from '../../machinery/errors.ts';
import { respondError } from '../../endpoints/respond.ts';
import type { AuthRequest, AuthResult, Authenticator } from '../../request/authenticator.ts';
import type { Req } from '../../request/context.ts';
import type { ServerContext, ServerHandler } from './types.ts';
import type { Metrics } from '../../endpoints/metrics.ts';
import type { Auditing } from '../../audit/auditing.ts';
import { nowMicros } from '../../audit/event.ts';
import { auditFailedAuthentication } from './audit.ts';

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

/** kube's getAuthMethods: the credentials a refused request tried, for its audit event. */
function attemptedAuthMethods(ctx: ServerContext): string {
  const methods: string[] = [];
  const auth = (ctx.req.headers.authorization ?? '').trim();
  const [scheme, rest] = [auth.split(' ')[0] ?? '', auth.slice(auth.indexOf(' ') + 1)];
  if (/^basic$/i.test(scheme) && auth.includes(' ') && Buffer.from(rest, 'base64').toString('latin1').includes(':')) methods.push('basic');
  if (/^bearer$/i.test(scheme) && auth.split(' ').length > 1) methods.push('bearer');
  if ((ctx.url.searchParams.get('access_token') ?? '').trim()) methods.push('access_token');
  const peer = tlsSocketOf(ctx.req)?.getPeerCertificate();
  if (peer && Object.keys(peer).length) methods.push('x509');
  return methods.length ? `Authentication failed, attempted: ${methods.join(', ')}` : 'Authentication failed, no credentials provided';
}

export function withAuthentication(next: ServerHandler, deps: {
  authenticator: Authenticator; log: (line: string) => void; metrics?: Metrics; auditing?: Auditing;
}): ServerHandler {
  const refused = async (ctx: ServerContext, t0: number, r: AuthResult): Promise<void> => {
    if (r.kind === 'error') deps.log(`Unable to authenticate the request: ${r.message}`);
    const refuse = (): void => respondError(ctx, errors.unauthorized());
    // The refusal is audited too (kube's WithFailedAuthenticationAudit), with the time the request arrived here.
    if (deps.auditing) await auditFailedAuthentication(ctx, deps.auditing, nowMicros(t0), attemptedAuthMethods(ctx), refuse);
    else refuse();
  };
  const authenticated = (ctx: ServerContext, t0: number, r: AuthResult): Promise<void> => {
    // kube's recordAuthenticationMetrics: error, failure (nothing recognised the request) or success.
    deps.metrics?.recordAuthentication(r.kind === 'authenticated' ? 'success' : r.kind === 'error' ? 'error' : 'failure',
      (performance.now() - t0) / 1000, r.kind === 'authenticated' ? r.user.username : undefined);
    if (r.kind !== 'authenticated') return refused(ctx, t0, r);
    ctx.user = r.user;
    if (r.method !== 'anonymous') delete ctx.req.headers.authorization;
    return next(ctx);
  };
  // Not async itself: token files, client certificates and cached tokens answer synchronously.
  return function authentication(ctx) {
    const t0 = performance.now();
    const r = deps.authenticator.authenticate(authRequestOf(ctx.req, ctx.info.path));
    return r instanceof Promise ? r.then((x) => authenticated(ctx, t0, x)) : authenticated(ctx, t0, r);
  };
}
