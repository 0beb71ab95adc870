/** The authenticating proxy (`--requestheader-*`). Not built yet: contributes nothing. */
import type { AuthenticationDeps, AuthenticationPart } from './deps.ts';

export function requestHeaderAuthentication(_deps: AuthenticationDeps): Promise<AuthenticationPart> {
  return Promise.resolve({});
}
