// Priority admission (kube's plugin/pkg/admission/priority).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import { priorityPlugin } from './priority.ts';
import { pluginContext, refusal, request } from './testing/fake.ts';

const pod = (spec: Record<string, unknown>): KObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [], ...spec } });
const pc = (name: string, value: number, extra: Record<string, unknown> = {}): KObject => ({ metadata: { name }, value, preemptionPolicy: 'PreemptLowerPriority', ...extra } as KObject);

async function setup(classes: KObject[]) {
  const ctx = pluginContext();
  for (const c of classes) ctx.registry.add('scheduling.k8s.io', 'priorityclasses', c);
  const plugin = priorityPlugin(ctx);
  await plugin.ready!();
  return plugin;
}

void test('no class and no default: priority 0, PreemptLowerPriority; a named class resolves value and policy', async () => {
  const plugin = await setup([pc('high', 1000, { preemptionPolicy: 'Never' })]);
  const a = request({ resource: 'pods', namespace: 'ns', object: pod({}) });
  await plugin.admit!(a);
  assert.deepEqual([(a.object!['spec'] as any).priority, (a.object!['spec'] as any).preemptionPolicy, (a.object!['spec'] as any).priorityClassName], [0, 'PreemptLowerPriority', undefined]);
  const b = request({ resource: 'pods', namespace: 'ns', object: pod({ priorityClassName: 'high' }) });
  await plugin.admit!(b);
  assert.deepEqual([(b.object!['spec'] as any).priority, (b.object!['spec'] as any).preemptionPolicy], [1000, 'Never']);
});

void test('the global default (lowest value among several) names itself on the pod', async () => {
  const plugin = await setup([pc('d1', 50, { globalDefault: true }), pc('d2', 10, { globalDefault: true })]);
  const a = request({ resource: 'pods', namespace: 'ns', object: pod({}) });
  await plugin.admit!(a);
  assert.deepEqual([(a.object!['spec'] as any).priorityClassName, (a.object!['spec'] as any).priority], ['d2', 10]);
});

void test('refusals: unknown class, a different priority or preemption policy set by the client', async () => {
  const plugin = await setup([pc('high', 1000)]);
  const unknown = await refusal(plugin.admit!(request({ resource: 'pods', namespace: 'ns', object: pod({ priorityClassName: 'nope' }) })));
  assert.equal(unknown.message, 'pods "p" is forbidden: no PriorityClass with name nope was found');
  const prio = await refusal(plugin.admit!(request({ resource: 'pods', namespace: 'ns', object: pod({ priorityClassName: 'high', priority: 5 }) })));
  assert.equal(prio.message, 'pods "p" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name');
  const policy = await refusal(plugin.admit!(request({ resource: 'pods', namespace: 'ns', object: pod({ priorityClassName: 'high', preemptionPolicy: 'Never' }) })));
  assert.equal(policy.message, 'pods "p" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name');
  const same = request({ resource: 'pods', namespace: 'ns', object: pod({ priorityClassName: 'high', priority: 1000 }) });
  await plugin.admit!(same);
});

void test('updates keep the stored priority and policy; only one default PriorityClass', async () => {
  const plugin = await setup([pc('d', 1, { globalDefault: true })]);
  const up = request({ operation: 'UPDATE', resource: 'pods', namespace: 'ns', object: pod({}), oldObject: pod({ priority: 7, preemptionPolicy: 'Never' }) });
  await plugin.admit!(up);
  assert.deepEqual([(up.object!['spec'] as any).priority, (up.object!['spec'] as any).preemptionPolicy], [7, 'Never']);
  const second = await refusal(() => plugin.validate!(request({ resource: 'priorityclasses', object: pc('other', 3, { globalDefault: true }) })));
  assert.equal(second.message, 'priorityclasses.scheduling.k8s.io "other" is forbidden: PriorityClass d is already marked as default. Only one default can exist');
  await plugin.validate!(request({ operation: 'UPDATE', resource: 'priorityclasses', name: 'd', object: pc('d', 2, { globalDefault: true }), oldObject: pc('d', 1, { globalDefault: true }) }));
  await plugin.validate!(request({ resource: 'priorityclasses', object: pc('plain', 3) }));
});
