/**
 * Builds the request authenticator from options, in kube-apiserver's order: client certificates, then bearer
 * tokens (static token file first; service-account, bootstrap, OIDC and webhook token authenticators join the
 * `tokens` list later), every success gaining `system:authenticated`, and anonymous last when enabled.
 */
import { X509Certificate } from 'node:crypto';
import type { Authenticator, TokenAuthenticator } from '../request/authenticator.ts';
import { x509Authenticator } from './x509.ts';
import { bearerTokenAuthenticator } from './bearer.ts';
import { loadTokenFile } from './token-file.ts';
import { anonymousAuthenticator, unionAuthenticator, withAnonymousFallback, withAuthenticatedGroup } from './union.ts';

export interface AuthenticatorConfig {
  /** PEM certificates trusted to sign client certificates. */
  readonly clientCaPems: readonly string[];
  readonly tokenAuthFile?: string;
  readonly anonymous: boolean;
  /** More token authenticators (service accounts, ...), tried after the token file. */
  readonly tokens?: readonly TokenAuthenticator[];
  /** Whole-request authenticators asked before client certificates (the authenticating proxy). */
  readonly before?: readonly Authenticator[];
}

export async function buildAuthenticator(c: AuthenticatorConfig): Promise<Authenticator> {
  const roots = c.clientCaPems.map((p) => new X509Certificate(p));
  const tokens: TokenAuthenticator[] = [];
  if (c.tokenAuthFile) tokens.push(await loadTokenFile(c.tokenAuthFile));
  tokens.push(...(c.tokens ?? []));
  const members: Authenticator[] = [...(c.before ?? []), x509Authenticator({ roots }), bearerTokenAuthenticator(tokens)];
  const authn = withAuthenticatedGroup(unionAuthenticator(members));
  return c.anonymous ? withAnonymousFallback(authn, anonymousAuthenticator()) : authn;
}
