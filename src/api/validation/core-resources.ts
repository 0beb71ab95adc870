/**
 * Resource names and quantities of containers (pkg/apis/core/validation/validation.go: validateResourceName,
 * validateContainerResourceName, ValidateResourceQuantityValue, validateResourceRequirements; helpers
 * IsNativeResource, IsExtendedResourceName, IsOvercommitAllowed from pkg/apis/core/helper).
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { isQualifiedName } from '../../machinery/validation/names.ts';
import { type Quantity, compareQuantity, formatQuantity, milliValue, tryParseQuantity } from '../../machinery/quantity.ts';
import { IS_NEGATIVE, obj } from './util.ts';

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const INTEGER_RESOURCES = new Set(['pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps',
  'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers', 'requests.storage']);

function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}
function isHugePages(name: string): boolean {
  return name.startsWith('hugepages-');
}
export function isExtendedResourceName(name: string): boolean {
  return !isNativeResource(name) && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;
}
/** helper.IsOvercommitAllowed: native, non-hugepages resources. */
function overcommitAllowed(name: string): boolean {
  return isNativeResource(name) && !isHugePages(name);
}

const STANDARD_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets',
  'configmaps', 'persistentvolumeclaims', 'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers']);

/** validateResourceName: a qualified name; unprefixed ones must be standard. */
function validateResourceName(name: string, path: string): FieldError[] {
  const q = isQualifiedName(name);
  if (q.length) return q.map((m) => field.invalid(path, name, m));
  if (name.split('/').length === 1 && !STANDARD_RESOURCES.has(name) && !isHugePages(name) && !name.startsWith('requests.hugepages-')) {
    return [field.invalid(path, name, 'must be a standard resource type or fully qualified')];
  }
  return [];
}

/** validateContainerResourceName */
export function validateContainerResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path);
  if (name.split('/').length === 1) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePages(name)) errs.push(field.invalid(path, name, 'must be a standard resource for containers'));
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(field.invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** A quantity field: parse (a decoding error in kube) and the non-negative / integer rules. */
export function quantityValue(name: string, raw: unknown, path: string, errs: FieldError[]): Quantity | undefined {
  const q = tryParseQuantity(raw);
  if (typeof q === 'string') {
    errs.push(field.invalid(path, raw ?? null, q));
    return undefined;
  }
  if (q.nanos < 0n) errs.push(field.invalid(path, formatQuantity(q), IS_NEGATIVE));
  if ((INTEGER_RESOURCES.has(name) || isExtendedResourceName(name)) && milliValue(q) % 1000n !== 0n) {
    errs.push(field.invalid(path, formatQuantity(q), 'must be an integer'));
  }
  return q;
}

/** validateResourceRequirements for a container (limits, requests ≤ limits, non-overcommitable equal). */
export function validateResources(resources: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const r = obj(resources);
  const limPath = `${path}.limits`;
  const reqPath = `${path}.requests`;
  const limits = new Map<string, Quantity>();
  let limCpuMem = false;
  let reqCpuMem = false;
  let huge = false;
  for (const [name, raw] of Object.entries(obj(r['limits']))) {
    const p = `${limPath}[${name}]`;
    errs.push(...validateContainerResourceName(name, p));
    const q = quantityValue(name, raw, p, errs);
    if (q) limits.set(name, q);
    if (isHugePages(name)) huge = true;
    if (name === 'cpu' || name === 'memory') limCpuMem = true;
  }
  for (const [name, raw] of Object.entries(obj(r['requests']))) {
    const p = `${reqPath}[${name}]`;
    errs.push(...validateContainerResourceName(name, p));
    const q = quantityValue(name, raw, p, errs);
    const lim = limits.get(name);
    if (q && lim) {
      const cmp = compareQuantity(q, lim);
      if (cmp !== 0 && !overcommitAllowed(name)) {
        errs.push(field.invalid(reqPath, formatQuantity(q), `must be equal to ${name} limit of ${formatQuantity(lim)}`));
      } else if (cmp > 0) {
        errs.push(field.invalid(reqPath, formatQuantity(q), `must be less than or equal to ${name} limit of ${formatQuantity(lim)}`));
      }
    } else if (q && !overcommitAllowed(name) && !Object.prototype.hasOwnProperty.call(obj(r['limits']), name)) {
      errs.push(field.required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePages(name)) huge = true;
    if (name === 'cpu' || name === 'memory') reqCpuMem = true;
  }
  if (!limCpuMem && !reqCpuMem && huge) errs.push(field.forbidden(path, 'HugePages require cpu or memory'));
  return errs;
}
