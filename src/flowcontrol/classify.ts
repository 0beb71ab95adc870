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

/** A list compiled to a test: `*` alone matches everything (kube's containsString), else exact members. */
function setMatcher(list: readonly string[] | undefined, wildcard = '*'): (x: string) => boolean {
  if (!list || !list.length) return () => false;
  if (list.length === 1 && list[0] === wildcard) return () => true;
  if (list.length === 1) {
    const only = list[0];
    return (x) => x === only;
  }
  const set = new Set(list);
  return (x) => set.has(x);
}

type UserTest = (user: UserInfo) => boolean;

function compileSubject(s: J): UserTest {
  switch (s['kind']) {
    case 'User': {
      const name = s['user']?.name;
      if (name === undefined) return () => false;
      return name === '*' ? () => true : (u) => u.username === name;
    }
    case 'Group': {
      const seek = s['group']?.name;
      if (seek === undefined) return () => false;
      return seek === '*' ? () => true : (u) => (u.groups ?? []).includes(seek);
    }
    case 'ServiceAccount': {
      const sa = s['serviceAccount'];
      if (!sa) return () => false;
      if (sa.name === '*') {
        const prefix = `${SA_PREFIX}${sa.namespace}:`;
        return (u) => u.username.startsWith(prefix);
      }
      const full = `${SA_PREFIX}${sa.namespace}:${sa.name}`;
      return (u) => u.username === full;
    }
    default:
      return () => false;
  }
}

type InfoTest = (info: RequestInfo) => boolean;

function compileResourceRule(r: J): InfoTest {
  const verb = setMatcher(r['verbs']);
  const resource = setMatcher(r['resources']);
  const group = setMatcher(r['apiGroups']);
  const namespace = setMatcher(r['namespaces']);
  const clusterScope = r['clusterScope'] === true;
  return (info) => {
    if (!verb(info.verb)) return false;
    if (!resource(info.subresource ? `${info.resource}/${info.subresource}` : info.resource)) return false;
    if (!group(info.apiGroup)) return false;
    return info.namespace ? namespace(info.namespace) : clusterScope;
  };
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

function compileNonResourceRule(r: J): InfoTest {
  const verb = setMatcher(r['verbs']);
  const urls: string[] = r['nonResourceURLs'] ?? [];
  return (info) => verb(info.verb) && nonResourceUrlMatches(urls, info.path);
}

const any = <T>(tests: ((x: T) => boolean)[]) => (x: T): boolean => {
  for (const t of tests) if (t(x)) return true;
  return false;
};

function compileRule(rule: J): (d: RequestDigest) => boolean {
  const subject = any<UserInfo>(((rule['subjects'] ?? []) as J[]).map(compileSubject));
  const resource = any<RequestInfo>(((rule['resourceRules'] ?? []) as J[]).map(compileResourceRule));
  const nonResource = any<RequestInfo>(((rule['nonResourceRules'] ?? []) as J[]).map(compileNonResourceRule));
  return (d) => subject(d.user) && (d.info.isResourceRequest ? resource(d.info) : nonResource(d.info));
}

export function compileFlowSchema(fs: KObject): CompiledFlowSchema {
  const spec = (fs['spec'] ?? {}) as J;
  const rules = ((spec['rules'] ?? []) as J[]).map(compileRule);
  const dm = spec['distinguisherMethod']?.type;
  return {
    name: fs.metadata.name ?? '',
    uid: fs.metadata.uid ?? '',
    priorityLevel: spec['priorityLevelConfiguration']?.name ?? '',
    matchingPrecedence: spec['matchingPrecedence'] ?? 1000,
    distinguisher: dm === 'ByUser' || dm === 'ByNamespace' ? dm : '',
    object: fs,
    matches: any(rules),
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

/**
 * What classification reads of a request, as one string: the user (name and groups) and the request's
 * verb, group, resource, sub-resource and namespace, or its path for non-resource requests. Two requests with
 * the same key match the same rules, so the key can stand for the request in a cache.
 */
export function classificationKey(d: RequestDigest): string {
  const i = d.info;
  let k = i.isResourceRequest
    ? `r\u0000${i.verb}\u0000${i.apiGroup}\u0000${i.resource}\u0000${i.subresource}\u0000${i.namespace}\u0000${d.user.username}`
    : `n\u0000${i.verb}\u0000${i.path}\u0000${d.user.username}`;
  const groups = d.user.groups;
  if (groups) for (let g = 0; g < groups.length; g++) k += `\u0000${groups[g]}`;
  return k;
}

/** Bound on remembered classifications: past it the cache starts over (a flood of distinct users or paths). */
const MAX_CACHED = 10_000;

/**
 * The first matching schema per request key, for one configuration: a repeated (user, verb, resource,
 * namespace) tuple skips walking the rules. A new configuration makes a new cache.
 */
export class ClassificationCache {
  readonly #byKey = new Map<string, CompiledFlowSchema | undefined>();
  constructor(readonly schemas: readonly CompiledFlowSchema[]) {}

  classify(d: RequestDigest): CompiledFlowSchema | undefined {
    const key = classificationKey(d);
    const hit = this.#byKey.get(key);
    if (hit !== undefined || this.#byKey.has(key)) return hit;
    const fs = classify(this.schemas, d);
    if (this.#byKey.size >= MAX_CACHED) this.#byKey.clear();
    this.#byKey.set(key, fs);
    return fs;
  }
}

export function flowDistinguisher(fs: CompiledFlowSchema, d: RequestDigest): string {
  if (fs.distinguisher === 'ByUser') return d.user.username;
  if (fs.distinguisher === 'ByNamespace') return d.info.namespace;
  return '';
}
