// ValidateStorageClass / ValidateStorageClassUpdate (pkg/apis/storage/validation/validation.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateStorageClass, validateStorageClassUpdate } from './storage.ts';

test('storage class: provisioner, policies', () => {
  assert.deepEqual(validateStorageClass({ provisioner: 'example.com/disk', reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' }).map(String), []);
  assert.deepEqual(validateStorageClass({ reclaimPolicy: 'Recycle', volumeBindingMode: 'Later' }).map(String), [
    'provisioner: Required value',
    'reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"',
    'volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
  ]);
  assert.deepEqual(validateStorageClass({ provisioner: 'a/b/c', volumeBindingMode: 'Immediate' }).map(String).length, 1);
});

test('storage class update: parameters, provisioner, reclaimPolicy, binding mode fixed', () => {
  const old = { provisioner: 'p', parameters: { a: '1' }, reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' };
  assert.deepEqual(validateStorageClassUpdate({ provisioner: 'q', parameters: { a: '2' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' }, old).map(String), [
    'parameters: Forbidden: updates to parameters are forbidden.',
    'provisioner: Forbidden: updates to provisioner are forbidden.',
    'reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.',
    'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
  ]);
});
