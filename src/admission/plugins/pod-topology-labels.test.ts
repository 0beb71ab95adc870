// PodTopologyLabels (kube's plugin/pkg/admission/podtopologylabels, PodTopologyLabelsAdmission gate).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podTopologyLabelsPlugin } from './pod-topology-labels.ts';
import { pluginContext, request } from './testing/fake.ts';

const node = { metadata: { name: 'n1', labels: { 'topology.k8s.io/zone': 'z1', 'topology.k8s.io/region': 'r1', 'topology.kubernetes.io/zone': 'other', custom: 'x' } } };

void test('gate off: nothing happens', async () => {
  const ctx = pluginContext();
  ctx.registry.add('', 'nodes', node);
  const plugin = podTopologyLabelsPlugin(ctx);
  await plugin.ready!();
  const b = request({ resource: 'pods', subresource: 'binding', namespace: 'ns', name: 'p', kind: 'Binding', object: { metadata: { name: 'p' }, target: { kind: 'Node', name: 'n1' } } as never });
  await plugin.admit!(b);
  assert.equal(b.object!.metadata.labels, undefined);
});

void test('gate on: the node\'s topology labels go on the Binding and on pods created bound; existing labels win', async () => {
  const ctx = pluginContext({ gates: { PodTopologyLabelsAdmission: true } });
  ctx.registry.add('', 'nodes', node);
  const plugin = podTopologyLabelsPlugin(ctx);
  await plugin.ready!();
  const b = request({ resource: 'pods', subresource: 'binding', namespace: 'ns', name: 'p', kind: 'Binding', object: { metadata: { name: 'p', labels: { 'topology.k8s.io/zone': 'mine' } }, target: { kind: 'Node', name: 'n1' } } as never });
  await plugin.admit!(b);
  assert.deepEqual(b.object!.metadata.labels, { 'topology.k8s.io/zone': 'mine', 'topology.k8s.io/region': 'r1' });
  const p = request({ resource: 'pods', namespace: 'ns', object: { metadata: { name: 'p' }, spec: { nodeName: 'n1', containers: [] } } });
  await plugin.admit!(p);
  assert.deepEqual(p.object!.metadata.labels, { 'topology.k8s.io/zone': 'z1', 'topology.k8s.io/region': 'r1' });
  const ghost = request({ resource: 'pods', namespace: 'ns', object: { metadata: { name: 'q' }, spec: { nodeName: 'missing', containers: [] } } });
  await plugin.admit!(ghost);
  assert.equal(ghost.object!.metadata.labels, undefined);
});
