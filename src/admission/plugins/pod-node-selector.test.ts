// PodNodeSelector (kube's plugin/pkg/admission/podnodeselector).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podNodeSelectorPlugin } from './pod-node-selector.ts';
import { admitAndValidate, pluginContext, refusal, request } from './testing/fake.ts';

async function setup(config?: unknown) {
  const ctx = pluginContext({ config });
  ctx.registry.add('', 'namespaces', { metadata: { name: 'gpu', annotations: { 'scheduler.alpha.kubernetes.io/node-selector': 'accel=gpu, zone = a' } } });
  ctx.registry.add('', 'namespaces', { metadata: { name: 'plain' } });
  ctx.registry.add('', 'namespaces', { metadata: { name: 'open', annotations: { 'scheduler.alpha.kubernetes.io/node-selector': '' } } });
  const plugin = podNodeSelectorPlugin(ctx);
  await plugin.ready!();
  return plugin;
}
const pod = (ns: string, nodeSelector?: Record<string, string>) => request({ resource: 'pods', namespace: ns, object: { metadata: { name: 'p' }, spec: { containers: [], ...(nodeSelector ? { nodeSelector } : {}) } } });

void test('the namespace selector (or the cluster default) is merged into the pod\'s', async () => {
  const plugin = await setup({ podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'pool=general' } });
  assert.deepEqual(((await admitAndValidate(plugin, pod('gpu', { disk: 'ssd' }))).object!['spec'] as any).nodeSelector, { accel: 'gpu', zone: 'a', disk: 'ssd' });
  assert.deepEqual(((await admitAndValidate(plugin, pod('plain'))).object!['spec'] as any).nodeSelector, { pool: 'general' });
  assert.equal(((await admitAndValidate(plugin, pod('open'))).object!['spec'] as any).nodeSelector, undefined);
  assert.equal((await refusal(admitAndValidate(plugin, pod('gpu', { accel: 'cpu' })))).message,
    'pods "p" is forbidden: pod node label selector conflicts with its namespace node label selector');
});

void test('the configuration whitelists a namespace\'s labels', async () => {
  const plugin = await setup({ podNodeSelectorPluginConfig: { plain: 'pool=general' } });
  await admitAndValidate(plugin, pod('plain', { pool: 'general' }));
  assert.equal((await refusal(admitAndValidate(plugin, pod('plain', { pool: 'fast' })))).message,
    'pods "p" is forbidden: pod node label selector labels conflict with its namespace whitelist');
});

void test('a namespace selector that is no label set is kube\'s plain error (a 500)', async () => {
  const ctx = pluginContext();
  ctx.registry.add('', 'namespaces', { metadata: { name: 'bad-key', annotations: { 'scheduler.alpha.kubernetes.io/node-selector': 'a b=c' } } });
  ctx.registry.add('', 'namespaces', { metadata: { name: 'bad-value', annotations: { 'scheduler.alpha.kubernetes.io/node-selector': 'tier=a b' } } });
  ctx.registry.add('', 'namespaces', { metadata: { name: 'bad-term', annotations: { 'scheduler.alpha.kubernetes.io/node-selector': 'tier' } } });
  const plugin = podNodeSelectorPlugin(ctx);
  await plugin.ready!();
  const key = await refusal(admitAndValidate(plugin, pod('bad-key')));
  assert.equal(key.code, 500);
  assert.equal(key.message, '<nil>: Invalid value: "a b": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')');
  const value = await refusal(admitAndValidate(plugin, pod('bad-value')));
  assert.match(value.message, /^\[tier\]: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters/);
  assert.equal((await refusal(admitAndValidate(plugin, pod('bad-term')))).message, 'invalid selector: [tier]');
});
