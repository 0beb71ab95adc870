/**
 * Service account issuer discovery (kube's pkg/serviceaccount/openidmetadata.go and pkg/routes):
 * `GET /.well-known/openid-configuration` (application/json) and `GET /openid/v1/jwks`
 * (application/jwk-set+json), both `Cache-Control: public, max-age=3600`. Served only when the signing issuer
 * is an https URL without query or fragment, as kube-apiserver does. `jwks_uri` is `--service-account-jwks-uri`
 * or `https://<advertise address>:<port>/openid/v1/jwks` (kube's external address).
 */
import type { Endpoint, RequestContext } from '../../request/context.ts';
import { respondBytes } from '../../request/respond.ts';
import type { PublicKeyEntry } from './keys.ts';

export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';
const CACHE_CONTROL = 'public, max-age=3600';

export interface DiscoveryOptions {
  readonly issuer: string;
  readonly jwksUri?: string;
  readonly keys: readonly PublicKeyEntry[];
  /** Host part of the default jwks_uri (the advertise address). */
  readonly externalHost: string;
}

/** Why discovery cannot be served for this issuer (kube logs it and serves nothing), or undefined. */
export function discoveryProblem(issuer: string): string | undefined {
  let u: URL;
  try {
    u = new URL(issuer);
  } catch {
    return `issuer URL ${JSON.stringify(issuer)} is not a URL`;
  }
  if (u.protocol !== 'https:') return `issuer URL must use https scheme, got: ${issuer}`;
  if (u.search) return `issuer URL must not have a query, got: ${issuer}`;
  if (u.hash) return `issuer URL must not have a fragment, got: ${issuer}`;
  return undefined;
}

/** A JWK in go-jose's field order (use, kty, kid, crv, alg, x, y, n, e). */
export function publicJwk(k: PublicKeyEntry): Record<string, string> {
  const j = k.key.export({ format: 'jwk' }) as Record<string, string>;
  const out: Record<string, string> = { use: 'sig', kty: j.kty!, kid: k.kid };
  if (j.crv) out.crv = j.crv;
  out.alg = k.alg;
  for (const f of ['x', 'y', 'n', 'e']) if (j[f]) out[f] = j[f];
  return out;
}

export function jwksDocument(keys: readonly PublicKeyEntry[]): { keys: Record<string, string>[] } {
  return { keys: keys.map(publicJwk) };
}

export function openIdConfiguration(o: { issuer: string; jwksUri: string; keys: readonly PublicKeyEntry[] }): Record<string, unknown> {
  return {
    issuer: o.issuer,
    jwks_uri: o.jwksUri,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [...new Set(o.keys.map((k) => k.alg))].sort(),
  };
}

function localPort(ctx: RequestContext): number | undefined {
  return (ctx.req.socket as { localPort?: number } | undefined)?.localPort;
}

function hostPort(host: string, port: number | undefined): string {
  const h = host.includes(':') ? `[${host}]` : host;
  return port ? `${h}:${port}` : h;
}

export function discoveryEndpoints(o: DiscoveryOptions): Endpoint[] {
  const jwks = Buffer.from(JSON.stringify(jwksDocument(o.keys)));
  const configFor = (ctx: RequestContext): Buffer => Buffer.from(JSON.stringify(openIdConfiguration({
    issuer: o.issuer, keys: o.keys, jwksUri: o.jwksUri ?? `https://${hostPort(o.externalHost, localPort(ctx))}${JWKS_PATH}`,
  })));
  const serve = (path: string, contentType: string, body: (ctx: RequestContext) => Buffer): Endpoint => (ctx) => {
    const p = ctx.url.pathname;
    if (p !== path && p !== `${path}/`) return false;
    // go-restful's answer for a method the route does not serve.
    if (ctx.req.method !== 'GET' && ctx.req.method !== 'HEAD') {
      respondBytes(ctx, 405, 'text/plain; charset=utf-8', '405: Method Not Allowed');
      return true;
    }
    respondBytes(ctx, 200, contentType, body(ctx), { 'Cache-Control': CACHE_CONTROL });
    return true;
  };
  return [serve(OPENID_CONFIGURATION_PATH, 'application/json', configFor), serve(JWKS_PATH, 'application/jwk-set+json', () => jwks)];
}
