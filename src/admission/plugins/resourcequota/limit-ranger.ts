/**
 * The LimitRanger admission plugin (kube's plugin/pkg/admission/limitranger), on create and update:
 * - mutating, pods on create: each Container item of each LimitRange in the namespace fills the requests
 *   (`defaultRequest`) and limits (`default`) containers and init containers leave out, and the pod is
 *   annotated `kubernetes.io/limit-ranger: LimitRanger plugin set: cpu request for container x; ...`;
 * - validating, pods on create and claims on create and update: min, max and maxLimitRequestRatio of Container
 *   and Pod items against each container and the pod's sums, min and max of PersistentVolumeClaim items against
 *   the claim's storage request; every violation is listed in the 403 kube answers with.
 * Objects being deleted pass. LimitRanges come from a watch; a namespace where it shows none is confirmed by a
 * live list at most every 30 s (the watch may lag a LimitRange created just before).
 */
import { formatQuantity, milliValue, wholeValue, type Quantity } from '../../../machinery/quantity.ts';
import type { KObject } from '../../../machinery/objects.ts';
import { Informer } from '../../../client/informer.ts';
import type { RestStorage } from '../../../registry/rest.ts';
import { systemContext } from '../../../registry/system-context.ts';
import type { AdmissionAttributes } from '../../../registry/admission.ts';
import { admissionForbidden } from '../../errors.ts';
import { operations, type AdmissionPlugin, type PluginContext } from '../../types.ts';
import { podLimits, podRequests } from './pod-resources.ts';
import { parseResourceList, type ResourceList } from './resource-list.ts';

type J = Record<string, any>;

const ANNOTATION = 'kubernetes.io/limit-ranger';
const LIVE_LOOKUP_TTL_MS = 30_000;
/** resource.MaxMilliValue */
const MAX_MILLI = 9223372036854775807n / 1000n;

function items(lr: KObject): J[] {
  return ((((lr as J)['spec'] ?? {})['limits'] ?? []) as J[]).filter((l) => l && typeof l === 'object');
}

function entries(raw: unknown): Array<[string, Quantity]> {
  return [...parseResourceList(raw)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** defaultContainerResourceRequirements: the Container items' defaults of one LimitRange (later items win). */
function containerDefaults(lr: KObject): { requests: Map<string, unknown>; limits: Map<string, unknown> } {
  const requests = new Map<string, unknown>();
  const limits = new Map<string, unknown>();
  for (const l of items(lr)) {
    if (l['type'] !== 'Container') continue;
    for (const [k, v] of Object.entries((l['defaultRequest'] ?? {}) as J)) requests.set(k, v);
    for (const [k, v] of Object.entries((l['default'] ?? {}) as J)) limits.set(k, v);
  }
  return { requests, limits };
}

/** PodMutateLimitFunc: fills defaults, annotates what it set. */
export function applyDefaults(lr: KObject, pod: J): void {
  const d = containerDefaults(lr);
  const notes: string[] = [];
  const spec = (pod['spec'] ?? {}) as J;
  const merge = (c: J, prefix: string) => {
    const res = (c['resources'] ?? {}) as J;
    const lim = { ...((res['limits'] ?? {}) as J) };
    const req = { ...((res['requests'] ?? {}) as J) };
    const setLimits: string[] = [];
    const setRequests: string[] = [];
    for (const [k, v] of d.limits) if (!(k in lim)) { lim[k] = v; setLimits.push(k); }
    for (const [k, v] of d.requests) if (!(k in req)) { req[k] = v; setRequests.push(k); }
    if (setLimits.length || setRequests.length) {
      c['resources'] = { ...res, ...(Object.keys(lim).length ? { limits: lim } : {}), ...(Object.keys(req).length ? { requests: req } : {}) };
    }
    if (setRequests.length) notes.push(`${setRequests.sort().join(', ')} request for ${prefix} ${String(c['name'] ?? '')}`);
    if (setLimits.length) notes.push(`${setLimits.sort().join(', ')} limit for ${prefix} ${String(c['name'] ?? '')}`);
  };
  for (const c of (spec['containers'] ?? []) as J[]) if (c) merge(c, 'container');
  for (const c of (spec['initContainers'] ?? []) as J[]) if (c) merge(c, 'init container');
  if (notes.length) {
    const meta = (pod['metadata'] ??= {}) as J;
    meta['annotations'] = { ...(meta['annotations'] ?? {}), [ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` };
  }
}

/** requestLimitEnforcedValues: milli-units unless a value is too large for them. */
function common(req: Quantity | undefined, lim: Quantity | undefined, enforced: Quantity): [bigint, bigint, bigint] {
  const r = req ? wholeValue(req) : 0n;
  const l = lim ? wholeValue(lim) : 0n;
  const e = wholeValue(enforced);
  if (r <= MAX_MILLI && l <= MAX_MILLI && e <= MAX_MILLI) {
    return [req ? milliValue(req) : 0n, lim ? milliValue(lim) : 0n, milliValue(enforced)];
  }
  return [r, l, e];
}

const fmt = formatQuantity;

function minConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = common(req, lim, enforced);
  if (!req) return `minimum ${name} usage per ${type} is ${fmt(enforced)}.  No request is specified`;
  if (r < e) return `minimum ${name} usage per ${type} is ${fmt(enforced)}, but request is ${fmt(req)}`;
  if (lim && l < e) return `minimum ${name} usage per ${type} is ${fmt(enforced)}, but limit is ${fmt(lim)}`;
  return undefined;
}

function maxRequestConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList): string | undefined {
  const req = requests.get(name);
  const [r, , e] = common(req, undefined, enforced);
  if (!req) return `maximum ${name} usage per ${type} is ${fmt(enforced)}.  No request is specified`;
  if (r > e) return `maximum ${name} usage per ${type} is ${fmt(enforced)}, but request is ${fmt(req)}`;
  return undefined;
}

function maxConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = common(req, lim, enforced);
  if (!lim) return `maximum ${name} usage per ${type} is ${fmt(enforced)}.  No limit is specified`;
  if (l > e) return `maximum ${name} usage per ${type} is ${fmt(enforced)}, but limit is ${fmt(lim)}`;
  if (req && r > e) return `maximum ${name} usage per ${type} is ${fmt(enforced)}, but request is ${fmt(req)}`;
  return undefined;
}

function ratioConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l] = common(req, lim, enforced);
  if (!req || r === 0n) return `${name} max limit to request ratio per ${type} is ${fmt(enforced)}, but no request is specified or request is 0`;
  if (!lim || l === 0n) return `${name} max limit to request ratio per ${type} is ${fmt(enforced)}, but no limit is specified or limit is 0`;
  let observed = Number(l) / Number(r);
  const display = observed;
  let max = Number(wholeValue(enforced));
  if (wholeValue(enforced) <= MAX_MILLI) {
    observed *= 1000;
    max = Number(milliValue(enforced));
  }
  if (observed > max) return `${name} max limit to request ratio per ${type} is ${fmt(enforced)}, but provided ratio is ${display.toFixed(6)}`;
  return undefined;
}

function checkItem(l: J, type: string, requests: ResourceList, limits: ResourceList, errs: string[]): void {
  for (const [k, v] of entries(l['min'])) { const m = minConstraint(type, k, v, requests, limits); if (m) errs.push(m); }
  for (const [k, v] of entries(l['max'])) { const m = maxConstraint(type, k, v, requests, limits); if (m) errs.push(m); }
  for (const [k, v] of entries(l['maxLimitRequestRatio'])) { const m = ratioConstraint(type, k, v, requests, limits); if (m) errs.push(m); }
}

/** PodValidateLimitFunc */
export function podViolations(lr: KObject, pod: KObject): string[] {
  const errs: string[] = [];
  const spec = ((pod as J)['spec'] ?? {}) as J;
  for (const l of items(lr)) {
    if (l['type'] === 'Container') {
      for (const c of [...((spec['containers'] ?? []) as J[]), ...((spec['initContainers'] ?? []) as J[])]) {
        checkItem(l, 'Container', parseResourceList(c?.resources?.requests), parseResourceList(c?.resources?.limits), errs);
      }
    }
    if (l['type'] === 'Pod') {
      const opts = { excludeOverhead: true };
      checkItem(l, 'Pod', podRequests(pod, opts), podLimits(pod, opts), errs);
    }
  }
  return errs;
}

/** PersistentVolumeClaimValidateLimitFunc */
export function claimViolations(lr: KObject, pvc: KObject): string[] {
  const errs: string[] = [];
  const requests = parseResourceList((((pvc as J)['spec'] ?? {})['resources'] ?? {})['requests']);
  for (const l of items(lr)) {
    if (l['type'] !== 'PersistentVolumeClaim') continue;
    for (const [k, v] of entries(l['min'])) { const m = minConstraint('PersistentVolumeClaim', k, v, requests, new Map()); if (m) errs.push(m); }
    for (const [k, v] of entries(l['max'])) { const m = maxRequestConstraint('PersistentVolumeClaim', k, v, requests); if (m) errs.push(m); }
  }
  return errs;
}

/** utilerrors.NewAggregate(...).Error(): one message as is, several deduplicated in brackets. */
export function aggregate(msgs: readonly string[]): string {
  const uniq = [...new Set(msgs)];
  return uniq.length === 1 ? uniq[0]! : `[${uniq.join(', ')}]`;
}

export function limitRanger(ctx: PluginContext): AdmissionPlugin {
  const storage: RestStorage | undefined = ctx.registry.lookup('', 'v1', 'limitranges');
  if (!storage) throw new Error('LimitRanger needs limitranges, which the registry does not serve');
  const informer = new Informer({ storage, log: ctx.log });
  const byNamespace = new Map<string, Map<string, KObject>>();
  const live = new Map<string, { expiry: number; items: KObject[] }>();
  const put = (o: KObject) => {
    const ns = o.metadata.namespace ?? '';
    let m = byNamespace.get(ns);
    if (!m) byNamespace.set(ns, (m = new Map()));
    m.set(o.metadata.name ?? '', o);
  };
  informer.addHandler({ onAdd: put, onUpdate: (_o, n) => put(n), onDelete: (o) => byNamespace.get(o.metadata.namespace ?? '')?.delete(o.metadata.name ?? '') });

  async function limitRanges(namespace: string): Promise<KObject[]> {
    const watched = [...(byNamespace.get(namespace)?.values() ?? [])];
    if (watched.length) return watched;
    const cached = live.get(namespace);
    if (cached && cached.expiry > ctx.now().getTime()) return cached.items;
    const res = await storage!.list(systemContext({ namespace }), {});
    const found = res.items.map((c) => c.object);
    live.set(namespace, { expiry: ctx.now().getTime() + LIVE_LOOKUP_TTL_MS, items: found });
    if (live.size > 10_000) live.delete(live.keys().next().value!);
    return found;
  }

  const isPod = (a: AdmissionAttributes) => a.kind.group === '' && a.kind.kind === 'Pod';
  const isClaim = (a: AdmissionAttributes) => a.kind.group === '' && a.kind.kind === 'PersistentVolumeClaim';
  /** SupportsAttributes: main resource only; pods on create (their containers cannot change), claims always. */
  const supports = (a: AdmissionAttributes) =>
    a.subresource === '' && ((isPod(a) && a.operation === 'CREATE') || isClaim(a)) && !!a.object
    && !a.oldObject?.metadata.deletionTimestamp;

  return {
    name: 'LimitRanger',
    operations: operations('CREATE', 'UPDATE'),
    async admit(a) {
      if (!supports(a) || !isPod(a)) return;
      const ranges = await limitRanges(a.namespace);
      if (ranges.length === 0) return;
      const pod = structuredClone(a.object) as J;
      for (const lr of ranges) applyDefaults(lr, pod);
      a.object = pod as KObject;
    },
    async validate(a) {
      if (!supports(a)) return;
      const ranges = await limitRanges(a.namespace);
      for (const lr of ranges) {
        const errs = isPod(a) ? podViolations(lr, a.object!) : claimViolations(lr, a.object!);
        if (errs.length) throw admissionForbidden(a, aggregate(errs));
      }
    },
    async ready() {
      await informer.start();
    },
    stop() {
      informer.stop();
      return Promise.resolve();
    },
  };
}

