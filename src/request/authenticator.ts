/**
 * Authentication contract: tri-state results that fail closed. `error` means credentials were presented and
 * are wrong (401 even if anonymous access is on); `no-opinion` means this method found nothing to check.
 */
import type { UserInfo } from '../machinery/objects.ts';
import type { TLSSocket } from 'node:tls';

export type AuthResult =
  /** `audiences`: what an audience-aware authenticator granted (absent: valid for the API's own audiences). */
  | { readonly kind: 'authenticated'; readonly user: UserInfo; readonly method: string; readonly audiences?: readonly string[] }
  | { readonly kind: 'no-opinion' }
  | { readonly kind: 'error'; readonly message: string };

/** The parts of a request authenticators may look at. */
export interface AuthRequest {
  header(name: string): string | undefined;
  /** The TLS socket of the connection (HTTP/1.1 socket or the HTTP/2 session's socket). */
  readonly tlsSocket?: TLSSocket;
  readonly path: string;
  /** The audiences a TokenReview asks for; unset for requests (tokens must then be meant for this API). */
  readonly audiences?: readonly string[];
  /** Every header line as received (Node's `rawHeaders`: name, value, name, value, …): repeated headers stay apart. */
  readonly rawHeaders?: readonly string[];
}

export interface Authenticator {
  readonly name: string;
  authenticate(req: AuthRequest): AuthResult | Promise<AuthResult>;
}

/** What a token checker may be asked beyond the token: the audiences a TokenReview names. */
export interface TokenContext {
  readonly audiences?: readonly string[];
}

/** A token's user; audience-aware checkers add the requested audiences the token is valid for. */
export type TokenUser = UserInfo & { readonly grantedAudiences?: readonly string[] };

/** Bearer-token checkers (static file, service accounts, bootstrap, OIDC, webhook) share this shape. */
export interface TokenAuthenticator {
  readonly name: string;
  /**
   * undefined = not this authenticator's token. Audience-aware checkers (bound service account tokens) check the
   * token against `ctx.audiences` when given and report `grantedAudiences`; the others ignore `ctx`, and their
   * tokens count for the API's own audiences only.
   */
  authenticateToken(token: string, ctx?: TokenContext): TokenUser | undefined | Promise<TokenUser | undefined>;
}

export const NO_OPINION: AuthResult = { kind: 'no-opinion' };
