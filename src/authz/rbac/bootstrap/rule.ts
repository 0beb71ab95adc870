/**
 * RBAC policy rules as the bootstrap policy writes them: a small builder in the spirit of kube's
 * `rbacv1helpers.NewRule(verbs...).Groups(...).Resources(...).Names(...).URLs(...)`.
 *
 * Invariant (as kube's builder, which keeps every list in a string set): each list is de-duplicated and sorted,
 * so `rule('get', 'create').groups('extensions', 'apps')` yields verbs `[create, get]` and apiGroups
 * `[apps, extensions]` — the order kube-apiserver stores and clients diff. Keys are created in Go's struct
 * order (verbs, apiGroups, resources, resourceNames, nonResourceURLs) and empty lists are left out.
 */

/** rbac.authorization.k8s.io/v1 PolicyRule. */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** The verbs of kube's bootstrap `Read` and `ReadWrite` lists (sorted on use). */
export const READ = ['get', 'list', 'watch'] as const;
export const READ_WRITE = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'] as const;
export const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;

export const LEGACY = '';
export const EVENTS = 'events.k8s.io';

const sortedSet = (xs: readonly string[]): string[] => [...new Set(xs)].sort();

export class RuleBuilder {
  private readonly verbs: string[];
  private apiGroups: string[] = [];
  private resourceList: string[] = [];
  private resourceNames: string[] = [];
  private urls: string[] = [];

  constructor(verbs: readonly string[]) {
    this.verbs = [...verbs];
  }

  groups(...g: string[]): this {
    this.apiGroups.push(...g);
    return this;
  }

  resources(...r: string[]): this {
    this.resourceList.push(...r);
    return this;
  }

  names(...n: string[]): this {
    this.resourceNames.push(...n);
    return this;
  }

  nonResourceURLs(...u: string[]): this {
    this.urls.push(...u);
    return this;
  }

  /** The rule; throws on the shapes kube's RuleOrDie refuses (a bootstrap data bug, never user input). */
  build(): PolicyRule {
    if (this.verbs.length === 0) throw new Error('bootstrap rule: verbs are required');
    const resourceRule = this.resourceList.length > 0;
    const urlRule = this.urls.length > 0;
    if (resourceRule === urlRule) throw new Error('bootstrap rule: needs either resources or non-resource URLs, not both');
    if (resourceRule && this.apiGroups.length === 0) throw new Error('bootstrap rule: resource rules need apiGroups');
    const out: PolicyRule = { verbs: sortedSet(this.verbs) };
    if (this.apiGroups.length) out.apiGroups = sortedSet(this.apiGroups);
    if (this.resourceList.length) out.resources = sortedSet(this.resourceList);
    if (this.resourceNames.length) out.resourceNames = sortedSet(this.resourceNames);
    if (this.urls.length) out.nonResourceURLs = sortedSet(this.urls);
    return out;
  }
}

/** `rule('get', 'list').groups('').resources('pods').build()` */
export function rule(...verbs: readonly string[]): RuleBuilder {
  return new RuleBuilder(verbs);
}

/** kube's eventsRule(): create/update/patch events in the core and events.k8s.io groups. */
export function eventsRule(): PolicyRule {
  return rule('create', 'update', 'patch').groups(LEGACY, EVENTS).resources('events').build();
}
