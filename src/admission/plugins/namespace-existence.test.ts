// NamespaceAutoProvision and NamespaceExists (kube's plugin/pkg/admission/namespace).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namespaceAutoProvisionPlugin, namespaceExistsPlugin } from './namespace-existence.ts';
import { pluginContext, refusal, request } from './testing/fake.ts';

const cm = (ns: string, dryRun = false) => request({ resource: 'configmaps', namespace: ns, dryRun, object: { metadata: { name: 'x' } } });

void test('NamespaceAutoProvision creates a missing namespace, not on dry runs', async () => {
  const ctx = pluginContext();
  ctx.registry.add('', 'namespaces', { metadata: { name: 'here' } });
  const plugin = namespaceAutoProvisionPlugin(ctx);
  await plugin.ready!();
  await plugin.admit!(cm('here'));
  await plugin.admit!(cm('dry', true));
  await plugin.admit!(cm('new'));
  await plugin.admit!(cm('new'));
  assert.deepEqual(ctx.registry.created.map((c) => `${c.resource} ${c.object.metadata.name}`), ['/namespaces new']);
});

void test('NamespaceExists: writes in a missing namespace are its NotFound', async () => {
  const ctx = pluginContext();
  ctx.registry.add('', 'namespaces', { metadata: { name: 'here' } });
  const plugin = namespaceExistsPlugin(ctx);
  await plugin.ready!();
  await plugin.validate!(cm('here'));
  await plugin.validate!(request({ resource: 'namespaces', object: { metadata: { name: 'gone' } } }));
  const e = await refusal(plugin.validate!(cm('gone')));
  assert.equal(e.code, 404);
  assert.equal(e.message, 'namespaces "gone" not found');
});
