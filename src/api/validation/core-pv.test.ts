// ValidatePersistentVolumeSpec / ValidatePersistentVolumeUpdate (pkg/apis/core/validation/validation.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validatePersistentVolume, validatePersistentVolumeUpdate } from './core-pv.ts';
import type { J } from './util.ts';

const pv = (spec: J): J => ({ metadata: { name: 'pv1' }, spec });
const ok = { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', nfs: { server: 's', path: '/x' } };

test('pv: capacity, access modes, reclaim policy, exactly one source', () => {
  assert.deepEqual(validatePersistentVolume(pv(ok)).map(String), []);
  assert.deepEqual(validatePersistentVolume(pv({})).map(String), [
    'spec.accessModes: Required value',
    'spec.capacity: Required value',
    'spec.capacity: Unsupported value: core.ResourceList(nil): supported values: "storage"',
    'spec: Required value: must specify a volume type',
  ]);
  assert.deepEqual(validatePersistentVolume(pv({ ...ok, capacity: { storage: '0' }, accessModes: ['Shared'], persistentVolumeReclaimPolicy: 'Keep', hostPath: { path: '/h' } })).map(String), [
    'spec.accessModes: Unsupported value: "Shared": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
    'spec.capacity[storage]: Invalid value: "0": must be greater than zero',
    'spec.persistentVolumeReclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"',
    'spec.nfs: Forbidden: may not specify more than 1 volume type',
  ]);
});

test('pv: per-source rules; local needs node affinity; csi driver', () => {
  const base = { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] };
  assert.deepEqual(validatePersistentVolume(pv({ ...base, nfs: { server: 's', path: 'rel' } })).map(String), ['spec.nfs.path: Invalid value: "rel": must be an absolute path']);
  assert.deepEqual(validatePersistentVolume(pv({ ...base, local: { path: '/d' } })).map(String), ['spec.nodeAffinity: Required value: Local volume requires node affinity']);
  assert.deepEqual(validatePersistentVolume(pv({ ...base, local: { path: '/d' }, nodeAffinity: { required: { nodeSelectorTerms: [] } } })).map(String), [
    'spec.nodeAffinity.required.nodeSelectorTerms: Required value: must have at least one node selector term',
  ]);
  assert.deepEqual(validatePersistentVolume(pv({ ...base, csi: { driver: '' } })).map(String), ['spec.csi.driver: Required value', 'spec.csi.volumeHandle: Required value']);
  assert.deepEqual(validatePersistentVolume(pv({ ...base, gcePersistentDisk: {} })).map(String), ['spec.persistentDisk.pdName: Required value']);
});

test('pv update: the volume source and volumeMode are immutable', () => {
  const errs = validatePersistentVolumeUpdate(pv({ ...ok, nfs: { server: 't', path: '/x' }, volumeMode: 'Block' }), pv({ ...ok, volumeMode: 'Filesystem' })).map(String);
  assert.equal(errs.length, 2);
  assert.ok(errs[0]!.startsWith('spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n'), errs[0]);
  assert.equal(errs[1], 'volumeMode: Invalid value: "Block": field is immutable');
  assert.deepEqual(validatePersistentVolumeUpdate(pv({ ...ok, persistentVolumeReclaimPolicy: 'Delete', claimRef: { name: 'c' } }), pv(ok)).map(String), []);
  // An omitted volumeMode is kube's Filesystem default, not a change.
  assert.deepEqual(validatePersistentVolumeUpdate(pv(ok), pv({ ...ok, volumeMode: 'Filesystem' })).map(String), []);
});
