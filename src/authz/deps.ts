/**
 * What authorization builders receive from the composition root and what they return: built once in
 * src/controlplane/start.ts after the registry (RBAC and Node read through it) and before the listener.
 */
import type { RestRegistry } from '../registry/rest.ts';
import type { Authorizer } from '../request/authorizer.ts';
import type { AuthzServerOptions } from './options.ts';

export interface AuthorizationDeps {
  readonly options: AuthzServerOptions;
  /** RBAC reads roles and bindings, Node reads pods, nodes and volumes through it. */
  readonly registry: RestRegistry;
  readonly log: (line: string) => void;
}

export interface RequestAuthorization {
  readonly authorizer: Authorizer;
  /** Resolves once the authorizer's caches (roles, bindings, node graph) have loaded. */
  ready(): Promise<void>;
  stop(): Promise<void>;
}
