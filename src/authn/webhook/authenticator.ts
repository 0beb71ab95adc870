/**
 * kube's webhook token authenticator with its cache: POST a TokenReview (`spec.token`, `spec.audiences`) and
 * trust `status.user` when `status.authenticated`. Audiences: when the server has API audiences, the reply's
 * `status.audiences` (or, when absent, the API audiences themselves) must intersect them.
 *
 * Cache (kube's cached token authenticator for webhooks): authenticated and not-authenticated answers are kept
 * for `cacheTtlMs`, keyed by a hash of audiences and token; errors (unreachable webhook, malformed reply, a
 * reply with `status.error`) are never cached.
 */
import { createHash } from 'node:crypto';
import type { UserInfo } from '../../machinery/objects.ts';
import type { TokenAuthenticator } from '../../request/authenticator.ts';
import type { WebhookConnection } from '../../webhook/kubeconfig.ts';
import { callWebhook, type RetryBackoff } from '../../webhook/call.ts';
import { TtlCache } from '../../webhook/ttl-cache.ts';

export interface TokenWebhookOptions {
  readonly connection: WebhookConnection;
  readonly version: 'v1' | 'v1beta1';
  readonly cacheTtlMs: number;
  /** `--api-audiences`; empty = no audience check. */
  readonly apiAudiences: readonly string[];
  readonly timeoutMs: number;
  readonly backoff?: RetryBackoff;
  readonly log?: (line: string) => void;
  readonly now?: () => number;
}

type Outcome = { user: UserInfo } | { user: undefined };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads the reply; throws for a reply that is not a TokenReview of `version` or whose user is malformed. */
export function tokenReviewOutcome(body: unknown, version: string, apiAudiences: readonly string[]): Outcome {
  if (!isObj(body)) throw new Error('webhook reply is not a JSON object');
  const want = `authentication.k8s.io/${version}`;
  if (body.apiVersion !== undefined && body.apiVersion !== want) throw new Error(`webhook reply has apiVersion ${JSON.stringify(body.apiVersion)}, expected ${JSON.stringify(want)}`);
  if (body.kind !== undefined && body.kind !== 'TokenReview') throw new Error(`webhook reply has kind ${JSON.stringify(body.kind)}, expected "TokenReview"`);
  const s = isObj(body.status) ? body.status : {};
  if (s.authenticated !== true) {
    if (typeof s.error === 'string' && s.error) throw new Error(s.error);
    return { user: undefined };
  }
  if (apiAudiences.length) {
    const got = Array.isArray(s.audiences) && s.audiences.length ? s.audiences.filter((a): a is string => typeof a === 'string') : apiAudiences;
    if (!got.some((a) => apiAudiences.includes(a))) return { user: undefined };
  }
  const u = isObj(s.user) ? s.user : {};
  if (typeof u.username !== 'string' || u.username === '') throw new Error('webhook reply: status.user.username is required');
  const user: UserInfo = { username: u.username, groups: Array.isArray(u.groups) ? u.groups.filter((g): g is string => typeof g === 'string') : [] };
  if (typeof u.uid === 'string' && u.uid) user.uid = u.uid;
  if (isObj(u.extra)) {
    const extra: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(u.extra)) if (Array.isArray(v)) extra[k] = v.filter((x): x is string => typeof x === 'string');
    if (Object.keys(extra).length) user.extra = extra;
  }
  return { user };
}

export function tokenWebhookAuthenticator(o: TokenWebhookOptions): TokenAuthenticator {
  const cache = new TtlCache<Outcome>(4096, o.now);
  return {
    name: 'webhook',
    async authenticateToken(token: string): Promise<UserInfo | undefined> {
      const key = createHash('sha256').update(JSON.stringify([o.apiAudiences, token])).digest('base64');
      const hit = cache.get(key);
      if (hit) return hit.user;
      const spec: Record<string, unknown> = { token };
      if (o.apiAudiences.length) spec.audiences = [...o.apiAudiences];
      const body = { apiVersion: `authentication.k8s.io/${o.version}`, kind: 'TokenReview', metadata: { creationTimestamp: null }, spec, status: { user: {} } };
      let outcome: Outcome;
      try {
        const r = await callWebhook({ connection: o.connection, body, timeoutMs: o.timeoutMs, backoff: o.backoff });
        outcome = tokenReviewOutcome(r.body, o.version, o.apiAudiences);
      } catch (e) {
        o.log?.(`Failed to make webhook authenticator request: ${(e as Error).message}`);
        return undefined;
      }
      cache.set(key, outcome, o.cacheTtlMs);
      return outcome.user;
    },
  };
}
