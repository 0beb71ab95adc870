// LimitPodHardAntiAffinityTopology (kube's plugin/pkg/admission/antiaffinity).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { limitPodHardAntiAffinityTopologyPlugin } from './limit-pod-hard-anti-affinity.ts';
import { refusal, request } from './testing/fake.ts';

const pod = (topologyKey: string, name?: string) => request({ resource: 'pods', namespace: 'ns', object: { metadata: name ? { name } : { generateName: 'g-' }, spec: { containers: [],
  affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: {}, topologyKey }] } } } } });

void test('required anti-affinity only by hostname', async () => {
  const plugin = limitPodHardAntiAffinityTopologyPlugin();
  await plugin.validate!(pod('kubernetes.io/hostname', 'p'));
  assert.equal((await refusal(() => plugin.validate!(pod('zone', 'p')))).message,
    'pods "p" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey zone but only key kubernetes.io/hostname is allowed');
  assert.equal((await refusal(() => plugin.validate!(pod('zone')))).message,
    'pods is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey zone but only key kubernetes.io/hostname is allowed');
});
