/**
 * What a pod asks for, summed as the scheduler and quota see it (kube's pkg/api/v1/resource PodRequests and
 * PodLimits): regular containers add up; restartable init containers (sidecars) add up with them; each plain
 * init container runs alone next to the sidecars started before it, so the pod needs the larger of the two;
 * the pod overhead is added to requests, and to limits a container set. With in-place resize on, a container's
 * requests (limits) are the larger of its spec and what its status reports as applied, as kube counts them.
 */
import type { KObject } from '../../../machinery/objects.ts';
import { addQuantity, compareQuantity } from '../../../machinery/quantity.ts';
import { add, parseResourceList, type ResourceList } from './resource-list.ts';

type J = Record<string, any>;

export interface PodResourceOptions {
  /** Count status.containerStatuses[].resources (InPlacePodVerticalScaling). */
  readonly statusResources?: boolean;
  /** Leave the overhead out (LimitRanger's sums). */
  readonly excludeOverhead?: boolean;
}

function maxInto(into: ResourceList, from: ResourceList): void {
  for (const [k, v] of from) {
    const cur = into.get(k);
    if (!cur || compareQuantity(v, cur) > 0) into.set(k, v);
  }
}

function maxOf(a: ResourceList, b: ResourceList): ResourceList {
  const out = new Map(a);
  maxInto(out, b);
  return out;
}

function aggregate(pod: KObject, which: 'requests' | 'limits', opts: PodResourceOptions): ResourceList {
  const spec = ((pod as J)['spec'] ?? {}) as J;
  const status = ((pod as J)['status'] ?? {}) as J;
  const statuses = new Map<string, J>();
  if (opts.statusResources) for (const cs of (status['containerStatuses'] ?? []) as J[]) if (cs?.name) statuses.set(cs.name, cs);
  let total: ResourceList = new Map();
  for (const c of (spec['containers'] ?? []) as J[]) {
    let own = parseResourceList(c?.resources?.[which]);
    const cs = statuses.get(c?.name);
    if (cs?.resources) {
      const applied = parseResourceList(cs.resources[which]);
      own = status['resize'] === 'Infeasible' ? applied : maxOf(own, applied);
    }
    total = add(total, own);
  }
  let sidecars: ResourceList = new Map();
  const initMax: ResourceList = new Map();
  for (const c of (spec['initContainers'] ?? []) as J[]) {
    const own = parseResourceList(c?.resources?.[which]);
    let effective: ResourceList;
    if (c?.restartPolicy === 'Always') {
      total = add(total, own);
      sidecars = add(sidecars, own);
      effective = sidecars;
    } else {
      effective = add(own, sidecars);
    }
    maxInto(initMax, effective);
  }
  maxInto(total, initMax);
  return total;
}

export function podRequests(pod: KObject, opts: PodResourceOptions = {}): ResourceList {
  const reqs = aggregate(pod, 'requests', opts);
  if (opts.excludeOverhead) return reqs;
  const overhead = parseResourceList(((pod as J)['spec'] ?? {})['overhead']);
  return overhead.size ? add(reqs, overhead) : reqs;
}

export function podLimits(pod: KObject, opts: PodResourceOptions = {}): ResourceList {
  const limits = aggregate(pod, 'limits', opts);
  if (opts.excludeOverhead) return limits;
  const overhead = parseResourceList(((pod as J)['spec'] ?? {})['overhead']);
  for (const [k, v] of overhead) if (limits.has(k)) limits.set(k, addQuantity(limits.get(k)!, v));
  return limits;
}

/** v1 qos.GetPodQOS() === BestEffort: no container (nor init container) requests or limits a positive cpu or memory. */
export function isBestEffort(pod: KObject): boolean {
  const spec = ((pod as J)['spec'] ?? {}) as J;
  const all = [...((spec['containers'] ?? []) as J[]), ...((spec['initContainers'] ?? []) as J[])];
  const pod_ = parseResourceList(spec['resources']?.requests);
  const podLim = parseResourceList(spec['resources']?.limits);
  const lists = [pod_, podLim, ...all.flatMap((c) => [parseResourceList(c?.resources?.requests), parseResourceList(c?.resources?.limits)])];
  for (const l of lists) for (const k of ['cpu', 'memory']) if ((l.get(k)?.nanos ?? 0n) > 0n) return false;
  return true;
}
