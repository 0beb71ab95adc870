// ExtendedResourceToleration (kube's plugin/pkg/admission/extendedresourcetoleration).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extendedResourceTolerationPlugin, isExtendedResourceName } from './extended-resource-toleration.ts';
import { request } from './testing/fake.ts';

void test('extended resources requested by containers get an Exists NoSchedule toleration, sorted, once', async () => {
  assert.equal(isExtendedResourceName('example.com/gpu'), true);
  assert.equal(isExtendedResourceName('cpu'), false);
  assert.equal(isExtendedResourceName('kubernetes.io/x'), false);
  assert.equal(isExtendedResourceName('requests.example.com/x'), false);
  const a = request({ resource: 'pods', namespace: 'ns', object: { metadata: { name: 'p' }, spec: {
    containers: [{ name: 'c', image: 'x', resources: { requests: { 'z.io/b': '1', cpu: '1' } } }],
    initContainers: [{ name: 'i', image: 'x', resources: { requests: { 'a.io/a': '1' } } }],
    tolerations: [{ key: 'z.io/b', operator: 'Exists', effect: 'NoSchedule' }],
  } } });
  await extendedResourceTolerationPlugin().admit!(a);
  assert.deepEqual((a.object!['spec'] as any).tolerations, [
    { key: 'z.io/b', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'a.io/a', operator: 'Exists', effect: 'NoSchedule' },
  ]);
});
