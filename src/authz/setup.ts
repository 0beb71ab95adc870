/**
 * The request authorizer: `--authorization-config` when given, else the `--authorization-mode` list; both
 * behind the `system:masters` bypass. Modes register themselves (./register-all.ts).
 */
import type { Authorizer } from '../request/authorizer.ts';
import type { ResolvedOptions } from '../controlplane/options.ts';
import type { RestRegistry } from '../registry/rest.ts';
import { buildAuthorizer } from './modes.ts';
import { authorizationFromConfigFile } from './config/index.ts';
import './register-all.ts';

export interface AuthorizationDeps {
  readonly options: ResolvedOptions;
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

export async function buildRequestAuthorization(deps: AuthorizationDeps): Promise<RequestAuthorization> {
  const file = deps.options.authorizationConfigFile;
  if (file) return authorizationFromConfigFile(file, deps);
  const stops: (() => Promise<void>)[] = [];
  const readies: (() => Promise<void>)[] = [];
  const authorizer: Authorizer = await buildAuthorizer(deps.options.authorizationMode, {
    ...deps,
    onStop: (f: () => Promise<void>) => stops.push(f),
    onReady: (f: () => Promise<void>) => readies.push(f),
  });
  return {
    authorizer,
    ready: async () => { await Promise.all(readies.map((r) => r())); },
    stop: async () => { for (const s of stops.reverse()) await s(); },
  };
}
