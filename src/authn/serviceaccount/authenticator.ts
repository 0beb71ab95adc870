/**
 * kube's jwtTokenAuthenticator: a token is "ours" only when it is a compact JWS whose (unverified) `iss` is one
 * of our issuers; anything else is left to the other token authenticators (undefined). Ours must then verify
 * with one of the keys (asymmetric algorithms only: `alg: none` and HMAC never verify), carry an audience in
 * the API audiences (tokens without `aud` — legacy ones — get the API audiences), and pass the validator.
 * Failures are logged with kube's reason and end as undefined, so the bearer authenticator answers 401.
 */
import { compactVerify, decodeProtectedHeader } from 'jose';
import type { UserInfo } from '../../machinery/objects.ts';
import type { TokenAuthenticator, TokenContext, TokenUser } from '../../request/authenticator.ts';
import type { PublicKeyEntry } from './keys.ts';
import { TokenInvalidError } from './claims.ts';

export interface JwtAuthenticatorOptions {
  readonly name: string;
  readonly issuers: readonly string[];
  readonly keys: readonly PublicKeyEntry[];
  /** `--api-audiences`: a token must name one of them (when any are configured). */
  readonly implicitAudiences: readonly string[];
  /** Claim checks after the signature (lookups of the service account, secret, pod, node). */
  validate(claims: Record<string, unknown>, token: string): Promise<UserInfo>;
  readonly log?: (line: string) => void;
}

const RSA_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];

function algorithmsFor(k: PublicKeyEntry): string[] {
  return k.alg === 'RS256' ? RSA_ALGS : [k.alg];
}

/** The unverified payload when the token is a compact JWS; undefined otherwise. */
export function unverifiedClaims(token: string): Record<string, unknown> | undefined {
  if (token.trim().startsWith('{')) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function audiencesOf(aud: unknown): string[] {
  if (typeof aud === 'string') return aud ? [aud] : [];
  return Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
}

export function jwtTokenAuthenticator(o: JwtAuthenticatorOptions): TokenAuthenticator {
  const issuers = new Set(o.issuers);
  const log = o.log ?? (() => {});

  async function verified(token: string): Promise<Record<string, unknown> | undefined> {
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return undefined;
    }
    // The key named by `kid` first; every key is still tried, as kube does.
    const keys = [...o.keys].sort((a, b) => Number(b.kid === kid) - Number(a.kid === kid));
    for (const k of keys) {
      try {
        const r = await compactVerify(token, k.key, { algorithms: algorithmsFor(k) });
        return JSON.parse(new TextDecoder().decode(r.payload)) as Record<string, unknown>;
      } catch {
        // next key
      }
    }
    return undefined;
  }

  return {
    name: o.name,
    async authenticateToken(token: string, ctx?: TokenContext): Promise<TokenUser | undefined> {
      const unverified = unverifiedClaims(token);
      if (!unverified || typeof unverified.iss !== 'string' || !issuers.has(unverified.iss)) return undefined;
      const claims = await verified(token);
      if (!claims) {
        log(`${o.name}: token signature could not be verified with any service account key`);
        return undefined;
      }
      if (typeof claims.iss !== 'string' || !issuers.has(claims.iss)) {
        log(`${o.name}: token issuer ${JSON.stringify(claims.iss)} is invalid`);
        return undefined;
      }
      let auds = audiencesOf(claims.aud);
      if (!auds.length) auds = [...o.implicitAudiences];
      // A TokenReview may name other audiences (e.g. a token minted for an external verifier): kube's JWT token
      // authenticator checks those instead of the API's and answers with the intersection.
      const targets = ctx?.audiences?.length ? ctx.audiences : o.implicitAudiences;
      const granted = auds.filter((a) => targets.includes(a));
      if (targets.length && !granted.length) {
        log(`${o.name}: token audiences ${JSON.stringify(auds)} is invalid for the target audiences ${JSON.stringify(targets)}`);
        return undefined;
      }
      try {
        const user = await o.validate(claims, token);
        return user && ctx?.audiences?.length ? { ...user, grantedAudiences: granted } : user;
      } catch (err) {
        if (err instanceof TokenInvalidError) log(`${o.name}: ${err.message}`);
        else log(`${o.name}: token validation failed: ${(err as Error).message}`);
        return undefined;
      }
    },
  };
}
