// ValidateLeaseSpec (pkg/apis/coordination/validation/validation.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateLease } from './coordination.ts';

test('lease durations', () => {
  assert.deepEqual(validateLease({ spec: { holderIdentity: 'a', leaseDurationSeconds: 15, leaseTransitions: 0 } }).map(String), []);
  assert.deepEqual(validateLease({ spec: { leaseDurationSeconds: 0, leaseTransitions: -1, preferredHolder: 'x' } }).map(String), [
    'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
    'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
    'spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined',
  ]);
});
