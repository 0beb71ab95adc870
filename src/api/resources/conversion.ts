/**
 * Conversions between a served version and the version objects are stored as, for the built-in resources
 * whose served and stored shapes differ:
 *   - events.k8s.io/v1 Event ↔ core/v1 Event (kube stores both under /registry/events/ as core Events);
 *   - autoscaling/v1 HorizontalPodAutoscaler ↔ autoscaling/v2 (the storage version).
 * The registry converts on the way in (`toStorage`) and out (`fromStorage`); apiVersion/kind are set here.
 * Conversions keep metadata untouched and are total: unknown fields pass through unchanged.
 */
import type { KObject } from '../../machinery/objects.ts';
import type { ResourceDef } from '../types.ts';


export interface VersionConverter {
  /** Served version → storage version. */
  toStorage(obj: KObject): KObject;
  /** Storage version → served version. */
  fromStorage(obj: KObject): KObject;
}

type J = Record<string, unknown>;
const gv = (g: string, v: string) => (g ? `${g}/${v}` : v);

/** [events.k8s.io/v1 field, core/v1 field] */
const EVENT_FIELDS: Array<[string, string]> = [
  ['regarding', 'involvedObject'], ['note', 'message'], ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'], ['deprecatedFirstTimestamp', 'firstTimestamp'], ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

function renameFields(obj: KObject, pairs: Array<[string, string]>, apiVersion: string): KObject {
  const out: KObject = { ...obj, apiVersion };
  for (const [from, to] of pairs) {
    delete out[from];
    if (obj[from] !== undefined) out[to] = obj[from];
  }
  return out;
}

export const eventsV1Converter: VersionConverter = {
  toStorage: (o) => renameFields(o, EVENT_FIELDS, 'v1'),
  fromStorage: (o) => renameFields(o, EVENT_FIELDS.map(([a, b]) => [b, a]), 'events.k8s.io/v1'),
};

const HPA_METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
const HPA_CURRENT_METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
const HPA_CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
const HPA_BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';

const isCpuUtilization = (m: J, key: 'target' | 'current') =>
  m['type'] === 'Resource' && (m['resource'] as J | undefined)?.['name'] === 'cpu' && ((m['resource'] as J)[key] as J | undefined)?.['averageUtilization'] !== undefined;

function parseAnnotation(obj: KObject, key: string): unknown[] | J | undefined {
  const raw = obj.metadata.annotations?.[key];
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as unknown[] | J;
  } catch {
    return undefined;
  }
}

/** autoscaling/v1 ↔ v2: v1 keeps only the CPU utilization target; the rest rides in annotations as kube does. */
export const hpaV1Converter: VersionConverter = {
  toStorage(o) {
    const spec = { ...((o['spec'] as J | undefined) ?? {}) };
    const status = o['status'] === undefined ? undefined : { ...(o['status'] as J) };
    const annotations = { ...(o.metadata.annotations ?? {}) };
    const metrics: J[] = [];
    if (typeof spec['targetCPUUtilizationPercentage'] === 'number') {
      metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec['targetCPUUtilizationPercentage'] } } });
    }
    const extra = parseAnnotation(o, HPA_METRICS_ANNOTATION);
    if (Array.isArray(extra)) metrics.push(...(extra as J[]));
    delete spec['targetCPUUtilizationPercentage'];
    if (metrics.length) spec['metrics'] = metrics;
    const behavior = parseAnnotation(o, HPA_BEHAVIOR_ANNOTATION);
    if (behavior && !Array.isArray(behavior)) spec['behavior'] = behavior;
    if (status) {
      const current: J[] = [];
      if (typeof status['currentCPUUtilizationPercentage'] === 'number') {
        current.push({ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status['currentCPUUtilizationPercentage'] } } });
      }
      const extraCur = parseAnnotation(o, HPA_CURRENT_METRICS_ANNOTATION);
      if (Array.isArray(extraCur)) current.push(...(extraCur as J[]));
      delete status['currentCPUUtilizationPercentage'];
      if (current.length) status['currentMetrics'] = current;
      const conds = parseAnnotation(o, HPA_CONDITIONS_ANNOTATION);
      if (Array.isArray(conds)) status['conditions'] = conds;
    }
    for (const k of [HPA_METRICS_ANNOTATION, HPA_CURRENT_METRICS_ANNOTATION, HPA_CONDITIONS_ANNOTATION, HPA_BEHAVIOR_ANNOTATION]) delete annotations[k];
    const out: KObject = { ...o, apiVersion: 'autoscaling/v2', metadata: { ...o.metadata }, spec };
    if (Object.keys(annotations).length) out.metadata.annotations = annotations;
    else delete out.metadata.annotations;
    if (status) out['status'] = status;
    return out;
  },
  fromStorage(o) {
    const spec = { ...((o['spec'] as J | undefined) ?? {}) };
    const annotations = { ...(o.metadata.annotations ?? {}) };
    const metrics = Array.isArray(spec['metrics']) ? (spec['metrics'] as J[]) : [];
    const cpu = metrics.find((m) => isCpuUtilization(m, 'target'));
    const others = metrics.filter((m) => m !== cpu);
    delete spec['metrics'];
    if (cpu) spec['targetCPUUtilizationPercentage'] = ((cpu['resource'] as J)['target'] as J)['averageUtilization'];
    if (others.length) annotations[HPA_METRICS_ANNOTATION] = JSON.stringify(others);
    if (spec['behavior'] !== undefined) {
      annotations[HPA_BEHAVIOR_ANNOTATION] = JSON.stringify(spec['behavior']);
      delete spec['behavior'];
    }
    let status: J | undefined;
    if (o['status'] !== undefined) {
      status = { ...(o['status'] as J) };
      const current = Array.isArray(status['currentMetrics']) ? (status['currentMetrics'] as J[]) : [];
      const cur = current.find((m) => isCpuUtilization(m, 'current'));
      const rest = current.filter((m) => m !== cur);
      delete status['currentMetrics'];
      if (cur) status['currentCPUUtilizationPercentage'] = ((cur['resource'] as J)['current'] as J)['averageUtilization'];
      if (rest.length) annotations[HPA_CURRENT_METRICS_ANNOTATION] = JSON.stringify(rest);
      if (Array.isArray(status['conditions'])) {
        annotations[HPA_CONDITIONS_ANNOTATION] = JSON.stringify(status['conditions']);
        delete status['conditions'];
      }
    }
    const out: KObject = { ...o, apiVersion: 'autoscaling/v1', metadata: { ...o.metadata }, spec };
    if (Object.keys(annotations).length) out.metadata.annotations = annotations;
    else delete out.metadata.annotations;
    if (status) out['status'] = status;
    return out;
  },
};

/** The converter for a served resource whose storage group/version differs; undefined when none is needed. */
export function converterFor(def: Pick<ResourceDef, 'group' | 'version' | 'kind'>, storage: StorageGVK): VersionConverter | undefined {
  if (def.group === storage.group && def.version === storage.version) return undefined;
  if (def.kind === 'Event' && def.group === 'events.k8s.io' && storage.group === '') return eventsV1Converter;
  if (def.kind === 'HorizontalPodAutoscaler' && def.version === 'v1' && storage.version === 'v2') return hpaV1Converter;
  // A stored version with the same shape (nothing to rename): only apiVersion changes.
  return {
    toStorage: (o) => ({ ...o, apiVersion: gv(storage.group, storage.version) }),
    fromStorage: (o) => ({ ...o, apiVersion: gv(def.group, def.version) }),
  };
}

/** Where objects live in storage when not in their own group/version (events.k8s.io → core v1 Event). */
export interface StorageGVK {
  group: string;
  version: string;
}
