// ValidateCSIDriver(Update) / ValidateVolumeAttachment(V1, Update) (pkg/apis/storage/validation/validation.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateCSIDriver, validateCSIDriverUpdate, validateVolumeAttachment, validateVolumeAttachmentUpdate } from './storage-more.ts';
import type { J } from './util.ts';

const drv = (name: string, spec: J = {}): J => ({ metadata: { name }, spec });
const va = (spec: J): J => ({ metadata: { name: 'a' }, spec });

test('csidriver: name, fsGroupPolicy, token requests, lifecycle modes', () => {
  assert.deepEqual(validateCSIDriver(drv('csi.example.com')).map(String), []);
  assert.deepEqual(validateCSIDriver(drv('bad_driver', {
    fsGroupPolicy: 'Always', volumeLifecycleModes: ['Persistent', 'Forever'],
    tokenRequests: [{ audience: 'a', expirationSeconds: 60 }, { audience: 'a' }],
  })).map(String), [
    `name: Invalid value: "bad_driver": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    'spec.fsGroupPolicy: Unsupported value: "Always": supported values: "File", "None", "ReadWriteOnceWithFSType"',
    'spec.tokenRequests[0].expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    'spec.tokenRequests[1].audience: Duplicate value: "a"',
    'spec.volumeLifecycleModes: Unsupported value: "Forever": supported values: "Persistent", "Ephemeral"',
  ]);
  assert.deepEqual(validateCSIDriverUpdate(drv('d.example.com', { attachRequired: false }), drv('d.example.com')).map(String), ['spec.attachedRequired: Invalid value: false: field is immutable']);
});

test('volumeattachment: attacher, exactly one source, node name; spec immutable', () => {
  const ok = { attacher: 'csi.example.com', nodeName: 'n1', source: { persistentVolumeName: 'pv1' } };
  assert.deepEqual(validateVolumeAttachment(va(ok)).map(String), []);
  assert.deepEqual(validateVolumeAttachment(va({ attacher: '', nodeName: 'N_1', source: {} })).map(String), [
    'spec.attacher: Required value',
    'spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName',
    `spec.nodeName: Invalid value: "N_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    'spec.attacher: Required value',
  ]);
  assert.deepEqual(validateVolumeAttachment(va({ ...ok, source: { persistentVolumeName: 'p', inlineVolumeSpec: {} } })).map(String), [
    'spec.source: Forbidden: must specify exactly one of inlineVolumeSpec and persistentVolumeName',
  ]);
  assert.deepEqual(validateVolumeAttachmentUpdate(va({ ...ok, nodeName: 'n2' }), va(ok)).map(String), [
    'spec: Invalid value: storage.VolumeAttachmentSpec{Attacher:"csi.example.com", Source:storage.VolumeAttachmentSource{PersistentVolumeName:(*string)(0xc000000000), InlineVolumeSpec:(*core.PersistentVolumeSpec)(nil)}, NodeName:"n2"}: field is immutable',
  ]);
});
