// ValidatePersistentVolumeClaimSpec / ValidatePersistentVolumeClaimUpdate (pkg/apis/core/validation/validation.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validatePersistentVolumeClaim, validatePersistentVolumeClaimUpdate } from './core-pvc.ts';
import type { J } from './util.ts';

const pvc = (spec: J, status: J = { phase: 'Pending' }): J => ({ metadata: { name: 'c', namespace: 'd' }, spec: { volumeMode: 'Filesystem', ...spec }, status });
const ok = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } };

test('pvc: access modes, storage request, class, volume mode', () => {
  assert.deepEqual(validatePersistentVolumeClaim(pvc(ok)).map(String), []);
  assert.deepEqual(validatePersistentVolumeClaim(pvc({ accessModes: [], resources: {} })).map(String), [
    'spec.accessModes: Required value: at least 1 access mode is required',
    'spec.resources[storage]: Required value',
  ]);
  assert.deepEqual(validatePersistentVolumeClaim(pvc({ accessModes: ['ReadWriteOncePod', 'ReadWriteOnce', 'Shared'], resources: { requests: { storage: '0' } }, storageClassName: 'Fast_SSD', volumeMode: 'Raw' })).map(String), [
    'spec.accessModes: Unsupported value: "Shared": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
    'spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes',
    'spec.resources[storage]: Invalid value: "0": must be greater than zero',
    `spec.storageClassName: Invalid value: "Fast_SSD": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    'spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"',
  ]);
});

test('pvc update: spec immutable except requests of bound claims; volumeName set once; no shrinking below capacity', () => {
  const errs = validatePersistentVolumeClaimUpdate(pvc({ ...ok, accessModes: ['ReadWriteMany'] }), pvc(ok)).map(String);
  assert.equal(errs.length, 1);
  assert.ok(errs[0]!.startsWith('spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n'), errs[0]);
  assert.deepEqual(validatePersistentVolumeClaimUpdate(pvc({ ...ok, volumeName: 'pv1' }), pvc(ok)).map(String), []);
  const bound = { phase: 'Bound', capacity: { storage: '1Gi' } };
  assert.deepEqual(validatePersistentVolumeClaimUpdate(pvc({ ...ok, resources: { requests: { storage: '2Gi' } } }, bound), pvc(ok, bound)).map(String), []);
  assert.deepEqual(validatePersistentVolumeClaimUpdate(pvc({ ...ok, resources: { requests: { storage: '512Mi' } } }, bound), pvc(ok, bound)).map(String), [
    'spec.resources.requests.storage: Forbidden: field can not be less than status.capacity',
  ]);
});
