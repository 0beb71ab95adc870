/**
 * Which requests an admission policy or binding applies to (kube's apiserver admission/plugin/policy/matching
 * over the webhook predicates rules, namespace and object): `matchResources` decides for one MatchResources
 * block — namespaceSelector, objectSelector, excludeResourceRules, resourceRules (with resourceNames), and
 * matchPolicy Equivalent, which also tries the resource's equivalents in other groups and versions (the same
 * storage) and then reports the equivalent it matched, whose kind the policy sees.
 *
 * Kept apart from the webhook matching (src/admission/matching/, another branch) on purpose: this module has no
 * dependency on the policy plugins, and its API is small so the two can be folded together —
 *   ruleMatches(rule, attrs)                 one RuleWithOperations against the request (scope, operation,
 *                                            group, version, resource/sub-resource wildcards)
 *   labelSelectorMatches(selector, labels)   metav1.LabelSelector semantics
 *   matchResources(mr, attrs, deps)          the whole block; deps give namespace labels and equivalents
 *   isExemptAdmissionConfiguration(attrs)    the kinds no policy or webhook ever sees
 */
import { errors, StatusError } from '../../machinery/errors.ts';
import type { GroupVersionKind } from '../../machinery/objects.ts';
import type { AdmissionAttributes, GroupVersionResource } from '../../registry/admission.ts';

export interface Rule {
  readonly operations?: readonly string[] | null;
  readonly apiGroups?: readonly string[] | null;
  readonly apiVersions?: readonly string[] | null;
  readonly resources?: readonly string[] | null;
  /** `*` (default), `Cluster` or `Namespaced`. */
  readonly scope?: string | null;
}

export interface NamedRule extends Rule {
  readonly resourceNames?: readonly string[] | null;
}

export interface LabelSelectorSpec {
  readonly matchLabels?: Readonly<Record<string, string>> | null;
  readonly matchExpressions?: ReadonlyArray<{ key?: string; operator?: string; values?: readonly string[] | null }> | null;
}

export interface MatchResourcesSpec {
  readonly namespaceSelector?: LabelSelectorSpec | null;
  readonly objectSelector?: LabelSelectorSpec | null;
  readonly resourceRules?: readonly NamedRule[] | null;
  readonly excludeResourceRules?: readonly NamedRule[] | null;
  /** `Equivalent` (kube's default) or `Exact`. */
  readonly matchPolicy?: string | null;
}

/** The request attributes matching reads (AdmissionAttributes fits). */
export type MatchAttributes = Pick<AdmissionAttributes, 'operation' | 'kind' | 'resource' | 'subresource' | 'name' | 'namespace' | 'object' | 'oldObject'>;

export interface MatchDeps {
  /** The labels of a namespace (cache first, then a live read); throws the NotFound StatusError when it does not exist. */
  namespaceLabels(name: string): Promise<Readonly<Record<string, string>>>;
  /** Other group versions of the same resource (kube's EquivalentResourceMapper), the resource itself included or not. */
  equivalents(resource: GroupVersionResource, subresource: string): readonly GroupVersionResource[];
  /** The kind an equivalent resource (and sub-resource) serves. */
  kindFor(resource: GroupVersionResource, subresource: string): GroupVersionKind | undefined;
}

export interface MatchResult {
  readonly matches: boolean;
  /** The resource and kind the rule matched (an equivalent under matchPolicy Equivalent). */
  readonly resource?: GroupVersionResource;
  readonly kind?: GroupVersionKind;
}

const NO_MATCH: MatchResult = { matches: false };

function exactOrWildcard(items: readonly string[] | null | undefined, v: string): boolean {
  if (!items) return false;
  for (const i of items) if (i === '*' || i === v) return true;
  return false;
}
const isNamespaces = (r: GroupVersionResource) => r.group === '' && r.version === 'v1' && r.resource === 'namespaces';

/** One rule against the request, the resource possibly replaced by an equivalent. */
export function ruleMatches(rule: Rule, attrs: MatchAttributes, resource: GroupVersionResource = attrs.resource): boolean {
  const scope = rule.scope ?? '*';
  if (scope === 'Namespaced' && (isNamespaces(resource) || attrs.namespace === '')) return false;
  if (scope === 'Cluster' && !(isNamespaces(resource) || attrs.namespace === '')) return false;
  if (scope !== '*' && scope !== 'Namespaced' && scope !== 'Cluster') return false;
  if (!exactOrWildcard(rule.operations, attrs.operation)) return false;
  if (!exactOrWildcard(rule.apiGroups, resource.group)) return false;
  if (!exactOrWildcard(rule.apiVersions, resource.version)) return false;
  for (const rs of rule.resources ?? []) {
    const slash = rs.indexOf('/');
    if (slash < 0) {
      if ((rs === '*' || rs === resource.resource) && attrs.subresource === '') return true;
      continue;
    }
    const res = rs.slice(0, slash);
    const sub = rs.slice(slash + 1);
    if ((res === '*' || res === resource.resource) && (sub === '*' || sub === attrs.subresource)) return true;
  }
  return false;
}

/** metav1.LabelSelectorAsSelector semantics; an unknown operator throws (kube: the selector does not parse). */
export function labelSelectorMatches(sel: LabelSelectorSpec | null | undefined, labels: Readonly<Record<string, string>> | undefined): boolean {
  const l = labels ?? {};
  for (const [k, v] of Object.entries(sel?.matchLabels ?? {})) if (l[k] !== v) return false;
  for (const e of sel?.matchExpressions ?? []) {
    const key = e.key ?? '';
    const has = Object.hasOwn(l, key);
    switch (e.operator) {
      case 'In': if (!has || !(e.values ?? []).includes(l[key]!)) return false; break;
      case 'NotIn': if (has && (e.values ?? []).includes(l[key]!)) return false; break;
      case 'Exists': if (!has) return false; break;
      case 'DoesNotExist': if (has) return false; break;
      default: throw new Error(`${JSON.stringify(e.operator)} is not a valid label selector operator`);
    }
  }
  return true;
}

export function selectorIsEmpty(sel: LabelSelectorSpec | null | undefined): boolean {
  if (!sel) return true;
  if (sel.matchExpressions?.length) return false;
  for (const k in sel.matchLabels ?? {}) if (Object.hasOwn(sel.matchLabels!, k)) return false;
  return true;
}

/** Admission configuration kinds: no policy (and no webhook) is consulted for them, so none can lock them. */
export function isExemptAdmissionConfiguration(attrs: Pick<AdmissionAttributes, 'kind'>): boolean {
  if (attrs.kind.group !== 'admissionregistration.k8s.io') return false;
  return ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding',
    'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding'].includes(attrs.kind.kind);
}

const labelsOf = (o: unknown): Record<string, string> | undefined => (o as { metadata?: { labels?: Record<string, string> } } | undefined)?.metadata?.labels;

async function namespaceSelectorMatches(sel: LabelSelectorSpec | null | undefined, attrs: MatchAttributes, deps: MatchDeps): Promise<boolean> {
  if (attrs.namespace === '' && attrs.resource.resource !== 'namespaces') return true;
  if (selectorIsEmpty(sel)) return true;
  let labels: Readonly<Record<string, string>> | undefined;
  if (attrs.resource.resource === 'namespaces' && attrs.subresource === '' && (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE')) {
    labels = labelsOf(attrs.object);
  } else {
    labels = await deps.namespaceLabels(attrs.namespace || attrs.name);
  }
  return labelSelectorMatches(sel, labels);
}

function objectSelectorMatches(sel: LabelSelectorSpec | null | undefined, attrs: MatchAttributes): boolean {
  if (selectorIsEmpty(sel)) return true;
  const one = (o: unknown) => o !== undefined && o !== null && labelSelectorMatches(sel, labelsOf(o) ?? {});
  return one(attrs.object) || one(attrs.oldObject);
}

/**
 * MatchDeps for one request: the resource and sub-resource are the same for every policy and binding it meets,
 * so equivalents and kinds are looked up once (the catalog scan behind them is not free).
 */
export function requestScopedDeps(deps: MatchDeps): MatchDeps {
  const eq = new Map<string, readonly GroupVersionResource[]>();
  const kinds = new Map<string, GroupVersionKind | undefined>();
  const key = (r: GroupVersionResource, sub: string) => `${r.group}/${r.version}/${r.resource}/${sub}`;
  return {
    namespaceLabels: (name) => deps.namespaceLabels(name),
    equivalents(r, sub) {
      const k = key(r, sub);
      let v = eq.get(k);
      if (!v) eq.set(k, (v = deps.equivalents(r, sub)));
      return v;
    },
    kindFor(r, sub) {
      const k = key(r, sub);
      if (!kinds.has(k)) kinds.set(k, deps.kindFor(r, sub));
      return kinds.get(k);
    },
  };
}

const named = (r: NamedRule, name: string) => !r.resourceNames?.length || r.resourceNames.includes(name);

function rulesMatch(rules: readonly NamedRule[] | null | undefined, matchPolicy: string | null | undefined, attrs: MatchAttributes, deps: MatchDeps): MatchResult {
  for (const r of rules ?? []) {
    if (ruleMatches(r, attrs) && named(r, attrs.name)) return { matches: true, resource: attrs.resource, kind: attrs.kind };
  }
  if ((matchPolicy ?? 'Equivalent') !== 'Equivalent') return NO_MATCH;
  const equivalents = deps.equivalents(attrs.resource, attrs.subresource);
  for (const r of rules ?? []) {
    for (const eq of equivalents) {
      if (eq.group === attrs.resource.group && eq.version === attrs.resource.version && eq.resource === attrs.resource.resource) continue;
      if (!ruleMatches(r, attrs, eq)) continue;
      const kind = deps.kindFor(eq, attrs.subresource);
      if (!kind) throw new Error(`unable to convert to ${eq.group}/${eq.version}, Resource=${eq.resource}: unknown kind`);
      if (named(r, attrs.name)) return { matches: true, resource: eq, kind };
    }
  }
  return NO_MATCH;
}

/**
 * kube's matching.Matcher.Matches: selectors first (an error there is only reported when the rules match),
 * then exclusions, then the rules (none = every resource). Synchronous unless a namespace must be looked up.
 */
export function matchResources(mr: MatchResourcesSpec | null | undefined, attrs: MatchAttributes, deps: MatchDeps): MatchResult | Promise<MatchResult> {
  const needsNamespace = !(attrs.namespace === '' && attrs.resource.resource !== 'namespaces') && !selectorIsEmpty(mr?.namespaceSelector);
  if (!needsNamespace) return afterNamespace(mr, attrs, deps, true, undefined);
  return namespaceSelectorMatches(mr?.namespaceSelector, attrs, deps).then(
    (ok) => afterNamespace(mr, attrs, deps, ok, undefined),
    (e: unknown) => afterNamespace(mr, attrs, deps, false, e instanceof StatusError && e.code === 404 ? e : errors.internal((e as Error).message ?? String(e))),
  );
}

function afterNamespace(mr: MatchResourcesSpec | null | undefined, attrs: MatchAttributes, deps: MatchDeps, nsMatch: boolean, nsErr: unknown): MatchResult {
  if (!nsMatch && nsErr === undefined) return NO_MATCH;
  let objErr: unknown;
  let objMatch = false;
  try {
    objMatch = objectSelectorMatches(mr?.objectSelector, attrs);
  } catch (e) {
    objErr = errors.internal((e as Error).message ?? String(e));
  }
  if (!objMatch && objErr === undefined) return NO_MATCH;
  if (mr?.excludeResourceRules?.length && rulesMatch(mr.excludeResourceRules, mr.matchPolicy, attrs, deps).matches) return NO_MATCH;
  const r = mr?.resourceRules?.length ? rulesMatch(mr.resourceRules, mr.matchPolicy, attrs, deps) : { matches: true, resource: attrs.resource, kind: attrs.kind };
  if (!r.matches) return NO_MATCH;
  if (nsErr !== undefined) throw nsErr;
  if (objErr !== undefined) throw objErr;
  return r;
}
