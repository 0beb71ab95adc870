/**
 * `Authorization: Bearer <token>` (kube's bearertoken authenticator): the scheme is case-insensitive, the
 * token is the second space-separated field. A token that no token authenticator accepts is an error (401),
 * never anonymous. An empty token or another scheme is no opinion.
 */
import type { AuthRequest, AuthResult, Authenticator, TokenAuthenticator } from '../request/authenticator.ts';
import { NO_OPINION } from '../request/authenticator.ts';

export function bearerTokenAuthenticator(tokens: readonly TokenAuthenticator[]): Authenticator {
  return {
    name: 'bearer-token',
    async authenticate(req: AuthRequest): Promise<AuthResult> {
      const h = req.header('authorization');
      if (!h) return NO_OPINION;
      const parts = h.trim().split(' ');
      if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return NO_OPINION;
      const token = parts[1]!;
      if (token === '') return NO_OPINION;
      for (const t of tokens) {
        const found = await t.authenticateToken(token, req.audiences ? { audiences: req.audiences } : undefined);
        if (!found) continue;
        const { grantedAudiences, ...user } = found;
        return { kind: 'authenticated', user, method: t.name, ...(grantedAudiences ? { audiences: grantedAudiences } : {}) };
      }
      return { kind: 'error', message: 'invalid bearer token' };
    },
  };
}
