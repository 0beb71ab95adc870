/**
 * storage.k8s.io/v1 StorageClass (pkg/apis/storage/validation/validation.go: ValidateStorageClass,
 * validateProvisioner, validateParameters, validateReclaimPolicy, validateVolumeBindingMode,
 * ValidateStorageClassUpdate).
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { isQualifiedName } from '../../machinery/validation/names.ts';
import { type J, immutable, isSet, obj, semanticEqual, str, validateLabelName } from './util.ts';

const MAX_PARAMETER_COUNT = 512;
const MAX_PARAMETER_SIZE = 256 * 1024;

export function validateStorageClass(sc: J): FieldError[] {
  const errs: FieldError[] = [];
  const provisioner = str(sc['provisioner']);
  if (!provisioner) errs.push(field.required('provisioner'));
  else for (const m of isQualifiedName(provisioner.toLowerCase())) errs.push(field.invalid('provisioner', provisioner.toLowerCase(), m));
  const params = obj(sc['parameters']);
  const keys = Object.keys(params);
  if (keys.length > MAX_PARAMETER_COUNT) errs.push(field.tooLong('parameters', '', MAX_PARAMETER_COUNT));
  else {
    let total = 0;
    for (const k of keys) {
      if (k.length < 1) errs.push(field.invalid('parameters', k, 'field can not be empty.'));
      total += Buffer.byteLength(k) + Buffer.byteLength(str(params[k]));
    }
    if (total > MAX_PARAMETER_SIZE) errs.push(field.tooLong('parameters', '', MAX_PARAMETER_SIZE));
  }
  const rp = str(sc['reclaimPolicy']);
  if (rp && rp !== 'Delete' && rp !== 'Retain') errs.push(field.notSupported('reclaimPolicy', rp, ['Delete', 'Retain']));
  const mode = sc['volumeBindingMode'];
  if (!isSet(mode)) errs.push(field.required('volumeBindingMode'));
  else if (mode !== 'Immediate' && mode !== 'WaitForFirstConsumer') errs.push(field.notSupported('volumeBindingMode', mode, ['Immediate', 'WaitForFirstConsumer']));
  const topo = sc['allowedTopologies'];
  if (Array.isArray(topo)) {
    topo.forEach((term, i) => {
      const exprs = Array.isArray(obj(term)['matchLabelExpressions']) ? obj(term)['matchLabelExpressions'] as unknown[] : [];
      if (exprs.length === 0) errs.push(field.required(`allowedTopologies[${i}].matchLabelExpressions`, 'must have at least one label selector requirement'));
      exprs.forEach((e, j) => {
        const p = `allowedTopologies[${i}].matchLabelExpressions[${j}]`;
        errs.push(...validateLabelName(str(obj(e)['key']), `${p}.key`));
        const values = obj(e)['values'];
        if (!Array.isArray(values) || values.length === 0) errs.push(field.required(`${p}.values`, 'must specify as least one value'));
      });
    });
  }
  return errs;
}

export function validateStorageClassUpdate(sc: J, old: J): FieldError[] {
  const errs: FieldError[] = [];
  if (!semanticEqual(sc['parameters'], old['parameters'])) errs.push(field.forbidden('parameters', 'updates to parameters are forbidden.'));
  if (str(sc['provisioner']) !== str(old['provisioner'])) errs.push(field.forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if ((str(sc['reclaimPolicy']) || 'Delete') !== (str(old['reclaimPolicy']) || 'Delete')) errs.push(field.forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  errs.push(...immutable(sc['volumeBindingMode'], old['volumeBindingMode'], 'volumeBindingMode'));
  return errs;
}
