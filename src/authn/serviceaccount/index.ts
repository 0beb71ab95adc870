/**
 * Service account tokens (legacy secret-based and bound TokenRequest tokens), the issuer discovery documents,
 * and bootstrap tokens. Not built yet: contributes nothing.
 */
import type { AuthenticationDeps, AuthenticationPart } from '../deps.ts';

export function serviceAccountAuthentication(_deps: AuthenticationDeps): Promise<AuthenticationPart> {
  return Promise.resolve({});
}
