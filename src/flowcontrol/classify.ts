/**
 * Which FlowSchema a request belongs to (k8s.io/apiserver pkg/util/flowcontrol/rule.go): schemas are tried in
 * increasing matchingPrecedence (then name); the first whose rules match wins. A rule matches when one of its
 * subjects matches the user and, for resource requests, one resource rule (verb, group, resource[/sub],
 * namespace or clusterScope) matches, or for non-resource requests one non-resource rule (verb, URL with
 * `/prefix/*` wildcards) does. The flow distinguisher is the user name (ByUser) or the namespace (ByNamespace).
 */
import type { KObject, UserInfo } from '../machinery/objects.ts';
import type { RequestInfo } from '../request/context.ts';

type J = Record<string, any>;

/** What classification needs of a request: the parsed request info and the (impersonated) user. */
export interface RequestDigest {
  readonly info: RequestInfo;
  readonly user: UserInfo;
}

/** A FlowSchema prepared for matching. */
export interface CompiledFlowSchema {
  readonly name: string;
  readonly uid: string;
  readonly priorityLevel: string;
  readonly matchingPrecedence: number;
  readonly distinguisher: '' | 'ByUser' | 'ByNamespace';
  readonly object: KObject;
  matches(d: RequestDigest): boolean;
}

const SA_PREFIX = 'system:serviceaccount:';

/** `*` alone in the list matches everything; otherwise an exact member does. */
function contains(list: readonly string[] | undefined, x: string, wildcard = '*'): boolean {
  if (!list) return false;
  if (list.length === 1 && list[0] === wildcard) return true;
  return list.includes(x);
}

function subjectMatches(s: J, user: UserInfo): boolean {
  switch (s['kind']) {
    case 'User':
      return !!s['user'] && (s['user'].name === '*' || s['user'].name === user.username);
    case 'Group': {
      if (!s['group']) return false;
      const seek = s['group'].name;
      return seek === '*' || (user.groups ?? []).includes(seek);
    }
    case 'ServiceAccount': {
      const sa = s['serviceAccount'];
      if (!sa) return false;
      const name = user.username;
      if (sa.name === '*') return name.startsWith(`${SA_PREFIX}${sa.namespace}:`);
      return name === `${SA_PREFIX}${sa.namespace}:${sa.name}`;
    }
    default:
      return false;
  }
}

function resourceRuleMatches(r: J, info: RequestInfo): boolean {
  if (!contains(r['verbs'], info.verb)) return false;
  const rs = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
  if (!contains(r['resources'], rs)) return false;
  if (!contains(r['apiGroups'], info.apiGroup)) return false;
  if (!info.namespace) return r['clusterScope'] === true;
  return contains(r['namespaces'], info.namespace);
}

/** kube's URL match: `*`, the exact path, or a prefix: `/a` and `/a/*` both match `/a/...`. */
export function nonResourceUrlMatches(urls: readonly string[] | undefined, path: string): boolean {
  for (const u of urls ?? []) {
    if (u === '*' || u === path) return true;
    let prefix = u.endsWith('*') ? u.slice(0, -1) : u;
    if (!prefix.endsWith('/')) prefix += '/';
    if (path.startsWith(prefix)) return true;
  }
  return false;
}

function nonResourceRuleMatches(r: J, info: RequestInfo): boolean {
  return contains(r['verbs'], info.verb) && nonResourceUrlMatches(r['nonResourceURLs'], info.path);
}

function ruleMatches(rule: J, d: RequestDigest): boolean {
  const subjects: J[] = rule['subjects'] ?? [];
  if (!subjects.some((s) => subjectMatches(s, d.user))) return false;
  if (d.info.isResourceRequest) return ((rule['resourceRules'] ?? []) as J[]).some((r) => resourceRuleMatches(r, d.info));
  return ((rule['nonResourceRules'] ?? []) as J[]).some((r) => nonResourceRuleMatches(r, d.info));
}

export function compileFlowSchema(fs: KObject): CompiledFlowSchema {
  const spec = (fs['spec'] ?? {}) as J;
  const rules: J[] = spec['rules'] ?? [];
  const dm = spec['distinguisherMethod']?.type;
  return {
    name: fs.metadata.name ?? '',
    uid: fs.metadata.uid ?? '',
    priorityLevel: spec['priorityLevelConfiguration']?.name ?? '',
    matchingPrecedence: spec['matchingPrecedence'] ?? 1000,
    distinguisher: dm === 'ByUser' || dm === 'ByNamespace' ? dm : '',
    object: fs,
    matches: (d) => rules.some((r) => ruleMatches(r, d)),
  };
}

/** kube's FlowSchemaSequence order: matchingPrecedence, then name. */
export function sortFlowSchemas(list: CompiledFlowSchema[]): CompiledFlowSchema[] {
  return list.sort((a, b) => a.matchingPrecedence - b.matchingPrecedence || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The first matching schema, or undefined (the caller falls back to catch-all). */
export function classify(schemas: readonly CompiledFlowSchema[], d: RequestDigest): CompiledFlowSchema | undefined {
  for (const fs of schemas) if (fs.matches(d)) return fs;
  return undefined;
}

export function flowDistinguisher(fs: CompiledFlowSchema, d: RequestDigest): string {
  if (fs.distinguisher === 'ByUser') return d.user.username;
  if (fs.distinguisher === 'ByNamespace') return d.info.namespace;
  return '';
}
