/**
 * The `--authorization-mode` registry: each mode name maps to a factory. RBAC, Node, Webhook and ABAC slot in
 * by calling `registerAuthorizationMode` from their own module; until they do, asking for them is refused by
 * the CLI by name.
 */
import type { Authorizer } from '../request/authorizer.ts';
import type { AuthzServerOptions } from './options.ts';
import type { RestRegistry } from '../registry/rest.ts';
import { privilegedGroups, unionAuthorizer } from './union.ts';

/**
 * What a mode may need from the server. Every field is optional so tests can build modes alone; start.ts
 * passes all of them (src/authz/setup.ts).
 */
export interface AuthorizerDeps {
  readonly options?: AuthzServerOptions;
  /** Roles, bindings, pods, nodes… are read (and watched) through it. */
  readonly registry?: RestRegistry;
  readonly log?: (line: string) => void;
  /** Register cleanup (informers, timers) run when the server stops. */
  readonly onStop?: (stop: () => Promise<void>) => void;
  /** Register a wait for caches to load before the server reports ready. */
  readonly onReady?: (ready: () => Promise<void>) => void;
}

export type AuthorizerFactory = (deps: AuthorizerDeps) => Authorizer | Promise<Authorizer>;

const factories = new Map<string, AuthorizerFactory>();

export function registerAuthorizationMode(name: string, factory: AuthorizerFactory): void {
  factories.set(name, factory);
}

export function knownAuthorizationModes(): string[] {
  return [...factories.keys()];
}

// kube's alwaysAllowAuthorizer.RulesFor: everything, for resources and non-resource URLs.
registerAuthorizationMode('AlwaysAllow', () => ({
  name: 'AlwaysAllow',
  authorize: () => ({ kind: 'allow' }),
  rulesFor: () => ({
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
  }),
}));
// kube's alwaysDenyAuthorizer reason, shown after the forbidden message; it lists no rules (complete).
registerAuthorizationMode('AlwaysDeny', () => ({
  name: 'AlwaysDeny',
  authorize: () => ({ kind: 'no-opinion', reason: 'Everything is forbidden.' }),
  rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
}));

/** Builds the authorizer for `--authorization-mode`: `system:masters` first, then the modes in order. */
export async function buildAuthorizer(modes: readonly string[], deps: AuthorizerDeps = {}): Promise<Authorizer> {
  const members: Authorizer[] = [privilegedGroups(['system:masters'])];
  for (const m of modes) {
    const f = factories.get(m);
    if (!f) throw new Error(`--authorization-mode: ${m} authorization is not implemented yet`);
    members.push(await f(deps));
  }
  return unionAuthorizer(members);
}
