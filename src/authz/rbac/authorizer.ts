/**
 * The RBAC authorizer (kube's plugin/pkg/auth/authorizer/rbac): allows when any rule of any binding that
 * applies to the user matches the request, with kube's reason
 * (`RBAC: allowed by ClusterRoleBinding "b" of ClusterRole "r" to User "u"`). It never denies: otherwise it
 * has no opinion, with `RBAC: <errors>` as the reason when some binding's role could not be resolved.
 */
import type { UserInfo } from '../../machinery/objects.ts';
import type { Attributes, Authorizer, Decision, NonResourceRule, ResourceRule, RulesResult } from '../../request/authorizer.ts';
import { aggregateText } from '../../registry/rbac/validation/covers.ts';
import { rulesFor, visitRulesFor, type RuleSource } from '../../registry/rbac/validation/resolver.ts';
import { ruleMatches, ruleRequest, type NormalRule } from '../../registry/rbac/validation/rules.ts';
import { describeBinding } from '../../registry/rbac/validation/subjects.ts';

export function rbacAuthorizer(src: RuleSource): Authorizer {
  return {
    name: 'RBAC',
    authorize: (attrs) => authorizeWith(src, attrs),
    rulesFor: (user, namespace) => rulesResult(src, user, namespace),
  };
}

export function authorizeWith(src: RuleSource, attrs: Attributes): Decision {
  const req = ruleRequest(attrs);
  let reason: string | undefined;
  let errors: string[] | undefined;
  visitRulesFor(src, attrs.user, attrs.namespace, (binding, subjectIndex, rules, error) => {
    if (rules) {
      for (let i = 0; i < rules.length; i++) {
        if (ruleMatches(req, rules[i]!)) {
          reason = `RBAC: allowed by ${describeBinding(binding, subjectIndex)}`;
          return false;
        }
      }
    }
    if (error) (errors ??= []).push(error);
    return true;
  });
  if (reason !== undefined) return { kind: 'allow', reason };
  return errors ? { kind: 'no-opinion', reason: `RBAC: ${aggregateText(errors)}` } : { kind: 'no-opinion' };
}

/** kube's RBACAuthorizer.RulesFor: resource and non-resource parts of every rule; never incomplete. */
export function rulesResult(src: RuleSource, user: UserInfo, namespace: string): RulesResult {
  const { rules, errors } = rulesFor(src, user, namespace);
  const resourceRules: ResourceRule[] = [];
  const nonResourceRules: NonResourceRule[] = [];
  for (const r of rules) {
    if (r.resources.length) resourceRules.push(resourceRule(r));
    if (r.nonResourceURLs.length) nonResourceRules.push({ verbs: [...r.verbs], nonResourceURLs: [...r.nonResourceURLs] });
  }
  return { resourceRules, nonResourceRules, incomplete: false, ...(errors.length ? { errors } : {}) };
}

/** Empty lists are left out, as the review's omitempty fields are. */
function resourceRule(r: NormalRule): ResourceRule {
  return {
    verbs: [...r.verbs],
    ...(r.apiGroups.length ? { apiGroups: [...r.apiGroups] } : {}),
    ...(r.resources.length ? { resources: [...r.resources] } : {}),
    ...(r.resourceNames.length ? { resourceNames: [...r.resourceNames] } : {}),
  };
}
