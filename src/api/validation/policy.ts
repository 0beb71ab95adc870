/**
 * policy/v1 PodDisruptionBudget (pkg/apis/policy/validation/validation.go: ValidatePodDisruptionBudgetSpec).
 */
import { FieldError, field } from '../../endpoints/status.ts';
import { notMoreThan100Percent, validatePositiveIntOrPercent } from './apps.ts';
import { type J, isSet, obj, validateLabelSelector } from './util.ts';

const EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

export function validatePodDisruptionBudget(pdb: J): FieldError[] {
  const spec = obj(pdb['spec']);
  const errs: FieldError[] = [];
  if (isSet(spec['minAvailable']) && isSet(spec['maxUnavailable'])) {
    errs.push(field.invalid('spec', spec, 'minAvailable and maxUnavailable cannot be both set'));
  }
  for (const k of ['minAvailable', 'maxUnavailable']) {
    if (!isSet(spec[k])) continue;
    errs.push(...validatePositiveIntOrPercent(spec[k], `spec.${k}`), ...notMoreThan100Percent(spec[k], `spec.${k}`));
  }
  errs.push(...validateLabelSelector(spec['selector'], 'spec.selector'));
  const uhp = spec['unhealthyPodEvictionPolicy'];
  if (isSet(uhp) && !EVICTION_POLICIES.includes(String(uhp))) errs.push(field.notSupported('spec.unhealthyPodEvictionPolicy', uhp, EVICTION_POLICIES));
  return errs;
}
