/**
 * policy/v1 PodDisruptionBudget (pkg/apis/policy/validation/validation.go: ValidatePodDisruptionBudgetSpec).
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { notMoreThan100Percent, validatePositiveIntOrPercent } from './apps.ts';
import { type J, isSet, obj, validateLabelSelector } from './util.ts';
import { goInvalid, goPtr } from './go-render.ts';

const EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

export function validatePodDisruptionBudget(pdb: J): FieldError[] {
  const spec = obj(pdb['spec']);
  const errs: FieldError[] = [];
  if (isSet(spec['minAvailable']) && isSet(spec['maxUnavailable'])) {
    const rendered = `policy.PodDisruptionBudgetSpec{MinAvailable:${goPtr(spec['minAvailable'], 'intstr.IntOrString')}, Selector:${goPtr(spec['selector'], 'v1.LabelSelector')}, `
      + `MaxUnavailable:${goPtr(spec['maxUnavailable'], 'intstr.IntOrString')}, UnhealthyPodEvictionPolicy:${goPtr(spec['unhealthyPodEvictionPolicy'], 'policy.UnhealthyPodEvictionPolicyType')}}`;
    errs.push(goInvalid('spec', rendered, 'minAvailable and maxUnavailable cannot be both set'));
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
