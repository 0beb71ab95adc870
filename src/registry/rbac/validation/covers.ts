/**
 * Escalation checks' rule arithmetic, as kube's component-helpers/auth/rbac/validation (`Covers`,
 * `BreakdownRule`) and pkg/registry/rbac/validation (`CompactRules`, `CompactString`, the message of
 * `ConfirmNoEscalation`).
 *
 * `covers(owner, servant)` breaks every servant rule into single (group, resource, verb[, name]) and
 * (url, verb) rules and keeps those no owner rule covers. Coverage is stricter than matching: an owner rule
 * restricted to resourceNames does not cover an unrestricted rule, and `*` \/ `*\/sub` are the only wildcards
 * for resources (a `<url>*` owner covers URLs with that prefix).
 */
import { normalizeRule, trimStars, type NormalRule, type PolicyRule } from './rules.ts';
import { goQuoteList, goQuote } from '../../../machinery/go-quote.ts';

function has(set: readonly string[], s: string): boolean {
  for (let i = 0; i < set.length; i++) if (set[i] === s) return true;
  return false;
}

function hasAll(set: readonly string[], contains: readonly string[]): boolean {
  for (const c of contains) if (!has(set, c)) return false;
  return true;
}

/** One rule per (apiGroup, resource, verb[, resourceName]) and per (nonResourceURL, verb). */
export function breakdownRule(rule: PolicyRule): NormalRule[] {
  const r = normalizeRule(rule);
  const out: NormalRule[] = [];
  for (const group of r.apiGroups) {
    for (const resource of r.resources) {
      for (const verb of r.verbs) {
        if (r.resourceNames.length > 0) {
          for (const name of r.resourceNames) out.push(single({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] }));
        } else {
          out.push(single({ apiGroups: [group], resources: [resource], verbs: [verb] }));
        }
      }
    }
  }
  for (const url of r.nonResourceURLs) for (const verb of r.verbs) out.push(single({ nonResourceURLs: [url], verbs: [verb] }));
  return out;
}

const single = (r: PolicyRule): NormalRule => normalizeRule(r);

function resourceCoversAll(set: readonly string[], covers: readonly string[]): boolean {
  if (has(set, '*') || hasAll(set, covers)) return true;
  for (const path of covers) {
    if (has(set, path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!has(set, `*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function nonResourceURLCovers(owner: string, sub: string): boolean {
  return owner === sub || (owner.endsWith('*') && sub.startsWith(trimStars(owner)));
}

function nonResourceURLsCoversAll(set: readonly string[], covers: readonly string[]): boolean {
  return covers.every((p) => set.some((o) => nonResourceURLCovers(o, p)));
}

/** kube's ruleCovers: does `owner` hold everything `sub` grants? */
export function ruleCovers(owner: NormalRule, sub: NormalRule): boolean {
  const verbs = has(owner.verbs, '*') || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, '*') || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources, sub.resources);
  const urls = nonResourceURLsCoversAll(owner.nonResourceURLs, sub.nonResourceURLs);
  const names = sub.resourceNames.length === 0
    ? owner.resourceNames.length === 0
    : owner.resourceNames.length === 0 || hasAll(owner.resourceNames, sub.resourceNames);
  return verbs && groups && resources && urls && names;
}

/** Whether `owner` covers every rule of `servant`, and the broken-down rules it does not cover. */
export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): { covered: boolean; missing: NormalRule[] } {
  const owners = owner.map(normalizeRule);
  const missing: NormalRule[] = [];
  for (const s of servant) {
    for (const sub of breakdownRule(s)) if (!owners.some((o) => ruleCovers(o, sub))) missing.push(sub);
  }
  return { covered: missing.length === 0, missing };
}

/**
 * kube's CompactRules: "simple" rules (one group, one resource, at most one name, no URLs) for the same
 * (group, resource, name) merge their verbs; the others stay as they are.
 */
export function compactRules(rules: readonly NormalRule[]): NormalRule[] {
  const out: NormalRule[] = [];
  const simple = new Map<string, { rule: NormalRule; verbs: string[] }>();
  for (const r of rules) {
    const isSimple = r.resourceNames.length <= 1 && r.nonResourceURLs.length === 0 && r.apiGroups.length === 1 && r.resources.length === 1;
    if (!isSimple) {
      out.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups[0], r.resources[0], r.resourceNames.length > 0, r.resourceNames[0] ?? '']);
    const e = simple.get(key);
    if (e) e.verbs.push(...r.verbs);
    else simple.set(key, { rule: r, verbs: [...r.verbs] });
  }
  for (const { rule, verbs } of simple.values()) out.push({ ...rule, verbs });
  return out;
}

/** kube's CompactString: `{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}` (empty lists left out). */
export function compactString(r: NormalRule): string {
  const parts: string[] = [];
  if (r.apiGroups.length) parts.push(`APIGroups:${goQuoteList(r.apiGroups)}`);
  if (r.resources.length) parts.push(`Resources:${goQuoteList(r.resources)}`);
  if (r.nonResourceURLs.length) parts.push(`NonResourceURLs:${goQuoteList(r.nonResourceURLs)}`);
  if (r.resourceNames.length) parts.push(`ResourceNames:${goQuoteList(r.resourceNames)}`);
  if (r.verbs.length) parts.push(`Verbs:${goQuoteList(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/**
 * The text of ConfirmNoEscalation's error (without the `<resource> "<name>" is forbidden: ` prefix):
 *   user "u" (groups=["a" "b"]) is attempting to grant RBAC permissions not currently held:
 *   {APIGroups:[""], Resources:["secrets"], Verbs:["get"]}
 * one line per missing rule, sorted and de-duplicated; resolution errors appended as kube does.
 */
export function escalationMessage(user: { username: string; groups: readonly string[] }, missing: readonly NormalRule[], resolutionErrors: readonly string[] = []): string {
  const lines = [...new Set(compactRules(missing).map(compactString))].sort(goLess);
  let msg = `user ${goQuote(user.username)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  // fmt's %v of a []error holding one aggregate: `[<aggregate text>]`.
  if (resolutionErrors.length) msg += `; resolution errors: [${aggregateText(resolutionErrors)}]`;
  return msg;
}

/** Go's byte-wise string order (sort.Strings). */
export function goLess(a: string, b: string): number {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return Buffer.compare(x, y);
}

/** utilerrors.NewAggregate(errs).Error(): duplicates dropped; one message alone, several in brackets. */
export function aggregateText(errs: readonly string[]): string {
  const seen = [...new Set(errs)];
  return seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`;
}
