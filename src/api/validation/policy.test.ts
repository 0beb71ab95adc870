// ValidatePodDisruptionBudgetSpec (pkg/apis/policy/validation/validation.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validatePodDisruptionBudget } from './policy.ts';

test('pdb: minAvailable xor maxUnavailable, int or percent', () => {
  assert.deepEqual(validatePodDisruptionBudget({ spec: { minAvailable: 1, selector: { matchLabels: { a: 'b' } } } }).map(String), []);
  assert.deepEqual(validatePodDisruptionBudget({ spec: { minAvailable: 1, maxUnavailable: '10%' } }).map(String), [
    'spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000000000), Selector:(*v1.LabelSelector)(nil), MaxUnavailable:(*intstr.IntOrString)(0xc000000000), UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set',
  ]);
  assert.deepEqual(validatePodDisruptionBudget({ spec: { minAvailable: -1 } }).map(String), ['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0']);
  assert.deepEqual(validatePodDisruptionBudget({ spec: { maxUnavailable: '150%' } }).map(String), ['spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%']);
  assert.deepEqual(validatePodDisruptionBudget({ spec: { unhealthyPodEvictionPolicy: 'Never' } }).map(String), [
    'spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"',
  ]);
});
