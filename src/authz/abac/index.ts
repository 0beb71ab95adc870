/**
 * `--authorization-mode=ABAC` with `--authorization-policy-file` (kube's abac.PolicyList): a request is allowed
 * when some policy matches its subject, verb class and resource or non-resource path; otherwise no opinion
 * with kube's reason "No policy matched.". Read-only requests (get, list, watch) pass the verb check of any
 * policy; others need `readonly: false`. The file is read once at start, as kube-apiserver does.
 */
import type { UserInfo } from '../../machinery/objects.ts';
import type { Attributes, Authorizer, NonResourceRule, ResourceRule, RulesResult } from '../../request/authorizer.ts';
import { registerAuthorizationMode } from '../modes.ts';
import { loadPolicyFile, type PolicySpec } from './policy.ts';

export { parsePolicies, loadPolicyFile, PolicyLoadError, type PolicySpec } from './policy.ts';

const READ_ONLY = new Set(['get', 'list', 'watch']);

function subjectMatches(p: PolicySpec, user: UserInfo): boolean {
  let matched = false;
  if (p.user) {
    if (p.user === '*') matched = true;
    else if (p.user !== user.username) return false;
    else matched = true;
  }
  if (p.group) {
    if (p.group === '*') matched = true;
    else if (!user.groups.includes(p.group)) return false;
    else matched = true;
  }
  return matched;
}

function resourceMatches(p: PolicySpec, a: Attributes): boolean {
  return a.isResourceRequest
    && (p.namespace === '*' || p.namespace === a.namespace)
    && (p.resource === '*' || p.resource === a.resource)
    && (p.apiGroup === '*' || p.apiGroup === a.apiGroup);
}

function nonResourceMatches(p: PolicySpec, a: Attributes): boolean {
  if (a.isResourceRequest) return false;
  const np = p.nonResourcePath;
  if (np === '*' || np === a.path) return true;
  return np.endsWith('*') && a.path.startsWith(np.replace(/\*+$/, ''));
}

export function policyMatches(p: PolicySpec, a: Attributes): boolean {
  if (!subjectMatches(p, a.user)) return false;
  if (!READ_ONLY.has(a.verb) && p.readonly) return false;
  return resourceMatches(p, a) || nonResourceMatches(p, a);
}

const verbsFor = (readonly: boolean): string[] => (readonly ? ['get', 'list', 'watch'] : ['*']);

export function abacAuthorizer(policies: readonly PolicySpec[]): Authorizer {
  return {
    name: 'ABAC',
    authorize: (a) => (policies.some((p) => policyMatches(p, a)) ? { kind: 'allow' } : { kind: 'no-opinion', reason: 'No policy matched.' }),
    rulesFor(user: UserInfo, namespace: string): RulesResult {
      const resourceRules: ResourceRule[] = [];
      const nonResourceRules: NonResourceRule[] = [];
      for (const p of policies) {
        if (!subjectMatches(p, user) || (p.namespace !== '*' && p.namespace !== namespace)) continue;
        if (p.resource) resourceRules.push({ verbs: verbsFor(p.readonly), apiGroups: [p.apiGroup], resources: [p.resource] });
        if (p.nonResourcePath) nonResourceRules.push({ verbs: verbsFor(p.readonly), nonResourceURLs: [p.nonResourcePath] });
      }
      return { resourceRules, nonResourceRules, incomplete: false };
    },
  };
}

registerAuthorizationMode('ABAC', async (deps) => {
  const file = deps.options?.authorizationPolicyFile;
  if (!file) throw new Error("authorization-mode ABAC's authorization policy file not passed");
  const { policies, unversionedLines } = await loadPolicyFile(file);
  if (unversionedLines > 0) {
    deps.log?.(`Policy file ${file} contained unversioned rules. See docs/admin/authorization.md#abac-mode for ABAC file format details.`);
  }
  return abacAuthorizer(policies);
});
