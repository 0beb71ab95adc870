// AlwaysPullImages (kube's plugin/pkg/admission/alwayspullimages).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alwaysPullImagesPlugin } from './always-pull-images.ts';
import { refusal, request } from './testing/fake.ts';

const pod = (policy = 'IfNotPresent', image = 'x:1') => ({ metadata: { name: 'p' }, spec: {
  initContainers: [{ name: 'i', image, imagePullPolicy: policy }], containers: [{ name: 'c', image, imagePullPolicy: policy }],
  ephemeralContainers: [{ name: 'e', image, imagePullPolicy: policy }],
} });

void test('every container pulls Always; updates without new images are left alone; validation refuses others', async () => {
  const plugin = alwaysPullImagesPlugin();
  const a = request({ resource: 'pods', namespace: 'ns', object: pod() });
  await plugin.admit!(a);
  await plugin.validate!(a);
  const spec = a.object!['spec'] as any;
  assert.deepEqual([spec.initContainers[0].imagePullPolicy, spec.containers[0].imagePullPolicy, spec.ephemeralContainers[0].imagePullPolicy], ['Always', 'Always', 'Always']);
  const same = request({ operation: 'UPDATE', resource: 'pods', namespace: 'ns', name: 'p', object: pod(), oldObject: pod() });
  await plugin.admit!(same);
  assert.equal((same.object!['spec'] as any).containers[0].imagePullPolicy, 'IfNotPresent');
  const newer = request({ operation: 'UPDATE', resource: 'pods', namespace: 'ns', name: 'p', object: pod('IfNotPresent', 'x:2'), oldObject: pod() });
  await plugin.admit!(newer);
  assert.equal((newer.object!['spec'] as any).containers[0].imagePullPolicy, 'Always');
  const e = await refusal(() => plugin.validate!(request({ resource: 'pods', namespace: 'ns', object: pod() })));
  assert.equal(e.code, 500, 'an aggregate of errors is no API status');
  const why = (path: string) => `pods "p" is forbidden: ${path}.imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always"`;
  assert.equal(e.message, `[${why('spec.initContainers[0]')}, ${why('spec.containers[0]')}, ${why('spec.ephemeralContainers[0]')}]`);
  const one = { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x', imagePullPolicy: 'Never' }] } };
  assert.equal((await refusal(() => plugin.validate!(request({ resource: 'pods', namespace: 'ns', object: one })))).message,
    'pods "p" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "Never": supported values: "Always"');
});
