import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../machinery/errors.ts';
import { selectorString } from './scale.ts';
import { sys, testEnv, type TestEnv } from '../testing/registry.ts';

void describe('scale sub-resource', () => {
  let env: TestEnv;
  before(async () => {
    env = await testEnv();
    await env.registry.lookup('apps', 'v1', 'deployments')!.create(sys('default'), {
      metadata: { name: 'web' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } } },
    }, {});
  });
  after(async () => { await env.close(); });
  const deps = () => env.registry.lookup('apps', 'v1', 'deployments')!;
  const scaleCtx = (extra = {}) => sys('default', { subresource: 'scale', ...extra });

  void it('GET returns an autoscaling/v1 Scale of the parent', async () => {
    const parent = (await deps().get(sys('default'), 'web', {})).object;
    const s = (await deps().get(scaleCtx(), 'web', {})).object;
    assert.deepEqual(s, {
      kind: 'Scale', apiVersion: 'autoscaling/v1',
      metadata: { name: 'web', namespace: 'default', uid: parent.metadata.uid, resourceVersion: parent.metadata.resourceVersion, creationTimestamp: parent.metadata.creationTimestamp },
      spec: { replicas: 2 },
      status: { replicas: 0, selector: 'app=web' },
    });
  });

  void it('PUT changes spec.replicas (generation bumps); stale rv → 409; negative → 422', async () => {
    const s = (await deps().get(scaleCtx(), 'web', {})).object;
    const put = await deps().update(scaleCtx(), 'web', { ...s, spec: { replicas: 5 } }, {});
    assert.deepEqual(put.object['spec'], { replicas: 5 });
    const parent = (await deps().get(sys('default'), 'web', {})).object;
    assert.equal((parent['spec'] as { replicas: number }).replicas, 5);
    assert.equal(parent.metadata.generation, 2);
    await assert.rejects(deps().update(scaleCtx(), 'web', { ...s, spec: { replicas: 1 } }, {}), (e: unknown) => e instanceof StatusError && e.code === 409
      && e.message === 'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again');
    await assert.rejects(deps().update(scaleCtx(), 'web', { metadata: {}, spec: { replicas: -1 } }, {}), (e: unknown) => e instanceof StatusError && e.code === 422
      && e.message === 'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  });

  void it('PATCH goes through guaranteedUpdate with the current Scale', async () => {
    const r = await deps().guaranteedUpdate(scaleCtx(), 'web', (cur) => ({ ...cur!, spec: { replicas: 0 } }), {});
    assert.deepEqual(r.object['spec'], {});
    await assert.rejects(deps().get(scaleCtx(), 'nope', {}), (e: unknown) => e instanceof StatusError && e.code === 404 && e.message === 'deployments.apps "nope" not found');
  });

  void it('selector strings as kube prints them', () => {
    assert.equal(selectorString({ matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'c', operator: 'In', values: ['y', 'x'] }, { key: 'd', operator: 'DoesNotExist' }] }), 'a=1,b=2,c in (x,y),!d');
    assert.equal(selectorString({ app: 'rc' }), 'app=rc');
  });
});

void describe('scale body types', () => {
  void it('replicas of the wrong type is a 400 decode error', async () => {
    const env = await testEnv();
    try {
      const d = env.registry.lookup('apps', 'v1', 'deployments')!;
      await d.create(sys('default'), { metadata: { name: 'w' }, spec: { replicas: 1 } }, {});
      await assert.rejects(d.update(sys('default', { subresource: 'scale' }), 'w', { metadata: {}, spec: { replicas: '3' } }, {}),
        (e: unknown) => e instanceof StatusError && e.code === 400
          && e.message === 'Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32');
    } finally {
      await env.close();
    }
  });
});
