// DefaultTolerationSeconds (kube's plugin/pkg/admission/defaulttolerationseconds).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultTolerationSecondsPlugin } from './default-toleration-seconds.ts';
import { pluginContext, request } from './testing/fake.ts';

const run = async (tolerations: unknown[] | undefined, options = {}) => {
  const a = request({ resource: 'pods', namespace: 'ns', object: { metadata: { name: 'p' }, spec: { containers: [], ...(tolerations ? { tolerations } : {}) } } });
  await defaultTolerationSecondsPlugin(pluginContext({ options })).admit!(a);
  return (a.object!['spec'] as any).tolerations;
};

void test('not-ready and unreachable NoExecute tolerations of 300 s are added', async () => {
  assert.deepEqual(await run(undefined), [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  ]);
});

void test('the flags set the seconds; existing tolerations (empty key or effect match) are kept', async () => {
  assert.deepEqual(await run(undefined, { defaultNotReadyTolerationSeconds: 10, defaultUnreachableTolerationSeconds: 20 }), [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 },
  ]);
  const own = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 };
  assert.deepEqual(await run([own]), [own, { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }]);
  assert.deepEqual(await run([{ operator: 'Exists' }]), [{ operator: 'Exists' }], 'tolerating everything needs nothing more');
  const noSchedule = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoSchedule' };
  assert.equal((await run([noSchedule])).length, 3, 'another effect does not count');
});
