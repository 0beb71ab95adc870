// ValidatePriorityClass / ValidatePriorityClassUpdate (pkg/apis/scheduling/validation/validation.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validatePriorityClass, validatePriorityClassUpdate } from './scheduling.ts';

test('priority class: value range and system- prefix', () => {
  assert.deepEqual(validatePriorityClass({ metadata: { name: 'high' }, value: 1000 }).map(String), []);
  assert.deepEqual(validatePriorityClass({ metadata: { name: 'high' }, value: 1000000001 }).map(String), [
    'value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
  ]);
  assert.deepEqual(validatePriorityClass({ metadata: { name: 'system-mine' }, value: 1 }).map(String), [
    "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class",
  ]);
  assert.deepEqual(validatePriorityClass({ metadata: { name: 'system-node-critical' }, value: 2000001000 }).map(String), []);
  assert.deepEqual(validatePriorityClass({ metadata: { name: 'system-cluster-critical' }, value: 5 }).map(String), [
    "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-cluster-critical PriorityClass must be 2000000000",
  ]);
  assert.deepEqual(validatePriorityClass({ metadata: { name: 'p' }, value: 1, preemptionPolicy: 'Always' }).map(String), [
    'preemptionPolicy: Unsupported value: "Always": supported values: "PreemptLowerPriority", "Never"',
  ]);
});

test('priority class update: value fixed', () => {
  assert.deepEqual(validatePriorityClassUpdate({ value: 2, preemptionPolicy: 'Never' }, { value: 1, preemptionPolicy: 'PreemptLowerPriority' }).map(String), [
    'value: Forbidden: may not be changed in an update.',
    'preemptionPolicy: Invalid value: "Never": field is immutable',
  ]);
});
