/**
 * `--authorization-mode=Webhook` with `--authorization-webhook-*`: kube-apiserver turns these flags into one
 * webhook authorizer named `webhook` with a 30 s timeout, failure policy NoOpinion and no match conditions.
 */
import { registerAuthorizationMode, type AuthorizerDeps } from '../modes.ts';
import type { Authorizer } from '../../request/authorizer.ts';
import { loadKubeconfigConnection } from '../../webhook/kubeconfig.ts';
import { FeatureGates } from '../../features/gates.ts';
import { webhookAuthorizer } from './authorizer.ts';

export { webhookAuthorizer, type WebhookAuthorizerOptions } from './authorizer.ts';

/** kube's legacy-flag defaults. */
export const FLAG_WEBHOOK_TIMEOUT_MS = 30_000;
export const DEFAULT_AUTHORIZED_TTL_MS = 5 * 60_000;
export const DEFAULT_UNAUTHORIZED_TTL_MS = 30_000;

/** True when the AuthorizeWithSelectors gate is on (beta, default on in 1.33). */
export function selectorsEnabled(deps: AuthorizerDeps): boolean {
  return FeatureGates.create(deps.options?.featureGates ?? {}).enabled('AuthorizeWithSelectors');
}

export function parseSarVersion(v: string | undefined, what: string): 'v1' | 'v1beta1' {
  const version = v || 'v1beta1';
  if (version !== 'v1' && version !== 'v1beta1') {
    throw new Error(`${what}: unsupported webhook authorizer version ${JSON.stringify(version)}, supported versions are "v1", "v1beta1"`);
  }
  return version;
}

export async function webhookModeAuthorizer(deps: AuthorizerDeps): Promise<Authorizer> {
  const w = deps.options?.authorizationWebhook;
  if (!w?.configFile) throw new Error("authorization-mode Webhook's authorization config file not passed");
  const connection = await loadKubeconfigConnection(w.configFile);
  return webhookAuthorizer({
    name: 'webhook',
    connection,
    version: parseSarVersion(w.version, '--authorization-webhook-version'),
    authorizedTtlMs: w.authorizedTtlMs ?? DEFAULT_AUTHORIZED_TTL_MS,
    unauthorizedTtlMs: w.unauthorizedTtlMs ?? DEFAULT_UNAUTHORIZED_TTL_MS,
    timeoutMs: FLAG_WEBHOOK_TIMEOUT_MS,
    failurePolicy: 'NoOpinion',
    selectors: selectorsEnabled(deps),
    log: deps.log,
  });
}

registerAuthorizationMode('Webhook', webhookModeAuthorizer);
