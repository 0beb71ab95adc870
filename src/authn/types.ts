/**
 * Authentication contract: tri-state results that fail closed. `error` means credentials were presented and
 * are wrong (401 even if anonymous access is on); `no-opinion` means this method found nothing to check.
 */
import type { UserInfo } from '../api/types.ts';
import type { TLSSocket } from 'node:tls';

export type AuthResult =
  | { readonly kind: 'authenticated'; readonly user: UserInfo; readonly method: string }
  | { readonly kind: 'no-opinion' }
  | { readonly kind: 'error'; readonly message: string };

/** The parts of a request authenticators may look at. */
export interface AuthRequest {
  header(name: string): string | undefined;
  /** The TLS socket of the connection (HTTP/1.1 socket or the HTTP/2 session's socket). */
  readonly tlsSocket?: TLSSocket;
  readonly path: string;
  /** Every header line as received (Node's `rawHeaders`: name, value, name, value, …): repeated headers stay apart. */
  readonly rawHeaders?: readonly string[];
}

export interface Authenticator {
  readonly name: string;
  authenticate(req: AuthRequest): AuthResult | Promise<AuthResult>;
}

/** Bearer-token checkers (static file, service accounts, bootstrap, OIDC, webhook) share this shape. */
export interface TokenAuthenticator {
  readonly name: string;
  /** undefined = not this authenticator's token. */
  authenticateToken(token: string): UserInfo | undefined | Promise<UserInfo | undefined>;
}

export const NO_OPINION: AuthResult = { kind: 'no-opinion' };
