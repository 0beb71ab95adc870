/**
 * `Authorization: Bearer <token>` (kube's bearertoken authenticator): the scheme is case-insensitive, the
 * token is the second space-separated field. A token that no token authenticator accepts is an error (401),
 * never anonymous. An empty token or another scheme is no opinion.
 */
import type { AuthRequest, AuthResult, Authenticator, TokenAuthenticator } from '../request/authenticator.ts';
import { NO_OPINION } from '../request/authenticator.ts';

export function bearerTokenAuthenticator(tokens: readonly TokenAuthenticator[]): Authenticator {
  /** Token authenticators from `i` on; synchronous while they answer synchronously (a token file does). */
  const from = (token: string, req: AuthRequest, i: number): AuthResult | Promise<AuthResult> => {
    for (; i < tokens.length; i++) {
      const t = tokens[i]!;
      const found = t.authenticateToken(token, req.audiences ? { audiences: req.audiences } : undefined);
      if (found instanceof Promise) {
        const next = i + 1;
        return found.then((f) => (f ? accepted(t, f) : from(token, req, next)));
      }
      if (found) return accepted(t, found);
    }
    return { kind: 'error', message: 'invalid bearer token' };
  };
  return {
    name: 'bearer-token',
    authenticate(req: AuthRequest): AuthResult | Promise<AuthResult> {
      const h = req.header('authorization');
      if (!h) return NO_OPINION;
      const parts = h.trim().split(' ');
      if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return NO_OPINION;
      const token = parts[1]!;
      if (token === '') return NO_OPINION;
      try {
        return from(token, req, 0);
      } catch (err) {
        return Promise.reject(err);
      }
    },
  };
}

type Found = NonNullable<Awaited<ReturnType<TokenAuthenticator['authenticateToken']>>>;

/** Results for frozen users (a token file's entries): built once per user, shared by every request. */
const acceptedMemo = new WeakMap<Found, AuthResult>();

function accepted(t: TokenAuthenticator, found: Found): AuthResult {
  if (Object.isFrozen(found) && !('grantedAudiences' in found)) {
    let r = acceptedMemo.get(found);
    if (!r || r.kind !== 'authenticated' || r.method !== t.name) {
      acceptedMemo.set(found, r = Object.freeze({ kind: 'authenticated', user: found, method: t.name }));
    }
    return r;
  }
  const { grantedAudiences, ...user } = found;
  return { kind: 'authenticated', user, method: t.name, ...(grantedAudiences ? { audiences: grantedAudiences } : {}) };
}
