/**
 * coordination.k8s.io/v1 Lease (pkg/apis/coordination/validation/validation.go: ValidateLeaseSpec).
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { type J, isSet, obj, str } from './util.ts';

export function validateLease(lease: J): FieldError[] {
  const spec = obj(lease['spec']);
  const errs: FieldError[] = [];
  const d = spec['leaseDurationSeconds'];
  if (typeof d === 'number' && d <= 0) errs.push(field.invalid('spec.leaseDurationSeconds', d, 'must be greater than 0'));
  const t = spec['leaseTransitions'];
  if (typeof t === 'number' && t < 0) errs.push(field.invalid('spec.leaseTransitions', t, 'must be greater than or equal to 0'));
  if (isSet(spec['strategy']) && !['OldestEmulationVersion'].includes(str(spec['strategy']))) {
    errs.push(field.notSupported('spec.strategy', spec['strategy'], ['OldestEmulationVersion']));
  }
  if (str(spec['preferredHolder']) && !str(spec['strategy'])) {
    errs.push(field.forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
  }
  return errs;
}
