/**
 * The request authenticator in kube-apiserver's order: authenticating proxy (request headers), client
 * certificates, then bearer tokens — static token file, service accounts, bootstrap tokens, JWT (OIDC or
 * structured configuration), webhook — and anonymous last when enabled. Every success gains
 * `system:authenticated` (src/authn/union.ts).
 *
 * Anonymous access: the `anonymous` block of `--authentication-config` decides when present (enabled, and
 * only for the listed paths when it has conditions); otherwise `--anonymous-auth` (already reset to false for
 * AlwaysAllow by the options).
 */
import type { Authenticator } from '../request/authenticator.ts';
import type { AuthenticationDeps, AuthenticationPart } from './deps.ts';
import type { Endpoint } from '../request/context.ts';
import { buildAuthenticator } from './index.ts';
import { requestHeaderAuthentication } from './request-header.ts';
import { serviceAccountAuthentication } from './serviceaccount/index.ts';
import { jwtAuthentication, type JwtAuthenticationPart } from './jwt/index.ts';
import { tokenWebhookAuthentication } from './webhook/index.ts';
import { withAnonymousFallback } from './union.ts';
import { conditionalAnonymousAuthenticator } from './anonymous.ts';

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
    let jwt: JwtAuthenticationPart | undefined;
    for (const build of [requestHeaderAuthentication, serviceAccountAuthentication, jwtAuthentication, tokenWebhookAuthentication]) {
      const part = await build(deps);
      parts.push(part);
      if (build === jwtAuthentication) jwt = part;
    }
    const fileAnonymous = jwt?.anonymous;
    const authenticated = await buildAuthenticator({
      clientCaPems: deps.clientCaPems,
      tokenAuthFile: o.tokenAuthFile,
      anonymous: false,
      before: parts.flatMap((p) => p.requestAuthenticators ?? []),
      tokens: parts.flatMap((p) => p.tokens ?? []),
    });
    const anonymousOn = fileAnonymous ? fileAnonymous.enabled : o.anonymousAuth;
    const authenticator = anonymousOn
      ? withAnonymousFallback(authenticated, conditionalAnonymousAuthenticator(fileAnonymous?.conditions ?? []))
      : authenticated;
    return { authenticator, endpoints: parts.flatMap((p) => p.endpoints ?? []), stop: stopAll };
  } catch (e) {
    await stopAll();
    throw e;
  }
}
