/**
 * Pods: Table columns (kube's printPod), field selectors, and the strategy (status Pending on create, status
 * owned by /status, graceful deletion with the pod's terminationGracePeriodSeconds).
 */
import type { KObject } from '../../../machinery/objects.ts';
import type { TableColumn } from '../../../api/types.ts';
import type { RegistryStrategy } from '../../strategy.ts';
import { DOCS } from '../docs.ts';
import { ageColumn, arr, col, get, nameColumn, num, rec, str, translateTimestampSince } from '../columns.ts';
import { keepAllButStatus, statusStrategy } from '../strategy-kit.ts';
import { fieldOf } from '../../../api/resources/define.ts';
import { podDefaults, podSpecConversion } from './defaults.ts';

type R = Record<string, unknown>;

function isRestartableInit(c: R | undefined): boolean {
  return c !== undefined && c['restartPolicy'] === 'Always';
}

function laterOf(a: string, b: unknown): string {
  const bs = str(b);
  if (!bs) return a;
  if (!a) return bs;
  return Date.parse(bs) > Date.parse(a) ? bs : a;
}

/** The Ready / Status / Restarts cells, computed as kube's printPod does. */
export function podSummary(pod: KObject, now = Date.now()): { ready: string; reason: string; restarts: string } {
  const spec = rec(pod['spec']);
  const status = rec(pod['status']);
  let restarts = 0;
  let restartableInitRestarts = 0;
  let lastRestart = '';
  let lastRestartableInitRestart = '';
  let readyContainers = 0;
  const containers = arr(spec['containers']);
  let totalContainers = containers.length;
  const phase = str(status['phase']);
  let reason = str(status['reason']) || phase;
  const conditions = arr(status['conditions']).map(rec);
  for (const c of conditions) if (c['type'] === 'PodScheduled' && c['reason'] === 'SchedulingGated') reason = 'SchedulingGated';

  const initSpecs = new Map<string, R>();
  const initContainers = arr(spec['initContainers']).map(rec);
  for (const c of initContainers) {
    initSpecs.set(str(c['name']), c);
    if (isRestartableInit(c)) totalContainers++;
  }
  let initializing = false;
  const initStatuses = arr(status['initContainerStatuses']).map(rec);
  for (let i = 0; i < initStatuses.length; i++) {
    const cs = initStatuses[i]!;
    restarts += num(cs['restartCount']);
    const lastTerm = rec(rec(cs['lastState'])['terminated']);
    if (lastTerm['finishedAt']) lastRestart = laterOf(lastRestart, lastTerm['finishedAt']);
    const cspec = initSpecs.get(str(cs['name']));
    if (isRestartableInit(cspec)) {
      restartableInitRestarts += num(cs['restartCount']);
      if (lastTerm['finishedAt']) lastRestartableInitRestart = laterOf(lastRestartableInitRestart, lastTerm['finishedAt']);
    }
    const state = rec(cs['state']);
    const term = state['terminated'] ? rec(state['terminated']) : undefined;
    const waiting = state['waiting'] ? rec(state['waiting']) : undefined;
    if (term && num(term['exitCode']) === 0) continue;
    if (isRestartableInit(cspec) && cs['started'] === true) {
      if (cs['ready'] === true) readyContainers++;
      continue;
    }
    if (term) {
      if (!str(term['reason'])) {
        reason = num(term['signal']) !== 0 ? `Init:Signal:${num(term['signal'])}` : `Init:ExitCode:${num(term['exitCode'])}`;
      } else {
        reason = `Init:${str(term['reason'])}`;
      }
    } else if (waiting && str(waiting['reason']) && waiting['reason'] !== 'PodInitializing') {
      reason = `Init:${str(waiting['reason'])}`;
    } else {
      reason = `Init:${i}/${initContainers.length}`;
    }
    initializing = true;
    break;
  }
  const initializedTrue = conditions.some((c) => c['type'] === 'Initialized' && c['status'] === 'True');
  if (!initializing || initializedTrue) {
    restarts = restartableInitRestarts;
    lastRestart = lastRestartableInitRestart;
    let hasRunning = false;
    const statuses = arr(status['containerStatuses']).map(rec);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i]!;
      restarts += num(cs['restartCount']);
      const lastTerm = rec(rec(cs['lastState'])['terminated']);
      if (lastTerm['finishedAt']) lastRestart = laterOf(lastRestart, lastTerm['finishedAt']);
      const state = rec(cs['state']);
      const term = state['terminated'] ? rec(state['terminated']) : undefined;
      const waiting = state['waiting'] ? rec(state['waiting']) : undefined;
      if (waiting && str(waiting['reason'])) reason = str(waiting['reason']);
      else if (term && str(term['reason'])) reason = str(term['reason']);
      else if (term) reason = num(term['signal']) !== 0 ? `Signal:${num(term['signal'])}` : `ExitCode:${num(term['exitCode'])}`;
      else if (cs['ready'] === true && state['running'] !== undefined) {
        hasRunning = true;
        readyContainers++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = conditions.some((c) => c['type'] === 'Ready' && c['status'] === 'True') ? 'Running' : 'NotReady';
    }
  }
  if (pod.metadata.deletionTimestamp && status['reason'] === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';

  let restartsStr = String(restarts);
  if (restarts !== 0 && lastRestart) restartsStr = `${restarts} (${translateTimestampSince(lastRestart, now)} ago)`;
  return { ready: `${readyContainers}/${totalContainers}`, reason, restarts: restartsStr };
}

function readinessGates(pod: KObject): string {
  const gates = arr(get(pod, 'spec.readinessGates')).map(rec);
  if (!gates.length) return '<none>';
  const conditions = arr(get(pod, 'status.conditions')).map(rec);
  let trueCount = 0;
  for (const g of gates) {
    const c = conditions.find((x) => x['type'] === g['conditionType']);
    if (c && c['status'] === 'True') trueCount++;
  }
  return `${trueCount}/${gates.length}`;
}

/**
 * The Ready, Status and Restarts cells of a row share one summary: a one-slot memo for the object being
 * rendered, trusted for a second only (Restarts carries a relative time).
 */
let memo: { obj: KObject; at: number; value: ReturnType<typeof podSummary> } | undefined;
function summary(o: KObject): ReturnType<typeof podSummary> {
  const now = Date.now();
  if (memo && memo.obj === o && now - memo.at < 1000) return memo.value;
  memo = { obj: o, at: now, value: podSummary(o, now) };
  return memo.value;
}

export const podColumns: TableColumn[] = [
  nameColumn(),
  col('Ready', 'string', DOCS.podReady, (o) => summary(o).ready),
  col('Status', 'string', DOCS.podStatus, (o) => summary(o).reason),
  col('Restarts', 'string', DOCS.podRestarts, (o) => summary(o).restarts),
  ageColumn(),
  col('IP', 'string', DOCS.podIP, (o) => str(rec(arr(get(o, 'status.podIPs'))[0])['ip']) || '<none>', { priority: 1 }),
  col('Node', 'string', DOCS.podNodeName, (o) => str(get(o, 'spec.nodeName')) || '<none>', { priority: 1 }),
  col('Nominated Node', 'string', DOCS.nominatedNodeName, (o) => str(get(o, 'status.nominatedNodeName')) || '<none>', { priority: 1 }),
  col('Readiness Gates', 'string', DOCS.readinessGates, readinessGates, { priority: 1 }),
];

/** kube's pod field label set (pkg/registry/core/pod.PodToSelectableFields). */
export const podSelectableFields: Record<string, (o: KObject) => string> = {
  'spec.nodeName': fieldOf('spec.nodeName'),
  'spec.restartPolicy': fieldOf('spec.restartPolicy'),
  'spec.schedulerName': fieldOf('spec.schedulerName'),
  'spec.serviceAccountName': fieldOf('spec.serviceAccountName'),
  'spec.hostNetwork': (o) => String(get(o, 'spec.hostNetwork') === true),
  'status.phase': fieldOf('status.phase'),
  'status.podIP': (o) => str(rec(arr(get(o, 'status.podIPs'))[0])['ip']) || str(get(o, 'status.podIP')),
  'status.nominatedNodeName': fieldOf('status.nominatedNodeName'),
};

/**
 * `/resize` (in-place vertical scaling, beta and on in kube 1.33): everything comes from the stored pod
 * except each container's `resources` and `resizePolicy` (kube's dropNonResizeUpdates).
 */
function keepOnlyResize(obj: KObject, old: KObject): void {
  const wanted = new Map<string, R>();
  const spec = rec(obj['spec']);
  for (const c of [...arr(spec['containers']), ...arr(spec['initContainers'])].map(rec)) if (typeof c['name'] === 'string') wanted.set(c['name'], c);
  const keepMeta = { name: obj.metadata.name, namespace: obj.metadata.namespace, resourceVersion: obj.metadata.resourceVersion, uid: obj.metadata.uid };
  for (const k of Object.keys(obj)) delete obj[k];
  Object.assign(obj, structuredClone(old));
  for (const [k, v] of Object.entries(keepMeta)) {
    if (v === undefined) delete (obj.metadata as Record<string, unknown>)[k];
    else (obj.metadata as Record<string, unknown>)[k] = v;
  }
  const s = rec(obj['spec']);
  for (const list of [arr(s['containers']), arr(s['initContainers'])]) {
    for (const c of list.map(rec)) {
      const w = wanted.get(str(c['name']));
      if (!w) continue;
      for (const f of ['resources', 'resizePolicy']) {
        if (w[f] === undefined) delete c[f];
        else c[f] = w[f];
      }
    }
  }
}

/** QoS class from requests/limits (k8s.io/kubernetes/pkg/apis/core/helper/qos, simplified to cpu/memory). */
export function podQOSClass(pod: KObject): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  const spec = rec(pod['spec']);
  const all = [...arr(spec['containers']), ...arr(spec['initContainers'])].map(rec);
  let any = false;
  let guaranteed = true;
  for (const c of all) {
    const res = rec(c['resources']);
    const req = rec(res['requests']);
    const lim = rec(res['limits']);
    const names = ['cpu', 'memory'];
    for (const n of names) {
      if (req[n] !== undefined || lim[n] !== undefined) any = true;
      if (lim[n] === undefined) guaranteed = false;
      else if (req[n] !== undefined && String(req[n]) !== String(lim[n])) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

// kube 1.33 sets metadata.generation on pods (KEP-5067) and bumps it on spec changes.
const base = statusStrategy({
  status: true,
  generation: true,
  initialStatus: (pod) => ({ phase: 'Pending', qosClass: podQOSClass(pod) }),
  onCreate: (pod) => podSpecConversion(pod['spec']),
  onUpdate: (pod) => podSpecConversion(pod['spec']),
});

export const podStrategy: RegistryStrategy = {
  ...base,
  defaults: podDefaults,
  prepareForUpdate(obj, old, ctx) {
    if ((ctx.subresource ?? '') === 'status') {
      // kube's podStatusStrategy: spec, ownerReferences and deletionTimestamp stay as stored.
      keepAllButStatus(obj, old);
      if (old.metadata.ownerReferences === undefined) delete obj.metadata.ownerReferences;
      else obj.metadata.ownerReferences = structuredClone(old.metadata.ownerReferences);
      if (old.metadata.deletionTimestamp === undefined) delete obj.metadata.deletionTimestamp;
      else obj.metadata.deletionTimestamp = old.metadata.deletionTimestamp;
      return;
    }
    if ((ctx.subresource ?? '') === 'ephemeralcontainers') {
      // Only spec.ephemeralContainers may change here (kube's podEphemeralContainersStrategy).
      const wanted = rec(obj['spec'])['ephemeralContainers'];
      keepAllButStatus(obj, old);
      obj['status'] = old['status'] === undefined ? undefined : structuredClone(old['status']);
      if (obj['status'] === undefined) delete obj['status'];
      const spec = rec(obj['spec']);
      if (wanted === undefined) delete spec['ephemeralContainers'];
      else spec['ephemeralContainers'] = wanted;
      obj['spec'] = spec;
      return;
    }
    if ((ctx.subresource ?? '') === 'resize') {
      keepOnlyResize(obj, old);
      return;
    }
    // pods/binding writes spec.nodeName and the PodScheduled condition itself (kube writes storage directly).
    if ((ctx.subresource ?? '') === 'binding') return;
    base.prepareForUpdate?.(obj, old, ctx);
  },
  /**
   * kube's podStrategy.CheckGracefulDelete: the requested period, else spec.terminationGracePeriodSeconds
   * (default 30); 0 for pods never scheduled or already terminal.
   */
  gracefulDeletePeriod(obj, requested) {
    const spec = rec(obj['spec']);
    let period = requested ?? (typeof spec['terminationGracePeriodSeconds'] === 'number' ? spec['terminationGracePeriodSeconds'] : 30);
    const phase = get(obj, 'status.phase');
    if (!str(spec['nodeName']) || phase === 'Succeeded' || phase === 'Failed') period = 0;
    return Math.max(0, period);
  },
};
