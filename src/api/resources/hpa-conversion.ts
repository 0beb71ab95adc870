/**
 * autoscaling/v1 HorizontalPodAutoscaler ↔ autoscaling/v2 (the storage version), as kube's
 * pkg/apis/autoscaling/v1/conversion.go does it through the internal type:
 *
 * v2 → v1 (reads): spec.targetCPUUtilizationPercentage is the first `cpu` Resource metric's averageUtilization;
 * status.currentCPUUtilizationPercentage the last `cpu` Resource status's. Everything v1 cannot hold rides in
 * annotations, each the json.Marshal text of a Go value (HTML-safe escaping, Go field order, omitempty):
 *   - `autoscaling.alpha.kubernetes.io/metrics`: the metrics other than CPU utilization, as autoscaling/v1
 *     MetricSpecs (v1 field names: metricName, targetAverageValue, …);
 *   - `…/current-metrics`: every status metric, as v1 MetricStatuses;
 *   - `…/conditions`: status.conditions, as v1 conditions;
 *   - `…/behavior`: spec.behavior marshalled from the *internal* Go type, which has no json tags: Go field
 *     names (`ScaleUp`, `StabilizationWindowSeconds`, …), nil pointers as `null`, every field present.
 * Round-trip annotations already on the object are dropped first, so only these are ever shown.
 *
 * v1 → v2 (writes): the annotations are read back (json.Unmarshal: keys matched case-insensitively; an
 * annotation that does not decode is ignored), metrics from the annotation come before the CPU target, an
 * HPA with no metric at all gets kube's implicit 80% CPU utilization, and the four annotations are dropped.
 */
import type { KObject } from '../../machinery/objects.ts';
import { goMarshal } from '../../machinery/json/go-marshal.ts';
import { formatQuantity, parseQuantity } from '../../machinery/quantity.ts';

type J = Record<string, unknown>;

export const HPA_METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
export const HPA_CURRENT_METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const HPA_CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
export const HPA_BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';
const ROUND_TRIP = [HPA_METRICS_ANNOTATION, HPA_BEHAVIOR_ANNOTATION, HPA_CURRENT_METRICS_ANNOTATION, HPA_CONDITIONS_ANNOTATION];

/** autoscaling.DefaultCPUUtilization: the v1 implicit target. */
const DEFAULT_CPU_UTILIZATION = 80;

const isObj = (v: unknown): v is J => v !== null && typeof v === 'object' && !Array.isArray(v);
const rec = (v: unknown): J => (isObj(v) ? v : {});

// ---------------------------------------------------------------------------------------------------------
// Go values (what json.Marshal writes)

/** resource.Quantity's MarshalJSON: the canonical string; a missing (zero) quantity is "0". */
function goQuantity(v: unknown): string {
  if (v === undefined || v === null) return '0';
  try {
    return formatQuantity(parseQuantity(typeof v === 'number' ? v : String(v)));
  } catch {
    return String(v);
  }
}

/** metav1.Time's MarshalJSON: RFC 3339 in UTC at second precision, `null` for the zero time. */
function goTime(v: unknown): string | null {
  if (typeof v !== 'string' || v === '') return null;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? v : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** metav1.LabelSelector (matchLabels sorted as Go sorts map keys; omitempty everywhere). */
function goSelector(v: unknown): J | undefined {
  if (!isObj(v)) return undefined;
  const out: J = {};
  if (isObj(v['matchLabels']) && Object.keys(v['matchLabels']).length) {
    const ml: J = {};
    for (const k of Object.keys(v['matchLabels']).sort()) ml[k] = v['matchLabels'][k];
    out['matchLabels'] = ml;
  }
  if (Array.isArray(v['matchExpressions']) && v['matchExpressions'].length) {
    out['matchExpressions'] = v['matchExpressions'].map((e) => {
      const r = rec(e);
      const x: J = { key: r['key'] ?? '', operator: r['operator'] ?? '' };
      if (Array.isArray(r['values']) && r['values'].length) x['values'] = r['values'];
      return x;
    });
  }
  return out;
}

/** Object members in order, leaving out the omitempty ones that are unset. */
function fields(entries: Array<[string, unknown, 'omitempty'?]>): J {
  const out: J = {};
  for (const [k, v, omit] of entries) {
    if (omit && (v === undefined || v === null || v === '')) continue;
    out[k] = v === undefined ? null : v;
  }
  return out;
}

function v1Ref(ref: unknown): J {
  const r = rec(ref);
  return fields([['kind', r['kind'] ?? ''], ['name', r['name'] ?? ''], ['apiVersion', r['apiVersion'], 'omitempty']]);
}

const optQuantity = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : goQuantity(v));

/** autoscaling/v2 MetricSpec → autoscaling/v1 MetricSpec (Convert_autoscaling_MetricSpec_To_v1_MetricSpec). */
function v1MetricSpec(m: J): J {
  const out: J = { type: m['type'] ?? '' };
  if (isObj(m['object'])) {
    const o = m['object'];
    const t = rec(o['target']);
    const metric = rec(o['metric']);
    out['object'] = fields([
      ['target', v1Ref(o['describedObject'])], ['metricName', metric['name'] ?? ''], ['targetValue', goQuantity(t['value'])],
      ['selector', goSelector(metric['selector']), 'omitempty'], ['averageValue', optQuantity(t['averageValue']), 'omitempty'],
    ]);
  }
  if (isObj(m['pods'])) {
    const p = m['pods'];
    const metric = rec(p['metric']);
    out['pods'] = fields([
      ['metricName', metric['name'] ?? ''], ['targetAverageValue', goQuantity(rec(p['target'])['averageValue'])],
      ['selector', goSelector(metric['selector']), 'omitempty'],
    ]);
  }
  if (isObj(m['resource'])) {
    const r = m['resource'];
    const t = rec(r['target']);
    out['resource'] = fields([
      ['name', r['name'] ?? ''], ['targetAverageUtilization', t['averageUtilization'], 'omitempty'],
      ['targetAverageValue', optQuantity(t['averageValue']), 'omitempty'],
    ]);
  }
  if (isObj(m['containerResource'])) {
    const r = m['containerResource'];
    const t = rec(r['target']);
    out['containerResource'] = fields([
      ['name', r['name'] ?? ''], ['targetAverageUtilization', t['averageUtilization'], 'omitempty'],
      ['targetAverageValue', optQuantity(t['averageValue']), 'omitempty'], ['container', r['container'] ?? ''],
    ]);
  }
  if (isObj(m['external'])) {
    const e = m['external'];
    const t = rec(e['target']);
    const metric = rec(e['metric']);
    out['external'] = fields([
      ['metricName', metric['name'] ?? ''], ['metricSelector', goSelector(metric['selector']), 'omitempty'],
      ['targetValue', optQuantity(t['value']), 'omitempty'], ['targetAverageValue', optQuantity(t['averageValue']), 'omitempty'],
    ]);
  }
  return out;
}

/** autoscaling/v2 MetricStatus → autoscaling/v1 MetricStatus. */
function v1MetricStatus(m: J): J {
  const out: J = { type: m['type'] ?? '' };
  if (isObj(m['object'])) {
    const o = m['object'];
    const c = rec(o['current']);
    const metric = rec(o['metric']);
    out['object'] = fields([
      ['target', v1Ref(o['describedObject'])], ['metricName', metric['name'] ?? ''], ['currentValue', goQuantity(c['value'])],
      ['selector', goSelector(metric['selector']), 'omitempty'], ['averageValue', optQuantity(c['averageValue']), 'omitempty'],
    ]);
  }
  if (isObj(m['pods'])) {
    const p = m['pods'];
    const metric = rec(p['metric']);
    out['pods'] = fields([
      ['metricName', metric['name'] ?? ''], ['currentAverageValue', goQuantity(rec(p['current'])['averageValue'])],
      ['selector', goSelector(metric['selector']), 'omitempty'],
    ]);
  }
  if (isObj(m['resource'])) {
    const r = m['resource'];
    const c = rec(r['current']);
    out['resource'] = fields([
      ['name', r['name'] ?? ''], ['currentAverageUtilization', c['averageUtilization'], 'omitempty'], ['currentAverageValue', goQuantity(c['averageValue'])],
    ]);
  }
  if (isObj(m['containerResource'])) {
    const r = m['containerResource'];
    const c = rec(r['current']);
    out['containerResource'] = fields([
      ['name', r['name'] ?? ''], ['currentAverageUtilization', c['averageUtilization'], 'omitempty'], ['currentAverageValue', goQuantity(c['averageValue'])],
      ['container', r['container'] ?? ''],
    ]);
  }
  if (isObj(m['external'])) {
    const e = m['external'];
    const c = rec(e['current']);
    const metric = rec(e['metric']);
    out['external'] = fields([
      ['metricName', metric['name'] ?? ''], ['metricSelector', goSelector(metric['selector']), 'omitempty'],
      ['currentValue', goQuantity(c['value'])], ['currentAverageValue', optQuantity(c['averageValue']), 'omitempty'],
    ]);
  }
  return out;
}

function v1Condition(c: J): J {
  return fields([
    ['type', c['type'] ?? ''], ['status', c['status'] ?? ''], ['lastTransitionTime', goTime(c['lastTransitionTime'])],
    ['reason', c['reason'], 'omitempty'], ['message', c['message'], 'omitempty'],
  ]);
}

/** The internal (untagged) HPAScalingRules: Go field names, nil as null. */
function internalRules(v: unknown): J | null {
  if (!isObj(v)) return null;
  const policies = Array.isArray(v['policies'])
    ? v['policies'].map((p) => {
      const r = rec(p);
      return { Type: r['type'] ?? '', Value: r['value'] ?? 0, PeriodSeconds: r['periodSeconds'] ?? 0 };
    })
    : null;
  return {
    StabilizationWindowSeconds: v['stabilizationWindowSeconds'] ?? null,
    SelectPolicy: v['selectPolicy'] ?? null,
    Policies: policies,
    Tolerance: v['tolerance'] === undefined || v['tolerance'] === null ? null : goQuantity(v['tolerance']),
  };
}

/** json.Marshal of the internal HorizontalPodAutoscalerBehavior. */
export function behaviorAnnotation(behavior: J): string {
  return goMarshal({ ScaleUp: internalRules(behavior['scaleUp']), ScaleDown: internalRules(behavior['scaleDown']) });
}

// ---------------------------------------------------------------------------------------------------------
// Reading annotations back (json.Unmarshal into Go types)

class Undecodable extends Error {}

/** encoding/json's field lookup: the exact key, else a case-insensitive match. */
function ci(o: J, name: string): unknown {
  if (name in o) return o[name];
  const lower = name.toLowerCase();
  for (const k of Object.keys(o)) if (k.toLowerCase() === lower) return o[k];
  return undefined;
}

function dStruct(v: unknown): J | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObj(v)) throw new Undecodable();
  return v;
}

function dString(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new Undecodable();
  return v;
}

function dInt(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new Undecodable();
  return v;
}

/** Quantity's UnmarshalJSON: a string or number that parses; kept as written (canonicalised on output). */
function dQuantity(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' && typeof v !== 'number') throw new Undecodable();
  try {
    return formatQuantity(parseQuantity(typeof v === 'number' ? v : v.trim()));
  } catch {
    throw new Undecodable();
  }
}

function dSelector(v: unknown): J | undefined {
  const s = dStruct(v);
  return s ? structuredClone(s) : undefined;
}

function dList(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new Undecodable();
  return v;
}

const compact = (o: J): J => {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
};

function v2Ref(v: unknown): J {
  const r = dStruct(v) ?? {};
  return compact({ kind: dString(ci(r, 'kind')) ?? '', name: dString(ci(r, 'name')) ?? '', apiVersion: dString(ci(r, 'apiVersion')) });
}

function metricId(name: unknown, selector: unknown): J {
  return compact({ name: dString(name) ?? '', selector: dSelector(selector) });
}

/** autoscaling/v1 MetricSpec (decoded from the annotation) → autoscaling/v2. */
function v2MetricSpec(raw: unknown): J {
  const m = dStruct(raw) ?? {};
  const out: J = { type: dString(ci(m, 'type')) ?? '' };
  const o = dStruct(ci(m, 'object'));
  if (o) {
    const avg = dQuantity(ci(o, 'averageValue'));
    out['object'] = {
      describedObject: v2Ref(ci(o, 'target')),
      target: compact({ type: avg === undefined ? 'Value' : 'AverageValue', value: dQuantity(ci(o, 'targetValue')) ?? '0', averageValue: avg }),
      metric: metricId(ci(o, 'metricName'), ci(o, 'selector')),
    };
  }
  const p = dStruct(ci(m, 'pods'));
  if (p) {
    out['pods'] = {
      metric: metricId(ci(p, 'metricName'), ci(p, 'selector')),
      target: { type: 'AverageValue', averageValue: dQuantity(ci(p, 'targetAverageValue')) ?? '0' },
    };
  }
  for (const key of ['resource', 'containerResource'] as const) {
    const r = dStruct(ci(m, key));
    if (!r) continue;
    const util = dInt(ci(r, 'targetAverageUtilization'));
    const target = compact({ type: util === undefined ? 'AverageValue' : 'Utilization', averageValue: dQuantity(ci(r, 'targetAverageValue')), averageUtilization: util });
    out[key] = key === 'resource'
      ? { name: dString(ci(r, 'name')) ?? '', target }
      : { name: dString(ci(r, 'name')) ?? '', target, container: dString(ci(r, 'container')) ?? '' };
  }
  const e = dStruct(ci(m, 'external'));
  if (e) {
    const value = dQuantity(ci(e, 'targetValue'));
    out['external'] = {
      metric: metricId(ci(e, 'metricName'), ci(e, 'metricSelector')),
      target: compact({ type: value === undefined ? 'AverageValue' : 'Value', value, averageValue: dQuantity(ci(e, 'targetAverageValue')) }),
    };
  }
  return out;
}

/** autoscaling/v1 MetricStatus (decoded from the annotation) → autoscaling/v2. */
function v2MetricStatus(raw: unknown): J {
  const m = dStruct(raw) ?? {};
  const out: J = { type: dString(ci(m, 'type')) ?? '' };
  const o = dStruct(ci(m, 'object'));
  if (o) {
    out['object'] = {
      metric: metricId(ci(o, 'metricName'), ci(o, 'selector')),
      current: compact({ value: dQuantity(ci(o, 'currentValue')) ?? '0', averageValue: dQuantity(ci(o, 'averageValue')) }),
      describedObject: v2Ref(ci(o, 'target')),
    };
  }
  const p = dStruct(ci(m, 'pods'));
  if (p) {
    out['pods'] = { metric: metricId(ci(p, 'metricName'), ci(p, 'selector')), current: { averageValue: dQuantity(ci(p, 'currentAverageValue')) ?? '0' } };
  }
  for (const key of ['resource', 'containerResource'] as const) {
    const r = dStruct(ci(m, key));
    if (!r) continue;
    const current = compact({ averageValue: dQuantity(ci(r, 'currentAverageValue')) ?? '0', averageUtilization: dInt(ci(r, 'currentAverageUtilization')) });
    out[key] = key === 'resource'
      ? { name: dString(ci(r, 'name')) ?? '', current }
      : { name: dString(ci(r, 'name')) ?? '', current, container: dString(ci(r, 'container')) ?? '' };
  }
  const e = dStruct(ci(m, 'external'));
  if (e) {
    out['external'] = {
      metric: metricId(ci(e, 'metricName'), ci(e, 'metricSelector')),
      current: compact({ value: dQuantity(ci(e, 'currentValue')) ?? '0', averageValue: dQuantity(ci(e, 'currentAverageValue')) }),
    };
  }
  return out;
}

function v2Condition(raw: unknown): J {
  const c = dStruct(raw) ?? {};
  const t = ci(c, 'lastTransitionTime');
  if (t !== undefined && t !== null && (typeof t !== 'string' || Number.isNaN(Date.parse(t)))) throw new Undecodable();
  return compact({
    type: dString(ci(c, 'type')) ?? '', status: dString(ci(c, 'status')) ?? '',
    lastTransitionTime: typeof t === 'string' ? goTime(t) ?? undefined : undefined,
    reason: dString(ci(c, 'reason')) || undefined, message: dString(ci(c, 'message')) || undefined,
  });
}

function v2Rules(raw: unknown): J | undefined {
  const r = dStruct(raw);
  if (!r) return undefined;
  const policies = ci(r, 'Policies');
  return compact({
    stabilizationWindowSeconds: dInt(ci(r, 'StabilizationWindowSeconds')),
    selectPolicy: dString(ci(r, 'SelectPolicy')),
    policies: policies === undefined || policies === null ? undefined : dList(policies).map((p) => {
      const x = dStruct(p) ?? {};
      return { type: dString(ci(x, 'Type')) ?? '', value: dInt(ci(x, 'Value')) ?? 0, periodSeconds: dInt(ci(x, 'PeriodSeconds')) ?? 0 };
    }),
    tolerance: dQuantity(ci(r, 'Tolerance')),
  });
}

/** Decodes one annotation with `read`; undefined when absent or when it does not decode (kube ignores it). */
function readAnnotation<T>(annotations: Record<string, string>, key: string, read: (v: unknown) => T): T | undefined {
  const raw = annotations[key];
  if (raw === undefined) return undefined;
  try {
    return read(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------

const isCpu = (m: J, key: 'target' | 'current'): boolean =>
  m['type'] === 'Resource' && isObj(m['resource']) && m['resource']['name'] === 'cpu' && isObj(m['resource'][key]);

function withoutRoundTrip(annotations: Record<string, string> | undefined): Record<string, string> {
  const out = { ...(annotations ?? {}) };
  for (const k of ROUND_TRIP) delete out[k];
  return out;
}

function setAnnotations(obj: KObject, annotations: Record<string, string>): void {
  if (Object.keys(annotations).length) obj.metadata.annotations = annotations;
  else delete obj.metadata.annotations;
}

/** autoscaling/v1 → autoscaling/v2. */
export function hpaV1ToV2(o: KObject): KObject {
  const spec = { ...rec(o['spec']) };
  const annotations = o.metadata.annotations ?? {};
  const metrics: J[] = readAnnotation(annotations, HPA_METRICS_ANNOTATION, (v) => dList(v).map(v2MetricSpec)) ?? [];
  if (typeof spec['targetCPUUtilizationPercentage'] === 'number') {
    metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec['targetCPUUtilizationPercentage'] } } });
  }
  delete spec['targetCPUUtilizationPercentage'];
  // autoscaling/v1's implicit default, made explicit now that every metric is known.
  spec['metrics'] = metrics.length ? metrics : [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
  const behavior = readAnnotation(annotations, HPA_BEHAVIOR_ANNOTATION, (v) => {
    const b = dStruct(v) ?? {};
    return compact({ scaleUp: v2Rules(ci(b, 'ScaleUp')), scaleDown: v2Rules(ci(b, 'ScaleDown')) });
  });
  delete spec['behavior'];
  if (behavior && Object.keys(behavior).length) spec['behavior'] = behavior;
  const out: KObject = { ...o, apiVersion: 'autoscaling/v2', metadata: { ...o.metadata }, spec };
  if (o['status'] !== undefined) {
    const status = { ...rec(o['status']) };
    const cpu = status['currentCPUUtilizationPercentage'];
    delete status['currentCPUUtilizationPercentage'];
    delete status['currentMetrics'];
    if (typeof cpu === 'number') status['currentMetrics'] = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: cpu } } }];
    // The annotation has more information than the CPU figure: it wins.
    const current = readAnnotation(annotations, HPA_CURRENT_METRICS_ANNOTATION, (v) => dList(v).map(v2MetricStatus));
    if (current) {
      if (current.length) status['currentMetrics'] = current;
      else delete status['currentMetrics'];
    }
    delete status['conditions'];
    const conditions = readAnnotation(annotations, HPA_CONDITIONS_ANNOTATION, (v) => dList(v).map(v2Condition));
    if (conditions?.length) status['conditions'] = conditions;
    out['status'] = status;
  }
  setAnnotations(out, withoutRoundTrip(o.metadata.annotations));
  return out;
}

/** autoscaling/v2 → autoscaling/v1. */
export function hpaV2ToV1(o: KObject): KObject {
  const spec = { ...rec(o['spec']) };
  const annotations = withoutRoundTrip(o.metadata.annotations);
  const metrics = Array.isArray(spec['metrics']) ? spec['metrics'].map(rec) : [];
  delete spec['metrics'];
  const cpu = metrics.find((m) => m['type'] === 'Resource' && isObj(m['resource']) && m['resource']['name'] === 'cpu');
  const cpuTarget = cpu ? rec(rec(cpu['resource'])['target'])['averageUtilization'] : undefined;
  if (typeof cpuTarget === 'number') spec['targetCPUUtilizationPercentage'] = cpuTarget;
  const others = metrics.filter((m) => !(isCpu(m, 'target') && typeof rec(rec(m['resource'])['target'])['averageUtilization'] === 'number'));
  if (others.length) annotations[HPA_METRICS_ANNOTATION] = goMarshal(others.map(v1MetricSpec));
  if (isObj(spec['behavior'])) annotations[HPA_BEHAVIOR_ANNOTATION] = behaviorAnnotation(spec['behavior']);
  delete spec['behavior'];
  const out: KObject = { ...o, apiVersion: 'autoscaling/v1', metadata: { ...o.metadata }, spec };
  if (o['status'] !== undefined) {
    const status = { ...rec(o['status']) };
    const current = Array.isArray(status['currentMetrics']) ? status['currentMetrics'].map(rec) : [];
    const conditions = Array.isArray(status['conditions']) ? status['conditions'].map(rec) : [];
    delete status['currentMetrics'];
    delete status['conditions'];
    for (const m of current) {
      const u = isCpu(m, 'current') ? rec(rec(m['resource'])['current'])['averageUtilization'] : undefined;
      if (typeof u === 'number') status['currentCPUUtilizationPercentage'] = u;
    }
    if (current.length) annotations[HPA_CURRENT_METRICS_ANNOTATION] = goMarshal(current.map(v1MetricStatus));
    if (conditions.length) annotations[HPA_CONDITIONS_ANNOTATION] = goMarshal(conditions.map(v1Condition));
    out['status'] = status;
  }
  setAnnotations(out, annotations);
  return out;
}
