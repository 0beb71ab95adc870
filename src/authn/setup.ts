/**
 * The request authenticator in kube-apiserver's order: authenticating proxy (request headers), client
 * certificates, then bearer tokens — static token file, service accounts, bootstrap tokens, JWT (OIDC or
 * structured configuration), webhook — and anonymous last when enabled. Every success gains
 * `system:authenticated` (src/authn/union.ts).
 */
import type { Authenticator } from './types.ts';
import type { AuthenticationDeps, AuthenticationPart } from './deps.ts';
import type { Endpoint } from '../server/context.ts';
import { buildAuthenticator } from './index.ts';
import { requestHeaderAuthentication } from './request-header.ts';
import { serviceAccountAuthentication } from './serviceaccount/index.ts';
import { jwtAuthentication } from './jwt/index.ts';
import { tokenWebhookAuthentication } from './webhook/index.ts';

export interface RequestAuthentication {
  readonly authenticator: Authenticator;
  /** Served ahead of the API endpoints (service account issuer discovery). */
  readonly endpoints: readonly Endpoint[];
  stop(): Promise<void>;
}

export async function buildRequestAuthentication(deps: AuthenticationDeps): Promise<RequestAuthentication> {
  const o = deps.options;
  const parts: AuthenticationPart[] = [];
  const stopAll = async (): Promise<void> => {
    for (const p of parts.reverse()) await p.stop?.();
  };
  try {
    // Built one by one so a failing part stops the ones before it.
    for (const build of [requestHeaderAuthentication, serviceAccountAuthentication, jwtAuthentication, tokenWebhookAuthentication]) {
      parts.push(await build(deps));
    }
    const authenticator = await buildAuthenticator({
      clientCaPems: deps.pki.clientCaPems,
      tokenAuthFile: o.tokenAuthFile,
      anonymous: o.anonymousAuth,
      before: parts.flatMap((p) => p.requestAuthenticators ?? []),
      tokens: parts.flatMap((p) => p.tokens ?? []),
    });
    return { authenticator, endpoints: parts.flatMap((p) => p.endpoints ?? []), stop: stopAll };
  } catch (e) {
    await stopAll();
    throw e;
  }
}
