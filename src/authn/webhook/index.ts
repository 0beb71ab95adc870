/** Webhook token authentication (`--authentication-token-webhook-config-file`). Not built yet: contributes nothing. */
import type { AuthenticationDeps, AuthenticationPart } from '../deps.ts';

export function tokenWebhookAuthentication(_deps: AuthenticationDeps): Promise<AuthenticationPart> {
  return Promise.resolve({});
}
