/**
 * JWT authenticators: the `--oidc-*` flags or `--authentication-config` (structured configuration, which also
 * decides anonymous access). Not built yet: contributes nothing.
 */
import type { AuthenticationDeps, AuthenticationPart } from '../deps.ts';

export function jwtAuthentication(_deps: AuthenticationDeps): Promise<AuthenticationPart> {
  return Promise.resolve({});
}
