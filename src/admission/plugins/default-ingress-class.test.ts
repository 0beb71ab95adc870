// DefaultIngressClass (kube's plugin/pkg/admission/network/defaultingressclass).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import { defaultIngressClassPlugin } from './default-ingress-class.ts';
import { pluginContext, request } from './testing/fake.ts';

const ic = (name: string, created: string, isDefault: boolean): KObject => ({
  metadata: { name, creationTimestamp: created, ...(isDefault ? { annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } } : {}) }, spec: { controller: 'x/y' },
} as KObject);

void test('Ingresses naming no class get the newest default class; a class name or the legacy annotation is kept', async () => {
  const ctx = pluginContext();
  ctx.registry.add('networking.k8s.io', 'ingressclasses', ic('older', '2024-01-01T00:00:00Z', true));
  ctx.registry.add('networking.k8s.io', 'ingressclasses', ic('newer', '2025-01-01T00:00:00Z', true));
  ctx.registry.add('networking.k8s.io', 'ingressclasses', ic('other', '2026-01-01T00:00:00Z', false));
  const plugin = defaultIngressClassPlugin(ctx);
  await plugin.ready!();
  const ing = (spec: Record<string, unknown>, annotations?: Record<string, string>) => request({ resource: 'ingresses', namespace: 'ns', object: { metadata: { name: 'i', ...(annotations ? { annotations } : {}) }, spec } });
  const a = ing({});
  await plugin.admit!(a);
  assert.equal((a.object!['spec'] as any).ingressClassName, 'newer');
  const b = ing({ ingressClassName: 'other' });
  await plugin.admit!(b);
  assert.equal((b.object!['spec'] as any).ingressClassName, 'other');
  const c = ing({}, { 'kubernetes.io/ingress.class': 'nginx' });
  await plugin.admit!(c);
  assert.equal((c.object!['spec'] as any).ingressClassName, undefined);
});
