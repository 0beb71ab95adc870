/**
 * Rule coverage as kube's RBAC `validation.Covers` computes it: the servant rules are broken down into
 * one-verb, one-group, one-resource (one-name / one-URL) sub-rules, and each sub-rule is covered when a single
 * owner rule grants all of it. Reconciliation appends exactly the uncovered sub-rules to an existing role, so
 * the broken-down shape is what users see after a start restored a removed permission.
 */
import type { PolicyRule } from './rule.ts';

const has = (set: readonly string[] | undefined, x: string): boolean => (set ?? []).includes(x);
const hasAll = (set: readonly string[] | undefined, xs: readonly string[] | undefined): boolean => (xs ?? []).every((x) => has(set, x));

/** kube's BreakdownRule, in kube's loop order (group → resource → verb → name, then URL → verb). */
export function breakdownRule(r: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of r.apiGroups ?? []) {
    for (const resource of r.resources ?? []) {
      for (const verb of r.verbs ?? []) {
        if (r.resourceNames?.length) {
          for (const name of r.resourceNames) out.push({ verbs: [verb], apiGroups: [group], resources: [resource], resourceNames: [name] });
        } else {
          out.push({ verbs: [verb], apiGroups: [group], resources: [resource] });
        }
      }
    }
  }
  for (const url of r.nonResourceURLs ?? []) {
    for (const verb of r.verbs ?? []) out.push({ verbs: [verb], nonResourceURLs: [url] });
  }
  return out;
}

function resourceCoversAll(set: readonly string[] | undefined, covers: readonly string[] | undefined): boolean {
  if (has(set, '*') || hasAll(set, covers)) return true;
  for (const path of covers ?? []) {
    if (has(set, path)) continue;
    const slash = path.indexOf('/');
    // `*/status` covers the status subresource of every resource.
    if (slash < 0 || !has(set, `*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function nonResourceURLCovers(owner: string, sub: string): boolean {
  return owner === sub || (owner.endsWith('*') && sub.startsWith(owner.replace(/\*+$/, '')));
}

export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, '*') || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, '*') || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources, sub.resources);
  const urls = (sub.nonResourceURLs ?? []).every((u) => (owner.nonResourceURLs ?? []).some((o) => nonResourceURLCovers(o, u)));
  const ownerNames = owner.resourceNames ?? [];
  const names = ownerNames.length === 0 || ((sub.resourceNames ?? []).length > 0 && hasAll(ownerNames, sub.resourceNames));
  return verbs && groups && resources && urls && names;
}

/**
 * One owner rule that grants a whole servant rule grants each of its sub-rules (each sub-rule's verbs, groups,
 * resources, names and URLs are subsets of the rule's). The exception: an owner restricted to resourceNames
 * covers no URL sub-rule, so such pairs take the slow path.
 */
function coversWhole(owner: PolicyRule, r: PolicyRule): boolean {
  if (owner.resourceNames?.length && r.nonResourceURLs?.length) return false;
  return ruleCovers(owner, r);
}

/** Whether `owner` covers every rule of `servant`, and the broken-down sub-rules it does not cover. */
export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): { covered: boolean; uncovered: PolicyRule[] } {
  const uncovered: PolicyRule[] = [];
  for (let i = 0; i < servant.length; i++) {
    const r = servant[i]!;
    // Reconciling an unchanged default role: the owner rule at the same place grants it whole, so the
    // per-sub-rule search (quadratic in the rules, times the breakdown) is skipped.
    const same = owner[i];
    if (same && coversWhole(same, r)) continue;
    if (owner.some((o) => coversWhole(o, r))) continue;
    for (const sub of breakdownRule(r)) {
      if (!owner.some((o) => ruleCovers(o, sub))) uncovered.push(sub);
    }
  }
  return { covered: uncovered.length === 0, uncovered };
}
