// TaintNodesByCondition (kube's plugin/pkg/admission/nodetaint).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { taintNodesByConditionPlugin } from './taint-nodes-by-condition.ts';
import { request } from './testing/fake.ts';

void test('new nodes get the not-ready:NoSchedule taint once; other resources are untouched', async () => {
  const a = request({ resource: 'nodes', object: { metadata: { name: 'n1' }, spec: { taints: [{ key: 'a', effect: 'NoExecute' }] } } });
  await taintNodesByConditionPlugin().admit!(a);
  assert.deepEqual((a.object!['spec'] as any).taints, [{ key: 'a', effect: 'NoExecute' }, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
  await taintNodesByConditionPlugin().admit!(a);
  assert.equal((a.object!['spec'] as any).taints.length, 2);
  const bare = request({ resource: 'nodes', object: { metadata: { name: 'n2' } } });
  await taintNodesByConditionPlugin().admit!(bare);
  assert.deepEqual((bare.object!['spec'] as any).taints, [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
  const status = request({ resource: 'nodes', subresource: 'status', object: { metadata: { name: 'n3' } } });
  await taintNodesByConditionPlugin().admit!(status);
  assert.equal(status.object!['spec'], undefined);
});
