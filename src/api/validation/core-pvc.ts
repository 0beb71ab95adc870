/**
 * PersistentVolumeClaims (pkg/apis/core/validation/validation.go: ValidatePersistentVolumeClaimSpec,
 * ValidatePersistentVolumeClaimUpdate). RecoverVolumeExpansionFailure is on in v1.33, so a claim may shrink
 * its request down to (not below) status.capacity.
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { isDNS1123Subdomain } from '../../machinery/validation/names.ts';
import { compareQuantity, formatQuantity, tryParseQuantity } from '../../machinery/quantity.ts';
import { type J, arr, immutable, isSet, obj, semanticEqual, str, validateLabelSelector } from './util.ts';

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];

/** Each access mode must be known, and ReadWriteOncePod stands alone (PVs and PVCs alike). */
export function accessModeErrors(modes: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  let rwop = false;
  let other = false;
  for (const m of modes) {
    if (!ACCESS_MODES.includes(m)) errs.push(field.notSupported('spec.accessModes', m, ACCESS_MODES));
    if (m === 'ReadWriteOncePod') rwop = true;
    else if (ACCESS_MODES.includes(m)) other = true;
  }
  if (rwop && other) errs.push(field.forbidden('spec.accessModes', 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}
const VOLUME_MODES = ['Block', 'Filesystem'];

export function validatePersistentVolumeClaim(pvc: J): FieldError[] {
  const spec = obj(pvc['spec']);
  const errs: FieldError[] = [];
  const modes = arr(spec['accessModes']).map(str);
  if (modes.length === 0) errs.push(field.required('spec.accessModes', 'at least 1 access mode is required'));
  if (isSet(spec['selector'])) errs.push(...validateLabelSelector(spec['selector'], 'spec.selector'));
  errs.push(...accessModeErrors(modes));
  const requests = obj(obj(spec['resources'])['requests']);
  const storagePath = 'spec.resources[storage]';
  if (!('storage' in requests)) errs.push(field.required(storagePath));
  else {
    const q = tryParseQuantity(requests['storage']);
    if (typeof q === 'string') errs.push(field.invalid(storagePath, requests['storage'] ?? null, q));
    else if (q.nanos <= 0n) errs.push(field.invalid(storagePath, formatQuantity(q), 'must be greater than zero'));
  }
  const sc = str(spec['storageClassName']);
  if (sc) for (const m of isDNS1123Subdomain(sc)) errs.push(field.invalid('spec.storageClassName', sc, m));
  const vm = spec['volumeMode'];
  if (isSet(vm) && !VOLUME_MODES.includes(str(vm))) errs.push(field.notSupported('spec.volumeMode', vm, VOLUME_MODES));
  for (const k of ['dataSource', 'dataSourceRef']) {
    if (!isSet(spec[k])) continue;
    const ds = obj(spec[k]);
    if (!str(ds['name'])) errs.push(field.required(`spec.${k}.name`));
    if (!str(ds['kind'])) errs.push(field.required(`spec.${k}.kind`));
  }
  const vac = str(spec['volumeAttributesClassName']);
  if (vac) for (const m of isDNS1123Subdomain(vac)) errs.push(field.invalid('spec.volumeAttributesClassName', vac, m));
  return errs;
}

/** A short old → new listing (kube appends a go-cmp diff of the internal spec). */
function changedKeys(a: J, b: J): string {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !semanticEqual(a[k], b[k])).sort();
  return keys.map((k) => `- ${k}: ${JSON.stringify(a[k] ?? null)}\n+ ${k}: ${JSON.stringify(b[k] ?? null)}`).join('\n');
}

export function validatePersistentVolumeClaimUpdate(pvc: J, old: J): FieldError[] {
  const errs = validatePersistentVolumeClaim(pvc);
  const spec = structuredClone(obj(pvc['spec']));
  const oldSpec = structuredClone(obj(old['spec']));
  // volumeName may be set once (by the binder); requests and the attributes class change on bound claims.
  if (!str(oldSpec['volumeName'])) oldSpec['volumeName'] = spec['volumeName'];
  const bound = str(obj(pvc['status'])['phase']) === 'Bound';
  if (bound) {
    spec['resources'] = { ...obj(spec['resources']), requests: { ...obj(obj(spec['resources'])['requests']), storage: obj(obj(oldSpec['resources'])['requests'])['storage'] } };
    if (isSet(spec['volumeAttributesClassName'])) spec['volumeAttributesClassName'] = oldSpec['volumeAttributesClassName'];
  }
  if (!semanticEqual(spec, oldSpec)) {
    errs.push(field.forbidden('spec', `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${changedKeys(oldSpec, spec)}`));
  }
  const newSize = tryParseQuantity(obj(obj(obj(pvc['spec'])['resources'])['requests'])['storage']);
  const oldSize = tryParseQuantity(obj(obj(obj(old['spec'])['resources'])['requests'])['storage']);
  if (typeof newSize !== 'string' && typeof oldSize !== 'string' && compareQuantity(newSize, oldSize) < 0) {
    const cap = tryParseQuantity(obj(obj(old['status'])['capacity'])['storage'] ?? '0');
    if (typeof cap !== 'string' && compareQuantity(newSize, cap) <= 0) {
      errs.push(field.forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'));
    }
  }
  errs.push(...immutable(obj(pvc['spec'])['volumeMode'], obj(old['spec'])['volumeMode'], 'volumeMode'));
  return errs;
}

