/**
 * Builds the authorizer chain an AuthorizationConfiguration describes: `system:masters` first, then each
 * entry in order. Webhooks are built fresh for every configuration (new caches); the other modes come from
 * the registered `--authorization-mode` factories and are built once and shared across reloads (kube keeps
 * one Node graph and one RBAC authorizer for the server's life).
 */
import type { Authorizer } from '../../request/authorizer.ts';
import { buildAuthorizer, type AuthorizerDeps } from '../modes.ts';
import { privilegedGroups, unionAuthorizer } from '../union.ts';
import { webhookAuthorizer, selectorsEnabled } from '../webhook/index.ts';
import { loadKubeconfigConnection, type WebhookConnection } from '../../webhook/kubeconfig.ts';
import type { AuthorizerEntry, WebhookSettings } from './load.ts';

export async function connectionFor(w: WebhookSettings): Promise<WebhookConnection> {
  return loadKubeconfigConnection(w.connection.kubeConfigFile);
}

/** Non-webhook authorizers by type, built on first use with the server's deps. */
export class ModeCache {
  private readonly built = new Map<string, Promise<Authorizer>>();
  constructor(private readonly deps: AuthorizerDeps) {}

  get(type: string): Promise<Authorizer> {
    let a = this.built.get(type);
    if (!a) {
      // buildAuthorizer wraps the mode behind the system:masters bypass, which the chain already has: harmless.
      a = buildAuthorizer([type], this.deps);
      this.built.set(type, a);
      a.catch(() => this.built.delete(type));
    }
    return a;
  }
}

/**
 * `allowedTypes`: on reload, the non-webhook types of the initial file (kube builds Node, RBAC and ABAC only
 * at start-up, so a reload cannot bring in one that was not there).
 */
export async function buildChain(entries: readonly AuthorizerEntry[], modes: ModeCache, deps: AuthorizerDeps, allowedTypes?: ReadonlySet<string>): Promise<Authorizer> {
  const members: Authorizer[] = [privilegedGroups(['system:masters'])];
  const selectors = selectorsEnabled(deps);
  for (const e of entries) {
    if (e.type === 'Webhook' && e.webhook) {
      const w = e.webhook;
      members.push(webhookAuthorizer({
        name: e.name, connection: await connectionFor(w), version: w.subjectAccessReviewVersion, authorizedTtlMs: w.authorizedTtlMs,
        unauthorizedTtlMs: w.unauthorizedTtlMs, timeoutMs: w.timeoutMs, failurePolicy: w.failurePolicy, matchConditions: w.matchConditions,
        selectors, log: deps.log,
      }));
    } else {
      const startOnly = e.type === 'Node' || e.type === 'RBAC' || e.type === 'ABAC';
      if (startOnly && allowedTypes && !allowedTypes.has(e.type)) throw new Error(`authorizer type ${e.type} is not allowed if it was not enabled at initial server startup`);
      members.push(await modes.get(e.type));
    }
  }
  return unionAuthorizer(members);
}
