// RuntimeClass admission (kube's plugin/pkg/admission/runtimeclass).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import { runtimeClassPlugin } from './runtime-class.ts';
import { admitAndValidate, pluginContext, refusal, request } from './testing/fake.ts';

const pod = (spec: Record<string, unknown>): KObject => ({ metadata: { name: 'p' }, spec: { containers: [], ...spec } });

async function setup() {
  const ctx = pluginContext();
  ctx.registry.add('node.k8s.io', 'runtimeclasses', { metadata: { name: 'gvisor' }, handler: 'runsc', overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
    scheduling: { nodeSelector: { sandbox: 'yes' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] } } as KObject);
  ctx.registry.add('node.k8s.io', 'runtimeclasses', { metadata: { name: 'plain' }, handler: 'runc' } as KObject);
  const plugin = runtimeClassPlugin(ctx);
  await plugin.ready!();
  return plugin;
}

void test('overhead and scheduling come from the RuntimeClass', async () => {
  const plugin = await setup();
  const a = await admitAndValidate(plugin, request({ resource: 'pods', namespace: 'ns', object: pod({ runtimeClassName: 'gvisor', nodeSelector: { disk: 'ssd' } }) }));
  const spec = a.object!['spec'] as any;
  assert.deepEqual(spec.overhead, { cpu: '250m', memory: '120Mi' });
  assert.deepEqual(spec.nodeSelector, { disk: 'ssd', sandbox: 'yes' });
  assert.deepEqual(spec.tolerations, [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }]);
  const same = await admitAndValidate(plugin, request({ resource: 'pods', namespace: 'ns', object: pod({ runtimeClassName: 'gvisor', overhead: { cpu: '0.25', memory: '120Mi' } }) }));
  assert.deepEqual((same.object!['spec'] as any).overhead, { cpu: '250m', memory: '120Mi' }, 'an equal overhead is accepted');
  await admitAndValidate(plugin, request({ resource: 'pods', namespace: 'ns', object: pod({ runtimeClassName: 'plain' }) }));
});

void test('refusals: unknown class, conflicting selector or overhead, overhead without a class', async () => {
  const plugin = await setup();
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ runtimeClassName: 'nope' }, 'pod rejected: RuntimeClass "nope" not found'],
    [{ runtimeClassName: 'gvisor', nodeSelector: { sandbox: 'no' } }, 'conflict: runtimeClass.scheduling.nodeSelector[sandbox] = yes; pod.spec.nodeSelector[sandbox] = no'],
    [{ runtimeClassName: 'gvisor', overhead: { cpu: '1' } }, 'pod rejected: Pod\'s Overhead doesn\'t match RuntimeClass\'s defined Overhead'],
    [{ overhead: { cpu: '1' } }, 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead'],
    [{ runtimeClassName: 'plain', overhead: { cpu: '1' } }, 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead'],
  ];
  for (const [spec, why] of cases) {
    const e = await refusal(admitAndValidate(plugin, request({ resource: 'pods', namespace: 'ns', object: pod(spec) })));
    assert.equal(e.code, 403);
    assert.equal(e.message, `pods "p" is forbidden: ${why}`);
  }
});
