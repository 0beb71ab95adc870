/**
 * Quota evaluators (kube's pkg/quota/v1/evaluator/core and apiserver's quota/v1/generic): for one kind of
 * object, which quota resource names it is measured by, what one object uses, which quota scopes it falls
 * under, and which admission requests change its usage. Shared by the ResourceQuota admission plugin (charges
 * a request) and the quota controller (sums a namespace).
 *
 * - pods: compute resources (requests/limits of cpu, memory, ephemeral-storage; `cpu`/`memory`/
 *   `ephemeral-storage` alias the requests; hugepages; extended resources as `requests.<name>`), `pods` (pods not
 *   yet terminal) and `count/pods` (every pod in storage); scopes Terminating, NotTerminating, BestEffort,
 *   NotBestEffort, PriorityClass, CrossNamespacePodAffinity;
 * - services: `services`, `services.nodeports`, `services.loadbalancers`, `count/services`;
 * - persistentvolumeclaims: `persistentvolumeclaims`, `requests.storage`, both per storage class
 *   (`<class>.storageclass.storage.k8s.io/<name>`), `count/persistentvolumeclaims`;
 * - everything else: `count/<resource>[.<group>]`, and the legacy names of configmaps, secrets,
 *   replicationcontrollers and resourcequotas.
 */
import type { KObject } from '../../../machinery/objects.ts';
import { quantityOf, roundUpWhole, compareQuantity } from '../../../machinery/quantity.ts';
import { isBestEffort, podLimits, podRequests } from './pod-resources.ts';
import { add, parseResourceList, type ResourceList } from './resource-list.ts';

type J = Record<string, any>;

export interface ScopeSelector {
  readonly scopeName: string;
  readonly operator: string;
  readonly values?: readonly string[];
}

/** What an evaluator needs of an admission request. */
export interface QuotaRequest {
  readonly operation: string;
  readonly subresource: string;
  readonly object: KObject | undefined;
  readonly oldObject: KObject | undefined;
}

export interface Evaluator {
  readonly group: string;
  readonly resource: string;
  /** Whether the request can change this kind's usage. */
  handles(a: QuotaRequest): boolean;
  /** The names among `names` this kind is measured by. */
  matchingResources(names: readonly string[]): string[];
  /** Whether `obj` falls under the selector (kinds without scopes: never). */
  matchesScope(sel: ScopeSelector, obj: KObject): boolean;
  /** Whether the kind has scopes at all (the selectors it is matched against can match). */
  readonly scoped: boolean;
  /** The message after `failed quota: <name>: ` when the object lacks what the quota requires. */
  constraints(required: readonly string[], obj: KObject): string | undefined;
  usage(obj: KObject, now: Date): ResourceList;
}

const ONE = (): ReturnType<typeof quantityOf> => quantityOf(1);

/** generic.ObjectCountQuotaResourceNameFor */
export function objectCountName(group: string, resource: string): string {
  return group ? `count/${resource}.${group}` : `count/${resource}`;
}

/** The quota's scopes and scope selector as one list of selectors (Scopes become `Exists`). */
export function quotaScopeSelectors(quota: KObject): ScopeSelector[] {
  const spec = ((quota as J)['spec'] ?? {}) as J;
  const out: ScopeSelector[] = [];
  for (const s of (spec['scopes'] ?? []) as string[]) out.push({ scopeName: s, operator: 'Exists' });
  for (const e of (spec['scopeSelector']?.matchExpressions ?? []) as ScopeSelector[]) out.push(e);
  return out;
}

/** generic.Matches: the quota constrains something this kind uses and every scope of the quota admits `obj`. */
export function quotaMatches(ev: Evaluator, quota: KObject, obj: KObject): boolean {
  const hard = Object.keys(((quota as J)['status'] ?? {})['hard'] ?? {});
  if (ev.matchingResources(hard).length === 0) return false;
  return quotaScopeSelectors(quota).every((s) => ev.matchesScope(s, obj));
}

/** MatchingScopes: the selectors `obj` falls under (none for kinds without scopes). */
export function matchingScopes(ev: Evaluator, obj: KObject, selectors: readonly ScopeSelector[]): ScopeSelector[] {
  return ev.scoped ? selectors.filter((s) => ev.matchesScope(s, obj)) : [];
}

/** UncoveredQuotaScopes: limited scopes no quota scope of the same name covers. */
export function uncoveredScopes(ev: Evaluator, limited: readonly ScopeSelector[], matched: readonly ScopeSelector[]): ScopeSelector[] {
  if (!ev.scoped) return [];
  return limited.filter((l) => !matched.some((m) => m.scopeName === l.scopeName));
}

/** A label-selector requirement against a one-key label set (ScopedResourceSelectorRequirementsAsSelector). */
function selectorMatches(sel: ScopeSelector, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, sel.scopeName);
  const v = labels[sel.scopeName];
  const values = sel.values ?? [];
  switch (sel.operator) {
    case 'In': return has && values.includes(v!);
    case 'NotIn': return !has || !values.includes(v!);
    case 'Exists': return has;
    case 'DoesNotExist': return !has;
    default: return false;
  }
}

// ---------------------------------------------------------------------------------------------- object count

class ObjectCountEvaluator implements Evaluator {
  readonly scoped = false;
  private readonly names: string[];
  constructor(readonly group: string, readonly resource: string, alias?: string) {
    this.names = [objectCountName(group, resource), ...(alias ? [alias] : [])];
  }
  handles(a: QuotaRequest): boolean {
    return a.operation === 'CREATE';
  }
  matchingResources(names: readonly string[]): string[] {
    return names.filter((n) => this.names.includes(n));
  }
  matchesScope(): boolean {
    return false;
  }
  constraints(): undefined {
    return undefined;
  }
  usage(): ResourceList {
    return new Map(this.names.map((n) => [n, ONE()]));
  }
}

// ---------------------------------------------------------------------------------------------- pods

const POD_RESOURCES = new Set([
  'count/pods', 'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods',
]);
const POD_PREFIXES = ['hugepages-', 'requests.hugepages-'];
/** The names a quota makes every container state (a historical rule kube keeps for cpu and memory only). */
const VALIDATION_SET = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** helper.IsNativeResource: unprefixed, or in the kubernetes.io namespace. */
function isNative(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** helper.IsExtendedResourceName (as a container resource name). */
function isExtendedResource(name: string): boolean {
  return !isNative(name) && !name.startsWith('requests.');
}

/** Extended resources are quota'd as `requests.<name>` only. */
function isExtendedQuotaName(name: string): boolean {
  return !isNative(name) && name.startsWith('requests.');
}

/** podComputeUsageHelper */
export function podComputeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([['pods', ONE()]]);
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const req = requests.get(r);
    if (req) {
      out.set(r, req);
      out.set(`requests.${r}`, req);
    }
    const lim = limits.get(r);
    if (lim) out.set(`limits.${r}`, lim);
  }
  for (const [r, q] of requests) {
    if (r.startsWith('hugepages-')) {
      out.set(r, q);
      out.set(`requests.${r}`, q);
    }
    if (isExtendedResource(r)) out.set(`requests.${r}`, q);
  }
  return out;
}

/** QuotaV1Pod: not terminal, and not stuck past its deletion grace period. */
export function podCountsForQuota(pod: KObject, now: Date): boolean {
  const phase = ((pod as J)['status'] ?? {})['phase'];
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  const meta = pod.metadata as J;
  if (meta['deletionTimestamp'] && typeof meta['deletionGracePeriodSeconds'] === 'number') {
    const end = Date.parse(meta['deletionTimestamp'] as string) + (meta['deletionGracePeriodSeconds'] as number) * 1000;
    if (now.getTime() > end) return false;
  }
  return true;
}

function isTerminating(pod: KObject): boolean {
  const ads = ((pod as J)['spec'] ?? {})['activeDeadlineSeconds'];
  return typeof ads === 'number' && ads >= 0;
}

function usesCrossNamespaceAffinity(pod: KObject): boolean {
  const aff = ((pod as J)['spec'] ?? {})['affinity'] as J | undefined;
  if (!aff) return false;
  const cross = (t: J | undefined) => !!t && ((Array.isArray(t['namespaces']) && t['namespaces'].length > 0) || (t['namespaceSelector'] !== undefined && t['namespaceSelector'] !== null));
  for (const a of [aff['podAffinity'], aff['podAntiAffinity']] as Array<J | undefined>) {
    if (!a) continue;
    if (((a['requiredDuringSchedulingIgnoredDuringExecution'] ?? []) as J[]).some((t) => cross(t))) return true;
    if (((a['preferredDuringSchedulingIgnoredDuringExecution'] ?? []) as J[]).some((w) => cross(w?.['podAffinityTerm']))) return true;
  }
  return false;
}

class PodEvaluator implements Evaluator {
  readonly group = '';
  readonly resource = 'pods';
  readonly scoped = true;
  handles(a: QuotaRequest): boolean {
    if (a.subresource !== '' && a.subresource !== 'resize') return false;
    return a.operation === 'CREATE' || (a.subresource === 'resize' && a.operation === 'UPDATE');
  }
  matchingResources(names: readonly string[]): string[] {
    return names.filter((n) => POD_RESOURCES.has(n) || POD_PREFIXES.some((p) => n.startsWith(p)) || isExtendedQuotaName(n));
  }
  matchesScope(sel: ScopeSelector, pod: KObject): boolean {
    switch (sel.scopeName) {
      case 'Terminating': return isTerminating(pod);
      case 'NotTerminating': return !isTerminating(pod);
      case 'BestEffort': return isBestEffort(pod);
      case 'NotBestEffort': return !isBestEffort(pod);
      case 'PriorityClass': {
        const pc = ((pod as J)['spec'] ?? {})['priorityClassName'] as string | undefined;
        if (sel.operator === 'Exists') return !!pc;
        return selectorMatches(sel, pc ? { PriorityClass: pc } : {});
      }
      case 'CrossNamespacePodAffinity': return usesCrossNamespaceAffinity(pod);
      default: return false;
    }
  }
  constraints(required: readonly string[], pod: KObject): string | undefined {
    const requiredSet = new Set(required.filter((r) => VALIDATION_SET.has(r)));
    const missing = new Map<string, Set<string>>();
    const spec = ((pod as J)['spec'] ?? {}) as J;
    for (const c of [...((spec['containers'] ?? []) as J[]), ...((spec['initContainers'] ?? []) as J[])]) {
      const has = podComputeUsage(parseResourceList(c?.resources?.requests), parseResourceList(c?.resources?.limits));
      for (const r of requiredSet) {
        if (has.has(r)) continue;
        if (!missing.has(r)) missing.set(r, new Set());
        missing.get(r)!.add(String(c?.name ?? ''));
      }
    }
    if (missing.size === 0) return undefined;
    const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`);
    return `must specify ${parts.join('; ')}`;
  }
  usage(pod: KObject, now: Date): ResourceList {
    const out: ResourceList = new Map([['count/pods', ONE()]]);
    if (!podCountsForQuota(pod, now)) return out;
    const opts = { statusResources: true };
    return add(out, podComputeUsage(podRequests(pod, opts), podLimits(pod, opts)));
  }
}

// ---------------------------------------------------------------------------------------------- services

const SERVICE_RESOURCES = new Set(['count/services', 'services', 'services.nodeports', 'services.loadbalancers']);

/** GetQuotaServiceType: the types quota counts separately. */
export function quotaServiceType(svc: KObject): string {
  const t = ((svc as J)['spec'] ?? {})['type'];
  return t === 'NodePort' || t === 'LoadBalancer' ? t : '';
}

class ServiceEvaluator implements Evaluator {
  readonly group = '';
  readonly resource = 'services';
  readonly scoped = false;
  handles(a: QuotaRequest): boolean {
    return a.operation === 'CREATE' || a.operation === 'UPDATE';
  }
  matchingResources(names: readonly string[]): string[] {
    return names.filter((n) => SERVICE_RESOURCES.has(n));
  }
  matchesScope(): boolean {
    return false;
  }
  constraints(): undefined {
    return undefined;
  }
  usage(svc: KObject): ResourceList {
    const spec = ((svc as J)['spec'] ?? {}) as J;
    const ports = (spec['ports'] ?? []) as J[];
    const zero = quantityOf(0);
    const out: ResourceList = new Map([['count/services', ONE()], ['services', ONE()], ['services.loadbalancers', zero], ['services.nodeports', zero]]);
    if (spec['type'] === 'NodePort') out.set('services.nodeports', quantityOf(ports.length));
    if (spec['type'] === 'LoadBalancer') {
      const n = spec['allocateLoadBalancerNodePorts'] === false ? ports.filter((p) => p?.nodePort).length : ports.length;
      out.set('services.nodeports', quantityOf(n));
      out.set('services.loadbalancers', ONE());
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------------------- PVCs

const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';
const PVC_RESOURCES = ['persistentvolumeclaims', 'requests.storage'];

/** storagehelpers.GetPersistentVolumeClaimClass: the beta annotation wins over spec.storageClassName. */
export function claimStorageClass(pvc: KObject): string {
  const ann = (pvc.metadata.annotations ?? {})['volume.beta.kubernetes.io/storage-class'];
  if (ann !== undefined) return ann;
  return (((pvc as J)['spec'] ?? {})['storageClassName'] as string | undefined) ?? '';
}

/** Whether a status change alters what the claim is charged (allocated storage changed). */
export function claimNeedsReplenish(pvc: KObject, old: KObject): boolean {
  const a = ((pvc as J)['status'] ?? {})['allocatedResources']?.storage;
  const b = ((old as J)['status'] ?? {})['allocatedResources']?.storage;
  return a !== b;
}

class PvcEvaluator implements Evaluator {
  readonly group = '';
  readonly resource = 'persistentvolumeclaims';
  readonly scoped = false;
  handles(a: QuotaRequest): boolean {
    if (a.subresource === '') return a.operation === 'CREATE' || a.operation === 'UPDATE';
    if (a.subresource === 'status' && a.object && a.oldObject) return claimNeedsReplenish(a.object, a.oldObject);
    return false;
  }
  matchingResources(names: readonly string[]): string[] {
    return names.filter((n) => n === 'count/persistentvolumeclaims' || PVC_RESOURCES.includes(n)
      || PVC_RESOURCES.some((r) => n.endsWith(STORAGE_CLASS_SUFFIX + r)));
  }
  matchesScope(): boolean {
    return false;
  }
  constraints(): undefined {
    return undefined;
  }
  usage(pvc: KObject): ResourceList {
    const out: ResourceList = new Map([['persistentvolumeclaims', ONE()], ['count/persistentvolumeclaims', ONE()]]);
    const cls = claimStorageClass(pvc);
    if (cls) out.set(`${cls}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, ONE());
    const requested = parseResourceList(((pvc as J)['spec'] ?? {})['resources']?.requests).get('storage');
    if (requested) {
      let storage = roundUpWhole(requested);
      const allocated = parseResourceList(((pvc as J)['status'] ?? {})['allocatedResources']).get('storage');
      if (allocated && compareQuantity(allocated, storage) > 0) storage = roundUpWhole(allocated);
      out.set('requests.storage', storage);
      if (cls) out.set(`${cls}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------------------- registry

/** Resources quota never evaluates (virtual ones, and events). */
const IGNORED = new Set([
  '/bindings', '/componentstatuses', 'authentication.k8s.io/tokenreviews', 'authentication.k8s.io/selfsubjectreviews',
  'authorization.k8s.io/subjectaccessreviews', 'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/localsubjectaccessreviews', 'authorization.k8s.io/selfsubjectrulesreviews', '/events', 'events.k8s.io/events',
]);

export function isIgnoredResource(group: string, resource: string): boolean {
  return IGNORED.has(`${group}/${resource}`);
}

/** The legacy names some core kinds are also counted by. */
const LEGACY_ALIASES: Readonly<Record<string, string>> = {
  configmaps: 'configmaps', resourcequotas: 'resourcequotas', replicationcontrollers: 'replicationcontrollers', secrets: 'secrets',
};

const fixed = new Map<string, Evaluator>([
  ['/pods', new PodEvaluator()],
  ['/services', new ServiceEvaluator()],
  ['/persistentvolumeclaims', new PvcEvaluator()],
  ...Object.entries(LEGACY_ALIASES).map(([r, alias]) => [`/${r}`, new ObjectCountEvaluator('', r, alias)] as [string, Evaluator]),
]);
const generic = new Map<string, Evaluator>();

/** The evaluator of a group resource: a dedicated one, else an object count evaluator. */
export function evaluatorFor(group: string, resource: string): Evaluator {
  const key = `${group}/${resource}`;
  const f = fixed.get(key);
  if (f) return f;
  let g = generic.get(key);
  if (!g) {
    g = new ObjectCountEvaluator(group, resource);
    generic.set(key, g);
  }
  return g;
}

/**
 * The group resources whose objects a quota resource name is measured on (for the quota controller): the
 * dedicated evaluators by their names, and `count/<resource>[.<group>]` for any resource.
 */
export function groupResourcesFor(name: string): Array<{ group: string; resource: string }> {
  const out: Array<{ group: string; resource: string }> = [];
  for (const ev of fixed.values()) if (ev.matchingResources([name]).length) out.push({ group: ev.group, resource: ev.resource });
  if (out.length === 0 && name.startsWith('count/')) {
    const rest = name.slice('count/'.length);
    const dot = rest.indexOf('.');
    const gr = dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
    if (gr.resource && !isIgnoredResource(gr.group, gr.resource)) out.push(gr);
  }
  return out;
}

/**
 * CalculateUsageStats for one evaluator: zero for each matching name, plus the usage of every object that
 * falls under all of the quota's scopes.
 */
export function usageOf(ev: Evaluator, quota: KObject, objects: Iterable<KObject>, now: Date): ResourceList {
  const hard = Object.keys(((quota as J)['spec'] ?? {})['hard'] ?? {});
  const names = ev.matchingResources(hard);
  if (names.length === 0) return new Map();
  const selectors = quotaScopeSelectors(quota);
  let used: ResourceList = new Map(names.map((n) => [n, quantityOf(0)]));
  for (const obj of objects) {
    if (!selectors.every((s) => ev.matchesScope(s, obj))) continue;
    used = add(used, ev.usage(obj, now));
  }
  return used;
}
