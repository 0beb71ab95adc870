/**
 * Authorization contract: attributes of a request and tri-state decisions. Authorizers fail closed: anything
 * other than an explicit `allow` from some member ends in 403.
 */
import type { UserInfo } from '../api/types.ts';

/** What an authorizer sees (kube's authorizer.Attributes). */
export interface Attributes {
  readonly user: UserInfo;
  readonly verb: string;
  readonly isResourceRequest: boolean;
  /** Request path, for non-resource requests. */
  readonly path: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

export type Decision =
  | { readonly kind: 'allow'; readonly reason?: string }
  | { readonly kind: 'deny'; readonly reason: string }
  | { readonly kind: 'no-opinion'; readonly reason?: string };

export interface Authorizer {
  readonly name: string;
  authorize(attrs: Attributes): Decision | Promise<Decision>;
  /**
   * kube's RuleResolver: what `user` may do in `namespace` (SelfSubjectRulesReview, `kubectl auth can-i --list`).
   * Absent when the authorizer cannot list rules (kube's privileged-groups bypass, Node).
   */
  rulesFor?(user: UserInfo, namespace: string): RulesResult | Promise<RulesResult>;
}

/** authorizer.ResourceRuleInfo / NonResourceRuleInfo (wire shape of authorization.k8s.io/v1 rules). */
export interface ResourceRule {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
}

export interface NonResourceRule {
  readonly verbs: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

/** Rules an authorizer grants; `incomplete` when it could not list all; `errors` are evaluation errors. */
export interface RulesResult {
  readonly resourceRules: readonly ResourceRule[];
  readonly nonResourceRules: readonly NonResourceRule[];
  readonly incomplete: boolean;
  readonly errors?: readonly string[];
}

export const allow = (reason?: string): Decision => ({ kind: 'allow', reason });
export const deny = (reason: string): Decision => ({ kind: 'deny', reason });
export const noOpinion = (reason?: string): Decision => ({ kind: 'no-opinion', reason });
