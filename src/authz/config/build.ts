/**
 * Builds the authorizer chain an AuthorizationConfiguration describes: `system:masters` first, then each
 * entry in order. Webhooks are built fresh for every configuration (new caches); the other modes come from
 * the registered `--authorization-mode` factories and are built once and shared across reloads (kube keeps
 * one Node graph and one RBAC authorizer for the server's life).
 */
import { readFile } from 'node:fs/promises';
import type { Authorizer } from '../types.ts';
import { buildAuthorizer, type AuthorizerDeps } from '../modes.ts';
import { privilegedGroups, unionAuthorizer } from '../union.ts';
import { webhookAuthorizer, selectorsEnabled } from '../webhook/index.ts';
import { loadKubeconfigConnection, type WebhookConnection } from '../../webhook/kubeconfig.ts';
import type { AuthorizerEntry, WebhookSettings } from './load.ts';

const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** client-go's rest.InClusterConfig. */
async function inClusterConnection(): Promise<WebhookConnection> {
  const host = process.env.KUBERNETES_SERVICE_HOST;
  const port = process.env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) throw new Error('unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined');
  const [token, caPem] = await Promise.all([readFile(`${SA_DIR}/token`, 'utf8'), readFile(`${SA_DIR}/ca.crt`, 'utf8')]);
  return { url: `https://${host.includes(':') ? `[${host}]` : host}:${port}`, tokenBearer: token.trim(), caPem };
}

export async function connectionFor(w: WebhookSettings): Promise<WebhookConnection> {
  return w.connection.type === 'KubeConfigFile' ? loadKubeconfigConnection(w.connection.kubeConfigFile) : inClusterConnection();
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

export async function buildChain(entries: readonly AuthorizerEntry[], modes: ModeCache, deps: AuthorizerDeps): Promise<Authorizer> {
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
      members.push(await modes.get(e.type));
    }
  }
  return unionAuthorizer(members);
}
