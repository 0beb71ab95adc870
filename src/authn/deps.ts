/**
 * What authenticator builders may use from the server. Built once in start.ts, after the registry (service
 * account lookup, bootstrap-token secrets) and before the listener.
 */
import type { AuthnServerOptions } from './options.ts';
import type { RestRegistry } from '../registry/rest.ts';
import type { Endpoint } from '../request/context.ts';
import type { Authenticator, TokenAuthenticator } from '../request/authenticator.ts';

export interface AuthenticationDeps {
  readonly options: AuthnServerOptions;
  /** PEM CA bundles whose client certificates authenticate users (ours plus `--client-ca-file`). */
  readonly clientCaPems: readonly string[];
  readonly registry: RestRegistry;
  readonly log: (line: string) => void;
}

/** One authentication method's contribution: token checkers, whole-request authenticators, endpoints, cleanup. */
export interface AuthenticationPart {
  /** Bearer-token checkers, in the order they are asked. */
  readonly tokens?: readonly TokenAuthenticator[];
  /** Authenticators looking at the whole request (request-header proxy), asked before client certificates. */
  readonly requestAuthenticators?: readonly Authenticator[];
  /** Endpoints served through the chain (e.g. `/.well-known/openid-configuration`, `/openid/v1/jwks`). */
  readonly endpoints?: readonly Endpoint[];
  /** Timers, watches and file watchers the part owns. */
  stop?(): Promise<void>;
}
