/**
 * kube's WebhookAuthorizer: build a SubjectAccessReview from the attributes, check the match conditions, answer
 * from the cache or POST it to the remote service, and map the reply: denied → deny (stops the chain),
 * allowed → allow, otherwise no opinion. A failed call, a malformed reply or a match-condition error gives
 * the failure policy's decision with the error attached (Decision.error). Allowed replies are cached for
 * `authorizedTtlMs`, the rest for `unauthorizedTtlMs`, keyed by the whole spec.
 */
import type { Attributes, Authorizer, Decision } from '../../request/authorizer.ts';
import type { WebhookConnection } from '../../webhook/kubeconfig.ts';
import { callWebhook, type RetryBackoff } from '../../webhook/call.ts';
import { TtlCache } from '../../webhook/ttl-cache.ts';
import { sarBody, sarSpecFrom, sarStatusFrom, type SarStatus } from './sar.ts';
import { evaluateMatchConditions, type CompiledMatchConditions } from './match.ts';

/** kube skips the cache when requester-controlled attributes are this large (DoS guard). */
const MAX_CONTROLLED_ATTR_CACHE_SIZE = 10000;

export interface WebhookAuthorizerOptions {
  /** The authorizer's name (configuration `name`; `webhook` for the flag form). */
  readonly name: string;
  readonly connection: WebhookConnection;
  readonly version: 'v1' | 'v1beta1';
  readonly authorizedTtlMs: number;
  readonly unauthorizedTtlMs: number;
  /** Per attempt. */
  readonly timeoutMs: number;
  readonly failurePolicy: 'NoOpinion' | 'Deny';
  readonly matchConditions?: CompiledMatchConditions;
  /** AuthorizeWithSelectors: pass list/watch selector requirements. */
  readonly selectors: boolean;
  readonly backoff?: RetryBackoff;
  readonly log?: (line: string) => void;
  /** For tests: the cache's clock. */
  readonly now?: () => number;
}

function controlledSize(a: Attributes): number {
  return a.namespace.length + a.verb.length + a.apiGroup.length + a.apiVersion.length + a.resource.length
    + a.subresource.length + a.name.length + a.path.length;
}

export function webhookAuthorizer(o: WebhookAuthorizerOptions): Authorizer {
  const cache = new TtlCache<SarStatus>(8192, o.now);
  const onError = (error: string): Decision => {
    o.log?.(`Failed to make webhook authorizer request: ${error}`);
    return o.failurePolicy === 'Deny' ? { kind: 'deny', reason: '', error } : { kind: 'no-opinion', error };
  };
  return {
    name: o.name,
    async authorize(attrs: Attributes): Promise<Decision> {
      const spec = sarSpecFrom(attrs, o.selectors);
      if (o.matchConditions?.programs.length) {
        try {
          if (!evaluateMatchConditions(o.matchConditions, spec)) return { kind: 'no-opinion' };
        } catch (e) {
          return onError((e as Error).message);
        }
      }
      const key = JSON.stringify(spec);
      let status = cache.get(key);
      if (!status) {
        try {
          const r = await callWebhook({ connection: o.connection, body: sarBody(spec, o.version), timeoutMs: o.timeoutMs, backoff: o.backoff });
          status = sarStatusFrom(r.body, o.version);
        } catch (e) {
          return onError((e as Error).message);
        }
        if (controlledSize(attrs) < MAX_CONTROLLED_ATTR_CACHE_SIZE) {
          cache.set(key, status, status.allowed ? o.authorizedTtlMs : o.unauthorizedTtlMs);
        }
      }
      if (status.denied && status.allowed) {
        return { kind: 'deny', reason: status.reason ?? '', error: 'webhook subject access review returned both allow and deny response' };
      }
      if (status.denied) return { kind: 'deny', reason: status.reason ?? '' };
      if (status.allowed) return { kind: 'allow', reason: status.reason };
      return { kind: 'no-opinion', reason: status.reason };
    },
    // kube's webhook RulesFor: nothing, incomplete, with this error.
    rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: true, errors: ['webhook authorizer does not support user rule resolution'] }),
  };
}
