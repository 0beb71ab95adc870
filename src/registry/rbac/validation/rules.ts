/**
 * RBAC rule matching, as kube's `RuleAllows` (plugin/pkg/auth/authorizer/rbac) and the rbac/v1 helpers:
 * - verbs and apiGroups: `*` or an exact entry;
 * - resources: `*`, the exact `<resource>` or `<resource>/<subresource>`, or star-slash-`<subresource>` for a
 *   sub-resource request (kube has no `<resource>`-slash-star form: such an entry only matches itself);
 * - resourceNames: an empty list does not restrict; otherwise the request's name must be listed, so a rule
 *   with names never matches create, list, watch or deletecollection (their requests carry no name);
 * - nonResourceURLs: `*`, exact, or a trailing `*` matching any path with that prefix.
 */
import type { Attributes } from '../../../request/authorizer.ts';

/** rbac/v1 PolicyRule as stored (every list optional on the wire). */
export interface PolicyRule {
  readonly verbs?: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

const EMPTY: readonly string[] = Object.freeze([]);

/** A rule with every list present, so matching never tests for undefined. */
export interface NormalRule {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

/** Non-string entries (bad stored data) are dropped rather than trusted. */
function strings(v: unknown): readonly string[] {
  if (!Array.isArray(v) || v.length === 0) return EMPTY;
  return v.every((x) => typeof x === 'string') ? (v as string[]) : v.filter((x): x is string => typeof x === 'string');
}

export function normalizeRule(r: unknown): NormalRule {
  const o = (r && typeof r === 'object' ? r : {}) as Record<string, unknown>;
  return {
    verbs: strings(o['verbs']),
    apiGroups: strings(o['apiGroups']),
    resources: strings(o['resources']),
    resourceNames: strings(o['resourceNames']),
    nonResourceURLs: strings(o['nonResourceURLs']),
  };
}

export function normalizeRules(rules: unknown): NormalRule[] {
  return Array.isArray(rules) ? rules.map(normalizeRule) : [];
}

function has(list: readonly string[], s: string): boolean {
  for (let i = 0; i < list.length; i++) if (list[i] === s) return true;
  return false;
}

export function verbMatches(rule: NormalRule, verb: string): boolean {
  return has(rule.verbs, '*') || has(rule.verbs, verb);
}

export function apiGroupMatches(rule: NormalRule, group: string): boolean {
  return has(rule.apiGroups, '*') || has(rule.apiGroups, group);
}

/** `combined` is `<resource>` or `<resource>/<subresource>`; `sub` the sub-resource alone ('' for none). */
export function resourceMatches(rule: NormalRule, combined: string, sub: string): boolean {
  for (const r of rule.resources) {
    if (r === '*' || r === combined) return true;
    if (sub && r.length === sub.length + 2 && r.startsWith('*/') && r.endsWith(sub)) return true;
  }
  return false;
}

export function resourceNameMatches(rule: NormalRule, name: string): boolean {
  return rule.resourceNames.length === 0 || has(rule.resourceNames, name);
}

export function nonResourceURLMatches(rule: NormalRule, path: string): boolean {
  for (const u of rule.nonResourceURLs) {
    if (u === '*' || u === path) return true;
    if (u.endsWith('*') && path.startsWith(trimStars(u))) return true;
  }
  return false;
}

/** Go's strings.TrimRight(s, "*"). */
export function trimStars(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 42) end--;
  return s.slice(0, end);
}

/** The parts of a request rule matching reads, computed once per request (not once per rule). */
export interface RuleRequest {
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly apiGroup: string;
  /** `<resource>` or `<resource>/<subresource>`. */
  readonly combined: string;
  readonly subresource: string;
  readonly name: string;
}

export function ruleRequest(a: Attributes): RuleRequest {
  return {
    verb: a.verb,
    isResourceRequest: a.isResourceRequest,
    path: a.path,
    apiGroup: a.apiGroup,
    combined: a.subresource ? `${a.resource}/${a.subresource}` : a.resource,
    subresource: a.subresource,
    name: a.name,
  };
}

export function ruleMatches(r: RuleRequest, rule: NormalRule): boolean {
  if (!verbMatches(rule, r.verb)) return false;
  if (!r.isResourceRequest) return nonResourceURLMatches(rule, r.path);
  return apiGroupMatches(rule, r.apiGroup) && resourceMatches(rule, r.combined, r.subresource) && resourceNameMatches(rule, r.name);
}

/** kube's RuleAllows. */
export function ruleAllows(a: Attributes, rule: NormalRule): boolean {
  return ruleMatches(ruleRequest(a), rule);
}
