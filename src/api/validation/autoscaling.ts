/**
 * autoscaling HorizontalPodAutoscaler, v2 and v1 shapes (pkg/apis/autoscaling/validation/validation.go:
 * validateHorizontalPodAutoscalerSpec, ValidateCrossVersionObjectReference, validateMetrics, validateMetricSpec,
 * validateMetricTarget, validateBehavior). Kube validates the internal (v2-shaped) object, so a v1
 * targetCPUUtilizationPercentage is reported as spec.metrics[0].resource.target.averageUtilization.
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { isValidPathSegmentName } from '../../machinery/validation/names.ts';
import { validateContainerResourceName } from './core-resources.ts';
import { tryParseQuantity } from '../../machinery/quantity.ts';
import { type J, arr, isSet, obj, str } from './util.ts';

const METRIC_TYPES = ['Object', 'Pods', 'Resource', 'External', 'ContainerResource'];
const SOURCE_KEYS: Record<string, string> = { Object: 'object', Pods: 'pods', Resource: 'resource', External: 'external', ContainerResource: 'containerResource' };
const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;

function crossVersionRef(ref: unknown, path: string): FieldError[] {
  const r = obj(ref);
  const errs: FieldError[] = [];
  for (const k of ['kind', 'name']) {
    const v = str(r[k]);
    if (!v) errs.push(field.required(`${path}.${k}`));
    else for (const m of isValidPathSegmentName(v)) errs.push(field.invalid(`${path}.${k}`, v, m));
  }
  return errs;
}

function metricIdentifier(id: unknown, path: string): FieldError[] {
  const name = str(obj(id)['name']);
  if (!name) return [field.required(`${path}.name`, 'must specify a metric name')];
  return isValidPathSegmentName(name).map((m) => field.invalid(`${path}.name`, name, m));
}

function positiveQuantity(v: unknown, path: string): FieldError[] {
  if (!isSet(v)) return [];
  const q = tryParseQuantity(v);
  if (typeof q === 'string') return [field.invalid(path, v, q)];
  return q.nanos > 0n ? [] : [field.invalid(path, v, 'must be positive')];
}

function metricTarget(target: unknown, path: string): FieldError[] {
  const t = obj(target);
  const type = str(t['type']);
  if (!type) return [field.required(`${path}.type`, 'must specify a metric target type')];
  const errs: FieldError[] = [];
  if (!['Utilization', 'Value', 'AverageValue'].includes(type)) errs.push(field.invalid(`${path}.type`, type, 'must be either Utilization, Value, or AverageValue'));
  errs.push(...positiveQuantity(t['value'], `${path}.value`));
  errs.push(...positiveQuantity(t['averageValue'], `${path}.averageValue`));
  const au = t['averageUtilization'];
  if (typeof au === 'number' && au < 1) errs.push(field.invalid(`${path}.averageUtilization`, au, 'must be greater than 0'));
  return errs;
}

function source(type: string, s: J, path: string): FieldError[] {
  const target = obj(s['target']);
  const errs: FieldError[] = [];
  switch (type) {
    case 'Object':
      errs.push(...crossVersionRef(s['describedObject'], `${path}.describedObject`), ...metricIdentifier(s['metric'], `${path}.metric`), ...metricTarget(target, `${path}.target`));
      if (!isSet(target['value']) && !isSet(target['averageValue'])) errs.push(field.required(`${path}.target.averageValue`, 'must set either a target value or averageValue'));
      break;
    case 'Pods':
      errs.push(...metricIdentifier(s['metric'], `${path}.metric`), ...metricTarget(target, `${path}.target`));
      if (!isSet(target['averageValue'])) errs.push(field.required(`${path}.target.averageValue`, 'must specify a positive target averageValue'));
      break;
    case 'External':
      errs.push(...metricIdentifier(s['metric'], `${path}.metric`), ...metricTarget(target, `${path}.target`));
      if (!isSet(target['value']) && !isSet(target['averageValue'])) errs.push(field.required(`${path}.target.averageValue`, 'must set either a target value for metric or a per-pod target'));
      if (isSet(target['value']) && isSet(target['averageValue'])) errs.push(field.forbidden(`${path}.target.value`, 'may not set both a target value for metric and a per-pod target'));
      break;
    default: {
      const name = str(s['name']);
      if (!name) errs.push(field.required(`${path}.name`, 'must specify a resource name'));
      else errs.push(...validateContainerResourceName(name, `${path}.name`));
      if (type === 'ContainerResource' && !str(s['container'])) errs.push(field.required(`${path}.container`, 'must specify a container'));
      errs.push(...metricTarget(target, `${path}.target`));
      if (!isSet(target['averageUtilization']) && !isSet(target['averageValue'])) errs.push(field.required(`${path}.target.averageUtilization`, 'must set either a target raw value or a target utilization'));
      if (isSet(target['averageUtilization']) && isSet(target['averageValue'])) errs.push(field.forbidden(`${path}.target.averageValue`, 'may not set both a target raw value and a target utilization'));
    }
  }
  return errs;
}

function metricSpec(m: J, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(m['type']);
  if (!type) errs.push(field.required(`${path}.type`, 'must specify a metric source type'));
  if (!METRIC_TYPES.includes(type)) errs.push(field.notSupported(`${path}.type`, type, METRIC_TYPES));
  const present = Object.values(SOURCE_KEYS).filter((k) => isSet(m[k]));
  const first = present[0];
  if (first) {
    const firstType = Object.keys(SOURCE_KEYS).find((t) => SOURCE_KEYS[t] === first)!;
    errs.push(...source(firstType, obj(m[first]), `${path}.${first}`));
  }
  const expected = SOURCE_KEYS[type];
  if (expected) {
    if (!isSet(m[expected])) errs.push(field.required(`${path}.${expected}`, 'must populate information for the given metric source'));
  } else if (type) {
    errs.push(field.notSupported(`${path}.type`, type, METRIC_TYPES));
  }
  if (present.length !== 1) for (const k of present.filter((k) => k !== expected)) errs.push(field.forbidden(`${path}.${k}`, 'must populate the given metric source only'));
  return errs;
}

function scalingRules(rules: unknown, path: string): FieldError[] {
  if (!isSet(rules)) return [];
  const r = obj(rules);
  const errs: FieldError[] = [];
  const w = r['stabilizationWindowSeconds'];
  if (typeof w === 'number' && w < 0) errs.push(field.invalid(`${path}.stabilizationWindowSeconds`, w, 'must be greater than or equal to zero'));
  if (typeof w === 'number' && w > MAX_STABILIZATION_WINDOW_SECONDS) errs.push(field.invalid(`${path}.stabilizationWindowSeconds`, w, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  const sp = str(r['selectPolicy']);
  if (sp && !['Max', 'Min', 'Disabled'].includes(sp)) errs.push(field.notSupported(`${path}.selectPolicy`, sp, ['Max', 'Min', 'Disabled']));
  const policies = arr(r['policies']);
  // Writes through autoscaling/v2 are defaulted first (SetDefaults_HorizontalPodAutoscalerBehavior fills absent
  // policies), so this catches an explicit empty list there; a behavior written through autoscaling/v1's
  // annotation is not defaulted before validation, so its absent policies are refused too, as in kube.
  if (policies.length === 0) errs.push(field.required(`${path}.policies`, 'must specify at least one Policy'));
  policies.forEach((raw, i) => {
    const p = obj(raw);
    const pp = `${path}.policies[${i}]`;
    if (p['type'] !== 'Pods' && p['type'] !== 'Percent') errs.push(field.notSupported(`${pp}.type`, p['type'] ?? '', ['Pods', 'Percent']));
    const value = typeof p['value'] === 'number' ? p['value'] : 0;
    if (value <= 0) errs.push(field.invalid(`${pp}.value`, value, 'must be greater than zero'));
    const period = typeof p['periodSeconds'] === 'number' ? p['periodSeconds'] : 0;
    if (period <= 0) errs.push(field.invalid(`${pp}.periodSeconds`, period, 'must be greater than zero'));
    if (period > MAX_PERIOD_SECONDS) errs.push(field.invalid(`${pp}.periodSeconds`, period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  });
  return errs;
}

export function validateHorizontalPodAutoscaler(hpa: J): FieldError[] {
  const spec = obj(hpa['spec']);
  const errs: FieldError[] = [];
  const min = spec['minReplicas'];
  const max = typeof spec['maxReplicas'] === 'number' ? spec['maxReplicas'] : 0;
  if (typeof min === 'number' && min < 1) errs.push(field.invalid('spec.minReplicas', min, 'must be greater than or equal to 1'));
  if (max < 1) errs.push(field.invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (typeof min === 'number' && max < min) errs.push(field.invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...crossVersionRef(spec['scaleTargetRef'], 'spec.scaleTargetRef'));
  if ('targetCPUUtilizationPercentage' in spec) {
    const t = spec['targetCPUUtilizationPercentage'];
    if (typeof t === 'number' && t < 1) errs.push(field.invalid('spec.metrics[0].resource.target.averageUtilization', t, 'must be greater than 0'));
  }
  arr(spec['metrics']).forEach((m, i) => errs.push(...metricSpec(obj(m), `spec.metrics[${i}]`)));
  if (isSet(spec['behavior'])) {
    const b = obj(spec['behavior']);
    errs.push(...scalingRules(b['scaleUp'], 'spec.behavior.scaleUp'), ...scalingRules(b['scaleDown'], 'spec.behavior.scaleDown'));
  }
  return errs;
}
