// PodTolerationRestriction (kube's plugin/pkg/admission/podtolerationrestriction).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podTolerationRestrictionPlugin, readPodTolerationRestrictionConfig } from './pod-toleration-restriction.ts';
import { admitAndValidate, pluginContext, refusal, request } from './testing/fake.ts';

const dedicated = { key: 'dedicated', operator: 'Equal', value: 'team-a', effect: 'NoSchedule' };

async function setup(config?: unknown) {
  const ctx = pluginContext({ config });
  ctx.registry.add('', 'namespaces', { metadata: { name: 'team-a', annotations: {
    'scheduler.alpha.kubernetes.io/defaultTolerations': JSON.stringify([dedicated]),
    'scheduler.alpha.kubernetes.io/tolerationsWhitelist': JSON.stringify([{ key: 'dedicated', operator: 'Exists' }]),
  } } });
  ctx.registry.add('', 'namespaces', { metadata: { name: 'plain' } });
  const plugin = podTolerationRestrictionPlugin(ctx);
  await plugin.ready!();
  return plugin;
}
const pod = (ns: string, tolerations?: unknown[], resources?: unknown) => request({ resource: 'pods', namespace: ns, object: { metadata: { name: 'p' }, spec: {
  containers: [{ name: 'c', image: 'x', ...(resources ? { resources } : {}) }], ...(tolerations ? { tolerations } : {}) } } });

void test('namespace default tolerations are merged; non-BestEffort pods tolerate memory pressure', async () => {
  const plugin = await setup();
  assert.deepEqual(((await admitAndValidate(plugin, pod('team-a'))).object!['spec'] as any).tolerations, [dedicated]);
  assert.deepEqual(((await admitAndValidate(plugin, pod('plain', undefined, { requests: { cpu: '1' } }))).object!['spec'] as any).tolerations,
    [{ key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' }]);
  assert.equal(((await admitAndValidate(plugin, pod('plain'))).object!['spec'] as any).tolerations, undefined);
});

void test('tolerations outside the whitelist are kube\'s plain 500', async () => {
  const plugin = await setup({ apiVersion: 'podtolerationrestriction.admission.k8s.io/v1alpha1', kind: 'Configuration', whitelist: [{ key: 'ok', operator: 'Exists' }] });
  const e = await refusal(admitAndValidate(plugin, pod('team-a', [{ key: 'other', operator: 'Exists' }])));
  assert.equal(e.code, 500);
  assert.equal(e.message, 'pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist');
  const c = await refusal(admitAndValidate(plugin, pod('plain', [{ key: 'other', operator: 'Exists' }])));
  assert.equal(c.message, 'pod tolerations (possibly merged with namespace default tolerations) conflict with its cluster whitelist');
  await admitAndValidate(plugin, pod('plain', [{ key: 'ok', operator: 'Equal', value: 'v' }]));
  assert.throws(() => readPodTolerationRestrictionConfig({ kind: 'Other' }), /couldn't init admission plugin "PodTolerationRestriction"/);
});
