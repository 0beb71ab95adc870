// DefaultStorageClass, StorageObjectInUseProtection, PersistentVolumeClaimResize (kube's plugin/pkg/admission/storage).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import { defaultStorageClassPlugin, persistentVolumeClaimResizePlugin, storageObjectInUseProtectionPlugin } from './storage.ts';
import { pluginContext, refusal, request } from './testing/fake.ts';

const sc = (name: string, created: string, extra: Record<string, unknown> = {}, isDefault = true): KObject => ({
  metadata: { name, creationTimestamp: created, ...(isDefault ? { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } : {}) },
  provisioner: 'x', ...extra,
} as KObject);
const pvc = (spec: Record<string, unknown>, meta: Record<string, unknown> = {}, status?: Record<string, unknown>): KObject => ({
  metadata: { name: 'c', ...meta }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec }, ...(status ? { status } : {}),
});

void test('DefaultStorageClass: the newest default class (then by name) fills an unset class only', async () => {
  const ctx = pluginContext();
  ctx.registry.add('storage.k8s.io', 'storageclasses', sc('old', '2024-01-01T00:00:00Z'));
  ctx.registry.add('storage.k8s.io', 'storageclasses', sc('b-new', '2025-01-01T00:00:00Z'));
  ctx.registry.add('storage.k8s.io', 'storageclasses', sc('a-new', '2025-01-01T00:00:00Z'));
  ctx.registry.add('storage.k8s.io', 'storageclasses', sc('newest-not-default', '2026-01-01T00:00:00Z', {}, false));
  const plugin = defaultStorageClassPlugin(ctx);
  await plugin.ready!();
  const a = request({ resource: 'persistentvolumeclaims', namespace: 'ns', object: pvc({}) });
  await plugin.admit!(a);
  assert.equal((a.object!['spec'] as any).storageClassName, 'a-new');
  for (const [spec, meta] of [[{ storageClassName: '' }, {}], [{ storageClassName: 'x' }, {}], [{}, { annotations: { 'volume.beta.kubernetes.io/storage-class': 'y' } }]] as const) {
    const b = request({ resource: 'persistentvolumeclaims', namespace: 'ns', object: pvc(spec, meta) });
    await plugin.admit!(b);
    assert.equal((b.object!['spec'] as any).storageClassName, (spec as any).storageClassName);
  }
});

void test('StorageObjectInUseProtection: the protection finalizers on create', async () => {
  const plugin = storageObjectInUseProtectionPlugin();
  const c = request({ resource: 'persistentvolumeclaims', namespace: 'ns', object: pvc({}, { finalizers: ['a'] }) });
  await plugin.admit!(c);
  assert.deepEqual(c.object!.metadata.finalizers, ['a', 'kubernetes.io/pvc-protection']);
  await plugin.admit!(c);
  assert.deepEqual(c.object!.metadata.finalizers, ['a', 'kubernetes.io/pvc-protection']);
  const v = request({ resource: 'persistentvolumes', object: { metadata: { name: 'pv' }, spec: {} } });
  await plugin.admit!(v);
  assert.deepEqual(v.object!.metadata.finalizers, ['kubernetes.io/pv-protection']);
});

void test('PersistentVolumeClaimResize: growing needs a bound claim of an expandable class', async () => {
  const ctx = pluginContext();
  ctx.registry.add('storage.k8s.io', 'storageclasses', sc('grow', '2025-01-01T00:00:00Z', { allowVolumeExpansion: true }, false));
  ctx.registry.add('storage.k8s.io', 'storageclasses', sc('fixed', '2025-01-01T00:00:00Z', {}, false));
  const plugin = persistentVolumeClaimResizePlugin(ctx);
  await plugin.ready!();
  const resize = (cls: string, phase: string, to = '2Gi') => request({
    operation: 'UPDATE', resource: 'persistentvolumeclaims', namespace: 'ns', name: 'c',
    object: pvc({ storageClassName: cls, resources: { requests: { storage: to } } }), oldObject: pvc({ storageClassName: cls }, {}, { phase }),
  });
  await plugin.validate!(resize('grow', 'Bound'));
  await plugin.validate!(resize('fixed', 'Bound', '1024Mi')); // the same size is no resize
  assert.equal((await refusal(plugin.validate!(resize('grow', 'Pending')))).message,
    'persistentvolumeclaims "c" is forbidden: Only bound persistent volume claims can be expanded');
  assert.equal((await refusal(plugin.validate!(resize('fixed', 'Bound')))).message,
    'persistentvolumeclaims "c" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
});
