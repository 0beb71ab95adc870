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

/** A rule source that counts its changes: any role or binding added, changed or removed bumps `revision`. */
export interface RevisionedRuleSource extends RuleSource {
  readonly revision: number;
}

function hasRevision(src: RuleSource): src is RevisionedRuleSource {
  return typeof (src as Partial<RevisionedRuleSource>).revision === 'number';
}

/** Decisions kept per RBAC revision; past this many distinct requests the cache starts over. */
const DECISION_CACHE_SIZE = 8192;

/**
 * Everything a decision depends on: the user's name and groups (the only subject keys, see subjects.ts) and
 * the request as ruleRequest() reads it. RBAC ignores the version, extras and selectors.
 */
function decisionKey(a: Attributes): string {
  const target = a.isResourceRequest ? `r\0${a.namespace}\0${a.apiGroup}\0${a.resource}\0${a.subresource}\0${a.name}` : `n\0${a.path}`;
  return `${a.user.username}\0${a.user.groups.join('\u0001')}\0${a.verb}\0${target}`;
}

export function rbacAuthorizer(src: RuleSource): Authorizer {
  // Repeated requests of one credential ask the same question: the answer holds until the rule source changes.
  const cache = new Map<string, Decision>();
  let cachedAt = -1;
  const authorize = (attrs: Attributes): Decision => {
    if (!hasRevision(src)) return authorizeWith(src, attrs);
    if (src.revision !== cachedAt || cache.size >= DECISION_CACHE_SIZE) {
      cache.clear();
      cachedAt = src.revision;
    }
    const key = decisionKey(attrs);
    let d = cache.get(key);
    // Shared by every request that asks the same question: frozen rather than copied per request.
    if (!d) cache.set(key, (d = Object.freeze(authorizeWith(src, attrs))));
    return d;
  };
  return {
    name: 'RBAC',
    authorize,
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
