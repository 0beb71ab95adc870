/**
 * Authorization contract: attributes of a request and tri-state decisions. Authorizers fail closed: anything
 * other than an explicit `allow` from some member ends in 403.
 */
import type { UserInfo } from '../machinery/objects.ts';
import type { FieldRequirement } from '../machinery/selectors/fields.ts';
import type { LabelRequirement } from '../machinery/selectors/labels.ts';

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
  /**
   * kube's GetFieldSelector / GetLabelSelector: the request's selectors, parsed, for list, watch and
   * deletecollection (not the verb-in-path `/watch/` form). Absent when the request had none (or only an empty
   * one). Authorizers honour them only with the `AuthorizeWithSelectors` gate (Node also needs
   * `AuthorizeNodeWithSelectors`); they can only narrow a request, never widen it.
   */
  readonly fieldSelectorRequirements?: readonly FieldRequirement[];
  /** Why the field selector could not be parsed (requirements are then absent). */
  readonly fieldSelectorParsingError?: string;
  readonly labelSelectorRequirements?: readonly LabelRequirement[];
  readonly labelSelectorParsingError?: string;
}

/**
 * `error` is kube's third return value: an evaluation failure (webhook unreachable, malformed reply, match
 * condition error). It travels with the decision; when nothing allows the request and an error was seen, the
 * request filter answers 500 as kube-apiserver does, and access reviews report it as `evaluationError`.
 */
export type Decision =
  | { readonly kind: 'allow'; readonly reason?: string; readonly error?: string; readonly decidedBy?: DecidedBy }
  | { readonly kind: 'deny'; readonly reason: string; readonly error?: string; readonly decidedBy?: DecidedBy }
  | { readonly kind: 'no-opinion'; readonly reason?: string; readonly error?: string };

/** Which configured authorizer made a terminal decision (apiserver_authorization_decisions_total's type and name). */
export interface DecidedBy {
  readonly type: string;
  readonly name: string;
}

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
