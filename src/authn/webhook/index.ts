/**
 * Webhook token authentication (`--authentication-token-webhook-config-file`, `-cache-ttl`, `-version`): one
 * bearer-token checker asking a remote TokenReview service (./authenticator.ts).
 */
import type { AuthenticationDeps, AuthenticationPart } from '../deps.ts';
import { loadKubeconfigConnection } from '../../webhook/kubeconfig.ts';
import { tokenWebhookAuthenticator } from './authenticator.ts';

export { tokenWebhookAuthenticator, tokenReviewOutcome, type TokenWebhookOptions } from './authenticator.ts';

/** kube's defaults: 2 minutes of cache, TokenReview v1beta1, 30 s per call. */
export const DEFAULT_TOKEN_WEBHOOK_CACHE_TTL_MS = 2 * 60_000;
export const TOKEN_WEBHOOK_TIMEOUT_MS = 30_000;

export async function tokenWebhookAuthentication(deps: AuthenticationDeps): Promise<AuthenticationPart> {
  const w = deps.options.authenticationTokenWebhook;
  if (!w?.configFile) return {};
  const version = w.version || 'v1beta1';
  if (version !== 'v1' && version !== 'v1beta1') {
    throw new Error(`--authentication-token-webhook-version: unsupported webhook authenticator version ${JSON.stringify(version)}, supported versions are "v1", "v1beta1"`);
  }
  const connection = await loadKubeconfigConnection(w.configFile);
  return {
    tokens: [tokenWebhookAuthenticator({
      connection,
      version,
      cacheTtlMs: w.cacheTtlMs ?? DEFAULT_TOKEN_WEBHOOK_CACHE_TTL_MS,
      apiAudiences: deps.options.apiAudiences ?? [],
      timeoutMs: TOKEN_WEBHOOK_TIMEOUT_MS,
      log: deps.log,
    })],
  };
}
