/**
 * The anonymous authenticator of the structured authentication configuration: with `conditions`, a request
 * is anonymous only when its path is exactly one of the listed paths (kube's anonymous.NewAuthenticator);
 * any other credential-less request gets no opinion and so a 401.
 */
import type { AuthRequest, AuthResult, Authenticator } from '../request/authenticator.ts';
import { NO_OPINION } from '../request/authenticator.ts';
import { anonymousAuthenticator } from './union.ts';

export function conditionalAnonymousAuthenticator(conditions: readonly { path: string }[]): Authenticator {
  const anonymous = anonymousAuthenticator();
  if (!conditions.length) return anonymous;
  const paths = new Set(conditions.map((c) => c.path));
  return {
    name: 'anonymous',
    authenticate(req: AuthRequest): AuthResult | Promise<AuthResult> {
      return paths.has(req.path) ? anonymous.authenticate(req) : NO_OPINION;
    },
  };
}
