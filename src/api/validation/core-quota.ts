/**
 * ResourceQuota and LimitRange (pkg/apis/core/validation/validation.go: ValidateResourceQuota,
 * ValidateResourceQuotaSpec, ValidateResourceQuotaStatus, validateResourceQuotaScopes, validateScopeSelector,
 * ValidateResourceQuotaResourceName, ValidateLimitRange; helpers from pkg/apis/core/helper).
 * Quantities in LimitRange causes are shown by their canonical text (kube prints a Go struct there).
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { isQualifiedName } from '../../machinery/validation/names.ts';
import { type Quantity, compareQuantity, formatQuantity, milliValue } from '../../machinery/quantity.ts';
import { quantityValue, validateContainerResourceName } from './core-resources.ts';
import { goQuote, goStrings, goInvalid } from './go-render.ts';
import { type J, arr, isSet, obj, str } from './util.ts';

const STANDARD_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets',
  'configmaps', 'persistentvolumeclaims', 'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers']);
const QUOTA_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.storage',
  'requests.ephemeral-storage', 'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers',
  'resourcequotas', 'secrets', 'persistentvolumeclaims', 'configmaps', 'services.loadbalancers', 'services.nodeports']);
const POD_COUNT = new Set(['pods']);
const POD_COMPUTE = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);
const SCOPES = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'];
const EXISTS_ONLY = new Set(['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity']);
const CONFLICTS = [['BestEffort', 'NotBestEffort'], ['Terminating', 'NotTerminating']];

const isHugePages = (n: string): boolean => n.startsWith('hugepages-');
const isQuotaHugePages = (n: string): boolean => isHugePages(n) || n.startsWith('requests.hugepages-') || n.startsWith('limits.hugepages-');
const isStandardQuota = (n: string): boolean => QUOTA_RESOURCES.has(n) || isQuotaHugePages(n);

/** validateResourceName */
function validateResourceName(name: string, path: string): FieldError[] {
  const q = isQualifiedName(name);
  if (q.length) return q.map((m) => field.invalid(path, name, m));
  if (!name.includes('/') && !STANDARD_RESOURCES.has(name) && !isQuotaHugePages(name)) {
    return [field.invalid(path, name, 'must be a standard resource type or fully qualified')];
  }
  return [];
}

/** ValidateResourceQuotaResourceName */
function validateQuotaResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/') && !isStandardQuota(name)) errs.push(field.invalid(path, name, 'must be a standard resource for quota'));
  return errs;
}

function validQuotaList(list: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(obj(list))) {
    const p = `${path}[${k}]`;
    errs.push(...validateQuotaResourceName(k, p));
    quantityValue(k, v, p, errs);
  }
  return errs;
}

/** helper.IsResourceQuotaScopeValidForResource */
function scopeValidFor(scope: string, resource: string): boolean {
  if (scope === 'BestEffort') return POD_COUNT.has(resource);
  if (['Terminating', 'NotTerminating', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'].includes(scope)) {
    return POD_COUNT.has(resource) || POD_COMPUTE.has(resource);
  }
  return true;
}

/** `%#v` of a dereferenced core.ScopeSelector. */
function goScopeSelector(sel: J): string {
  const exprs = arr(sel['matchExpressions']).map((e) => {
    const r = obj(e);
    return `core.ScopedResourceSelectorRequirement{ScopeName:${goQuote(str(r['scopeName']))}, Operator:${goQuote(str(r['operator']))}, Values:${goStrings(r['values'])}}`;
  });
  const list = Array.isArray(sel['matchExpressions']) ? `[]core.ScopedResourceSelectorRequirement{${exprs.join(', ')}}` : '[]core.ScopedResourceSelectorRequirement(nil)';
  return `core.ScopeSelector{MatchExpressions:${list}}`;
}

function validateScopes(spec: J): FieldError[] {
  const scopes = arr(spec['scopes']).map(str);
  if (scopes.length === 0) return [];
  const hard = Object.keys(obj(spec['hard'])).sort();
  const rendered = goStrings(scopes, '[]core.ResourceQuotaScope');
  const errs: FieldError[] = [];
  for (const s of scopes) {
    if (!SCOPES.includes(s)) errs.push(goInvalid('spec.scopes', rendered, 'unsupported scope'));
    for (const k of hard) if (isStandardQuota(k) && !scopeValidFor(s, k)) errs.push(goInvalid('spec.scopes', rendered, 'unsupported scope applied to resource'));
  }
  for (const pair of CONFLICTS) if (pair.every((p) => scopes.includes(p))) errs.push(goInvalid('spec.scopes', rendered, 'conflicting scopes'));
  return errs;
}

function validateScopeSelector(spec: J): FieldError[] {
  if (!isSet(spec['scopeSelector'])) return [];
  const sel = obj(spec['scopeSelector']);
  const hard = Object.keys(obj(spec['hard'])).sort();
  const path = 'spec.scopeSelector.matchExpressions';
  const errs: FieldError[] = [];
  const names = new Set<string>();
  for (const raw of arr(sel['matchExpressions'])) {
    const r = obj(raw);
    const scope = str(r['scopeName']);
    const op = str(r['operator']);
    const values = arr(r['values']);
    if (!SCOPES.includes(scope)) errs.push(field.invalid(`${path}.scopeName`, scope, 'unsupported scope'));
    for (const k of hard) if (isStandardQuota(k) && !scopeValidFor(scope, k)) errs.push(goInvalid(path, goScopeSelector(sel), 'unsupported scope applied to resource'));
    if (EXISTS_ONLY.has(scope) && op !== 'Exists') {
      errs.push(field.invalid(`${path}.operator`, op, "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"));
    }
    if (op === 'In' || op === 'NotIn') {
      if (values.length === 0) errs.push(field.required(`${path}.values`, "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
    } else if (op === 'Exists' || op === 'DoesNotExist') {
      if (values.length !== 0) errs.push(goInvalid(`${path}.values`, goStrings(values), "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
    } else {
      errs.push(field.invalid(`${path}.operator`, op, 'not a valid selector operator'));
    }
    names.add(scope);
  }
  for (const pair of CONFLICTS) if (pair.every((p) => names.has(p))) errs.push(goInvalid(path, goScopeSelector(sel), 'conflicting scopes'));
  return errs;
}

export function validateResourceQuota(rq: J): FieldError[] {
  const spec = obj(rq['spec']);
  const status = obj(rq['status']);
  return [
    ...validQuotaList(spec['hard'], 'spec.hard'),
    ...validateScopes(spec),
    ...validateScopeSelector(spec),
    ...validQuotaList(status['hard'], 'status.hard'),
    ...validQuotaList(status['used'], 'status.used'),
  ];
}

/** ValidateResourceQuotaUpdate: the spec rules, and the scopes may not change. */
export function validateResourceQuotaUpdate(rq: J, old: J): FieldError[] {
  const spec = obj(rq['spec']);
  const errs = [...validQuotaList(spec['hard'], 'spec.hard'), ...validateScopes(spec), ...validateScopeSelector(spec)];
  const scopes = new Set(arr(spec['scopes']).map(str));
  const oldScopes = new Set(arr(obj(old['spec'])['scopes']).map(str));
  if (scopes.size !== oldScopes.size || [...scopes].some((x) => !oldScopes.has(x))) {
    errs.push(goInvalid('spec.scopes', goStrings(spec['scopes'], '[]core.ResourceQuotaScope'), 'field is immutable'));
  }
  return errs;
}

const LIMIT_TYPES = ['Container', 'PersistentVolumeClaim', 'Pod'];

/**
 * SetDefaults_LimitRangeItem for Container items (default ← max, defaultRequest ← default, then ← min): kube
 * validates after defaulting, so the ordering rules see these values. Applied to a copy.
 */
function withContainerDefaults(limit: J): J {
  if (str(limit['type']) !== 'Container') return limit;
  const max = obj(limit['max']);
  const min = obj(limit['min']);
  const def = { ...obj(limit['default']) };
  const defReq = { ...obj(limit['defaultRequest']) };
  for (const [k, v] of Object.entries(max)) if (!(k in def)) def[k] = v;
  for (const [k, v] of Object.entries(def)) if (!(k in defReq)) defReq[k] = v;
  for (const [k, v] of Object.entries(min)) if (!(k in defReq)) defReq[k] = v;
  return { ...limit, default: def, defaultRequest: defReq };
}

/** validateLimitRangeTypeName */
function validateLimitTypeName(type: string, path: string): FieldError[] {
  const q = isQualifiedName(type);
  if (q.length) return q.map((m) => field.invalid(path, type, m));
  if (!type.includes('/') && !LIMIT_TYPES.includes(type)) return [field.invalid(path, type, 'must be a standard limit type or fully qualified')];
  return [];
}

/** validateLimitRangeResourceName */
function validateLimitResourceName(type: string, name: string, path: string): FieldError[] {
  return type === 'Pod' || type === 'Container' ? validateContainerResourceName(name, path) : validateResourceName(name, path);
}

/** IsOvercommitAllowed: native, non-hugepages resources. */
const overcommitAllowed = (n: string): boolean => (!n.includes('/') || n.includes('kubernetes.io/')) && !isHugePages(n);

export function validateLimitRange(lr: J): FieldError[] {
  const errs: FieldError[] = [];
  const seenTypes = new Set<string>();
  arr(obj(lr['spec'])['limits']).forEach((raw, i) => {
    const limit = withContainerDefaults(obj(raw));
    const p = `spec.limits[${i}]`;
    const type = str(limit['type']);
    errs.push(...validateLimitTypeName(type, `${p}.type`));
    if (seenTypes.has(type)) errs.push(field.duplicate(`${p}.type`, type));
    seenTypes.add(type);
    const maps: Record<string, Map<string, Quantity>> = {};
    const keys = new Set<string>();
    const collect = (k: string) => {
      const m = new Map<string, Quantity>();
      for (const [name, v] of Object.entries(obj(limit[k]))) {
        const rp = `${p}.${k}[${name}]`;
        errs.push(...validateLimitResourceName(type, name, rp));
        keys.add(name);
        const q = quantityValue(name, v, rp, errs);
        if (q) m.set(name, q);
      }
      maps[k] = m;
    };
    collect('max');
    collect('min');
    if (type === 'Pod') {
      if (Object.keys(obj(limit['default'])).length > 0) errs.push(field.forbidden(`${p}.default`, "may not be specified when `type` is 'Pod'"));
      if (Object.keys(obj(limit['defaultRequest'])).length > 0) errs.push(field.forbidden(`${p}.defaultRequest`, "may not be specified when `type` is 'Pod'"));
      maps['default'] = new Map();
      maps['defaultRequest'] = new Map();
    } else {
      collect('default');
      collect('defaultRequest');
    }
    if (type === 'PersistentVolumeClaim' && !('storage' in obj(limit['min'])) && !('storage' in obj(limit['max']))) {
      errs.push(field.required(`${p}.limits`, 'either minimum or maximum storage value is required, but neither was provided'));
    }
    collect('maxLimitRequestRatio');
    const f = formatQuantity;
    for (const k of [...keys].sort()) {
      const min = maps['min']!.get(k);
      const max = maps['max']!.get(k);
      const def = maps['default']!.get(k);
      const defReq = maps['defaultRequest']!.get(k);
      const ratio = maps['maxLimitRequestRatio']!.get(k);
      if (min && max && compareQuantity(min, max) > 0) errs.push(field.invalid(`${p}.min[${k}]`, f(min), `min value ${f(min)} is greater than max value ${f(max)}`));
      if (defReq && min && compareQuantity(min, defReq) > 0) errs.push(field.invalid(`${p}.defaultRequest[${k}]`, f(defReq), `min value ${f(min)} is greater than default request value ${f(defReq)}`));
      if (defReq && max && compareQuantity(defReq, max) > 0) errs.push(field.invalid(`${p}.defaultRequest[${k}]`, f(defReq), `default request value ${f(defReq)} is greater than max value ${f(max)}`));
      if (defReq && def && compareQuantity(defReq, def) > 0) errs.push(field.invalid(`${p}.defaultRequest[${k}]`, f(defReq), `default request value ${f(defReq)} is greater than default limit value ${f(def)}`));
      if (def && min && compareQuantity(min, def) > 0) errs.push(field.invalid(`${p}.default[${k}]`, f(min), `min value ${f(min)} is greater than default value ${f(def)}`));
      if (def && max && compareQuantity(def, max) > 0) errs.push(field.invalid(`${p}.default[${k}]`, f(max), `default value ${f(def)} is greater than max value ${f(max)}`));
      if (ratio && ratio.nanos < 1_000_000_000n) errs.push(field.invalid(`${p}.maxLimitRequestRatio[${k}]`, f(ratio), `ratio ${f(ratio)} is less than 1`));
      if (ratio && min && max) {
        const limit = Number(milliValue(max)) / Number(milliValue(min));
        if (Number(milliValue(ratio)) / 1000 > limit) {
          errs.push(field.invalid(`${p}.maxLimitRequestRatio[${k}]`, f(ratio), `ratio ${f(ratio)} is greater than max/min = ${limit.toFixed(6)}`));
        }
      }
      if (!overcommitAllowed(k) && def && defReq && compareQuantity(def, defReq) !== 0) {
        errs.push(field.invalid(`${p}.defaultRequest[${k}]`, f(defReq), `default value ${f(def)} must equal to defaultRequest value ${f(defReq)} in ${k}`));
      }
    }
  });
  return errs;
}
