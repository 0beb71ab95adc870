import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statusOf, cm, sys, testEnv, type TestEnv } from './testing/registry.ts';

void describe('delete lifecycle', () => {
  let env: TestEnv;
  let clock = Date.parse('2026-01-02T03:04:05Z');
  before(async () => { env = await testEnv({ now: () => new Date(clock) }); });
  after(async () => { await env.close(); });
  const cms = () => env.registry.lookup('', 'v1', 'configmaps')!;
  const pods = () => env.registry.lookup('', 'v1', 'pods')!;

  void it('deletes at once without finalizers; the answer is the last state', async () => {
    const c = await cms().create(sys('default'), cm('a'), {});
    const r = await cms().delete(sys('default'), 'a', {});
    assert.equal(r.deleted, true);
    assert.equal(r.object.metadata.uid, c.metadata.uid);
    assert.equal(await env.store.get('/registry/configmaps/default/a'), undefined);
    const again = await statusOf(cms().delete(sys('default'), 'a', {}));
    assert.deepEqual([again.code, again.message], [404, 'configmaps "a" not found']);
  });

  void it('preconditions: uid and resourceVersion → 409 naming the Kind', async () => {
    const c = await cms().create(sys('default'), cm('p'), {});
    const uid = await statusOf(cms().delete(sys('default'), 'p', { preconditions: { uid: 'x' } }));
    assert.deepEqual([uid.code, uid.reason, uid.message], [409, 'Conflict',
      `Operation cannot be fulfilled on ConfigMap "p": the UID in the precondition (x) does not match the UID in record (${c.metadata.uid}). The object might have been deleted and then recreated`]);
    assert.deepEqual(uid.details, { name: 'p', kind: 'ConfigMap' });
    const rv = await statusOf(cms().delete(sys('default'), 'p', { preconditions: { resourceVersion: '1' } }));
    assert.equal(rv.message, `Operation cannot be fulfilled on ConfigMap "p": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${c.metadata.resourceVersion}). The object might have been modified`);
    const ok = await cms().delete(sys('default'), 'p', { preconditions: { uid: c.metadata.uid!, resourceVersion: c.metadata.resourceVersion! } });
    assert.equal(ok.deleted, true);
  });

  void it('delete options are validated (422 DeleteOptions)', async () => {
    await cms().create(sys('default'), cm('o'), {});
    const both = await statusOf(cms().delete(sys('default'), 'o', { orphanDependents: true, propagationPolicy: 'Background' }));
    assert.equal(both.message, 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Background": orphanDependents and deletionPropagation cannot be both set');
    const bad = await statusOf(cms().delete(sys('default'), 'o', { propagationPolicy: 'Sideways' as 'Orphan' }));
    assert.equal(bad.message, 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"');
  });

  void it('finalizers keep the object with deletionTimestamp and grace 0; GC finalizers as asked', async () => {
    await cms().create(sys('default'), cm('f', {}, { finalizers: ['example.com/keep'] }), {});
    const r = await cms().delete(sys('default'), 'f', { propagationPolicy: 'Foreground' });
    assert.equal(r.deleted, false);
    assert.equal(r.object.metadata.deletionTimestamp, '2026-01-02T03:04:05Z');
    assert.equal(r.object.metadata.deletionGracePeriodSeconds, 0);
    assert.deepEqual(r.object.metadata.finalizers, ['example.com/keep', 'foregroundDeletion']);
    const rev = await env.store.currentRevision();
    const again = await cms().delete(sys('default'), 'f', {});
    assert.equal(again.deleted, false);
    assert.equal(again.object.metadata.resourceVersion, r.object.metadata.resourceVersion, 'a repeated delete writes nothing');
    assert.equal(await env.store.currentRevision(), rev);
    await cms().create(sys('default'), cm('orphan-me'), {});
    const o = await cms().delete(sys('default'), 'orphan-me', { propagationPolicy: 'Orphan' });
    assert.equal(o.deleted, false);
    assert.deepEqual(o.object.metadata.finalizers, ['orphan']);
    await cms().create(sys('default'), cm('bg'), {});
    assert.equal((await cms().delete(sys('default'), 'bg', { propagationPolicy: 'Background' })).deleted, true);
  });

  void it('graceful deletion: deletionTimestamp = now + grace; only shortening is allowed; grace 0 removes', async () => {
    await pods().create(sys('default'), { metadata: { name: 'p1' }, spec: {} }, {});
    const first = await pods().delete(sys('default'), 'p1', {});
    assert.equal(first.deleted, false);
    assert.equal(first.object.metadata.deletionTimestamp, '2026-01-02T03:04:35Z');
    assert.equal(first.object.metadata.deletionGracePeriodSeconds, 30);
    const longer = await pods().delete(sys('default'), 'p1', { gracePeriodSeconds: 60 });
    assert.equal(longer.object.metadata.deletionGracePeriodSeconds, 30, 'a longer grace changes nothing');
    assert.equal(longer.object.metadata.resourceVersion, first.object.metadata.resourceVersion);
    const shorter = await pods().delete(sys('default'), 'p1', { gracePeriodSeconds: 10 });
    assert.equal(shorter.deleted, false);
    assert.equal(shorter.object.metadata.deletionGracePeriodSeconds, 10);
    assert.equal(shorter.object.metadata.deletionTimestamp, '2026-01-02T03:04:15Z');
    const now = await pods().delete(sys('default'), 'p1', { gracePeriodSeconds: 0 });
    assert.equal(now.deleted, true);
    assert.equal(await env.store.get('/registry/pods/default/p1'), undefined);
  });

  void it('shortening into the past clamps to now with grace 1', async () => {
    await pods().create(sys('default'), { metadata: { name: 'p2' }, spec: {} }, {});
    await pods().delete(sys('default'), 'p2', { gracePeriodSeconds: 20 });
    clock += 15_000;
    const r = await pods().delete(sys('default'), 'p2', { gracePeriodSeconds: 2 });
    assert.equal(r.object.metadata.deletionGracePeriodSeconds, 1);
    assert.equal(r.object.metadata.deletionTimestamp, new Date(clock).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  });

  void it('generation +1 when deletion starts (kinds that track it)', async () => {
    const d = env.registry.lookup('apps', 'v1', 'deployments')!;
    await d.create(sys('default'), { metadata: { name: 'd', finalizers: ['example.com/x'] }, spec: {} }, {});
    const r = await d.delete(sys('default'), 'd', {});
    assert.equal(r.object.metadata.generation, 2);
  });

  void it('dry-run delete answers without removing', async () => {
    await cms().create(sys('default'), cm('dry'), {});
    const r = await cms().delete(sys('default', { dryRun: true }), 'dry', {});
    assert.equal(r.deleted, true);
    assert.ok(await env.store.get('/registry/configmaps/default/dry'));
    await pods().create(sys('default'), { metadata: { name: 'pdry' }, spec: {} }, {});
    const g = await pods().delete(sys('default', { dryRun: true }), 'pdry', {});
    assert.equal(g.object.metadata.deletionGracePeriodSeconds, 30);
    const stored = await pods().get(sys('default'), 'pdry', {});
    assert.equal(stored.object.metadata.deletionTimestamp, undefined);
  });
});
