import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../machinery/objects.ts';
import { statusOf, cm, sys, testEnv, type TestEnv } from './testing/registry.ts';
import { readKubeJson } from '../../test/support/kube-reference.ts';

const ref = (f: string) => readKubeJson<Record<string, unknown>>('responses/errors', f);

void describe('update (PUT) and guaranteedUpdate', () => {
  let env: TestEnv;
  before(async () => { env = await testEnv(); });
  after(async () => { await env.close(); });
  const cms = () => env.registry.lookup('', 'v1', 'configmaps')!;
  const deps = () => env.registry.lookup('apps', 'v1', 'deployments')!;

  void it('replaces the object; identity and timestamps carried over', async () => {
    const created = await cms().create(sys('default', { fieldManager: 'kubectl-create' }), cm('cm1'), {});
    const put = structuredClone(created);
    put.data = { a: 'c', b: 'd' };
    delete put.metadata.uid;
    const { object, created: wasCreated } = await cms().update(sys('default', { fieldManager: 'kubectl-replace' }), 'cm1', put, {});
    assert.equal(wasCreated, false);
    assert.deepEqual(object['data'], { a: 'c', b: 'd' });
    assert.equal(object.metadata.uid, created.metadata.uid);
    assert.equal(object.metadata.creationTimestamp, created.metadata.creationTimestamp);
    assert.ok(Number(object.metadata.resourceVersion) > Number(created.metadata.resourceVersion));
    // kubectl-replace now owns what it changed; kubectl-create keeps only the map itself (SMD encodes a
    // member without children as an empty object).
    const mf = object.metadata.managedFields!;
    assert.deepEqual(mf.map((m) => m.manager), ['kubectl-create', 'kubectl-replace']);
    assert.deepEqual(mf[0]!.fieldsV1, { 'f:data': {} });
    assert.deepEqual(mf[1]!.fieldsV1, { 'f:data': { 'f:a': {}, 'f:b': {} } });
  });

  void it('stale resourceVersion → 409 with the exact reference body', async () => {
    const s = await statusOf(cms().update(sys('default'), 'cm1', cm('cm1', { a: 'x' }, { resourceVersion: '1' }), {}));
    assert.deepEqual(s, ref('409-update-stale.json'));
  });

  void it('missing resourceVersion: allowed when the strategy allows unconditional updates, else 422', async () => {
    const ok = await cms().update(sys('default'), 'cm1', cm('cm1', { z: '1' }), {});
    assert.deepEqual(ok.object['data'], { z: '1' });
    const cr = env.registry.lookup('rbac.authorization.k8s.io', 'v1', 'clusterroles')!;
    const strict = { ...cr.def.strategy };
    delete strict.allowUnconditionalUpdate;
    const def = cr.def;
    const saved = def.strategy;
    def.strategy = strict;
    try {
      await cr.create(sys(''), { metadata: { name: 'r1' }, rules: [] }, {});
      const s = await statusOf(cr.update(sys(''), 'r1', { metadata: { name: 'r1' }, rules: [{}] }, {}));
      assert.equal(s.code, 422);
      assert.equal(s.message, 'clusterroles.rbac.authorization.k8s.io "r1" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');
    } finally {
      def.strategy = saved;
    }
  });

  void it('PUT of a missing object: 404 unless create-on-update', async () => {
    const s = await statusOf(cms().update(sys('default'), 'nope', cm('nope'), {}));
    assert.equal(s.code, 404);
    const def = cms().def;
    def.strategy = { ...def.strategy, allowCreateOnUpdate: true };
    try {
      const r = await cms().update(sys('default'), 'made', cm('made'), {});
      assert.equal(r.created, true);
      assert.ok(r.object.metadata.uid);
    } finally {
      def.strategy = { ...def.strategy, allowCreateOnUpdate: false };
    }
  });

  void it('immutable fields: uid and name', async () => {
    const cur = (await cms().get(sys('default'), 'cm1', {})).object;
    const bad = structuredClone(cur) as KObject;
    bad.metadata.uid = 'other';
    const s = await statusOf(cms().update(sys('default'), 'cm1', bad, {}));
    assert.equal(s.message, 'ConfigMap "cm1" is invalid: metadata.uid: Invalid value: "other": field is immutable');
  });

  void it('a no-op update does not write and returns the stored resourceVersion', async () => {
    const cur = (await cms().get(sys('default'), 'cm1', {})).object;
    const rev = await env.store.currentRevision();
    const again = await cms().update(sys('default'), 'cm1', structuredClone(cur) as KObject, {});
    assert.equal(again.object.metadata.resourceVersion, cur.metadata.resourceVersion);
    assert.equal(await env.store.currentRevision(), rev);
  });

  void it('generation bumps only when the spec part changes; status is kept on main writes', async () => {
    // Created with a manager: objects nobody manages stay untracked on later updates (kube's skipNonAppliedManager).
    const d = await deps().create(sys('default', { fieldManager: 'creator' }), { metadata: { name: 'web', labels: { app: 'web' } }, spec: { replicas: 1 } }, {});
    const labelsOnly = structuredClone(d);
    labelsOnly.metadata.labels = { app: 'web', tier: 'x' };
    const a = (await deps().update(sys('default'), 'web', labelsOnly, {})).object;
    assert.equal(a.metadata.generation, 1);
    const specChange = structuredClone(a);
    specChange['spec'] = { replicas: 3 };
    specChange['status'] = { replicas: 99 };
    const b = (await deps().update(sys('default'), 'web', specChange, {})).object;
    assert.equal(b.metadata.generation, 2);
    assert.deepEqual(b['status'], {});
  });

  void it('status sub-resource writes change only status (and keep labels)', async () => {
    const cur = (await deps().get(sys('default'), 'web', {})).object;
    const body = structuredClone(cur) as KObject;
    body['status'] = { replicas: 3 };
    body['spec'] = { replicas: 100 };
    body.metadata.labels = { changed: 'yes' };
    const out = (await deps().update(sys('default', { subresource: 'status', fieldManager: 'ctrl' }), 'web', body, {})).object;
    assert.deepEqual(out['status'], { replicas: 3 });
    // The stored spec in kube's JSON shape: a bare test Deployment has its zero values written.
    assert.deepEqual(out['spec'], { replicas: 3, selector: null, template: { metadata: { creationTimestamp: null }, spec: { containers: null } }, strategy: {} });
    assert.deepEqual(out.metadata.labels, { app: 'web', tier: 'x' });
    assert.equal(out.metadata.generation, cur.metadata.generation);
    assert.equal(out.metadata.managedFields!.find((m) => m.manager === 'ctrl')!.subresource, 'status');
  });

  void it('guaranteedUpdate retries a lost race with the winning value', async () => {
    await cms().create(sys('default'), cm('counter', { n: '0' }), {});
    const bump = (o: KObject | undefined) => {
      const c = structuredClone(o!);
      c['data'] = { n: String(Number((c['data'] as { n: string }).n) + 1) };
      return c;
    };
    await Promise.all(Array.from({ length: 20 }, () => cms().guaranteedUpdate(sys('default'), 'counter', bump, {})));
    const final = await cms().get(sys('default'), 'counter', {});
    assert.deepEqual(final.object['data'], { n: '20' });
  });

  void it('guaranteedUpdate with an explicit stale resourceVersion → 409', async () => {
    const s = await statusOf(cms().guaranteedUpdate(sys('default'), 'counter', (o) => ({ ...o!, metadata: { ...o!.metadata, resourceVersion: '2' } }), {}));
    assert.equal(s.code, 409);
  });

  void it('guaranteedUpdate may create when allowed', async () => {
    const r = await cms().guaranteedUpdate(sys('default'), 'fresh', (o) => o ?? cm('fresh'), { allowCreate: true });
    assert.equal(r.created, true);
  });

  void it('dry-run update answers the new object and writes nothing', async () => {
    const cur = (await cms().get(sys('default'), 'cm1', {})).object;
    const rev = await env.store.currentRevision();
    const body = structuredClone(cur) as KObject;
    body['data'] = { dry: 'run' };
    const r = await cms().update(sys('default', { dryRun: true }), 'cm1', body, {});
    assert.deepEqual(r.object['data'], { dry: 'run' });
    assert.equal(r.object.metadata.resourceVersion, cur.metadata.resourceVersion);
    assert.equal(await env.store.currentRevision(), rev);
  });

  void it('removing the last finalizer of an object being deleted removes it', async () => {
    await cms().create(sys('default'), cm('fin', {}, { finalizers: ['example.com/x'] }), {});
    const del = await cms().delete(sys('default'), 'fin', {});
    assert.equal(del.deleted, false);
    assert.ok(del.object.metadata.deletionTimestamp);
    assert.equal(del.object.metadata.deletionGracePeriodSeconds, 0);
    const adding = structuredClone(del.object);
    adding.metadata.finalizers = ['example.com/x', 'example.com/y'];
    const s = await statusOf(cms().update(sys('default'), 'fin', adding, {}));
    assert.match(s.message!, /no new finalizers can be added if the object is being deleted, found new finalizers \[\]string\{"example.com\/y"\}/);
    const body = structuredClone(del.object);
    body.metadata.finalizers = [];
    await cms().update(sys('default'), 'fin', body, {});
    assert.equal(await env.store.get('/registry/configmaps/default/fin'), undefined);
  });
});

void describe('objects stored by earlier versions (not in canonical form)', () => {
  let env: TestEnv;
  before(async () => { env = await testEnv(); });
  after(async () => { await env.close(); });
  const cms = () => env.registry.lookup('', 'v1', 'configmaps')!;

  void it('read as stored; an update that changes nothing is a no-op; a real change stores the canonical form', async () => {
    // What an earlier Keelson stored: keys in the order received, unsorted maps, an empty labels map.
    const legacy = '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"old","namespace":"default","uid":"u-1","creationTimestamp":"2026-01-01T00:00:00Z","labels":{}},"data":{"z":"1","a":"2"}}';
    const put = await env.store.create('/registry/configmaps/default/old', new TextEncoder().encode(legacy));
    assert.ok(put.succeeded);
    const got = (await cms().get(sys('default'), 'old', {})).object;
    assert.deepEqual(got['data'], { z: '1', a: '2' });
    assert.equal(got.metadata.resourceVersion, String(put.kv.modRevision));
    const same = await cms().update(sys('default'), 'old', structuredClone(got), {});
    assert.equal(same.object.metadata.resourceVersion, got.metadata.resourceVersion, 'no spurious write');
    const changed = await cms().update(sys('default'), 'old', { ...structuredClone(got), data: { z: '1', a: '3' } }, {});
    assert.equal(JSON.stringify(changed.object['data']), '{"a":"3","z":"1"}');
    assert.equal('labels' in changed.object.metadata, false);
    const stored = JSON.parse(new TextDecoder().decode((await env.store.get('/registry/configmaps/default/old'))!.value)) as KObject;
    assert.deepEqual(Object.keys(stored.metadata), ['name', 'namespace', 'uid', 'creationTimestamp']);
  });
});

void describe('an unchanged object handed back (no-op server-side apply) skips the preparation it had', () => {
  let env: TestEnv;
  before(async () => { env = await testEnv(); });
  after(async () => { await env.close(); });
  const cms = () => env.registry.lookup('', 'v1', 'configmaps')!;

  /** Runs `fn` with the ConfigMap strategy's validateUpdate counted and a warning per update. */
  async function spying<T>(fn: (calls: () => number) => Promise<T>): Promise<T> {
    const def = cms().def;
    const saved = def.strategy!;
    let n = 0;
    def.strategy = { ...saved, validateUpdate: (obj, old, ctx) => { n++; return saved.validateUpdate?.(obj, old, ctx) ?? saved.validate?.(obj, ctx) ?? []; }, warnings: () => ['w: kept on every update'] };
    try {
      return await fn(() => n);
    } finally {
      def.strategy = saved;
    }
  }

  void it('prepares once per revision, repeats the strategy warnings, and prepares again after a write', async () => {
    const created = await cms().create(sys('default'), cm('same', { a: '1' }), {});
    await spying(async (calls) => {
      const same = (cur: KObject | undefined) => cur!;
      const opts = { keepManagedFields: true };
      const ctx1 = sys('default');
      const r1 = await cms().guaranteedUpdate(ctx1, 'same', same, opts);
      assert.equal(r1.object.metadata.resourceVersion, created.metadata.resourceVersion);
      assert.equal(calls(), 1, 'the first no-op is prepared and validated');
      assert.deepEqual(ctx1.warnings, ['w: kept on every update']);
      const ctx2 = sys('default');
      const r2 = await cms().guaranteedUpdate(ctx2, 'same', same, opts);
      assert.equal(r2.object.metadata.resourceVersion, created.metadata.resourceVersion);
      assert.deepEqual(r2.object, r1.object);
      assert.equal(calls(), 1, 'the known no-op is not prepared again');
      assert.deepEqual(ctx2.warnings, ['w: kept on every update'], 'the strategy warnings are given again');
      // Another user is another strategy context: prepared again.
      await cms().guaranteedUpdate(sys('default', { user: { username: 'bob', groups: ['system:authenticated'] } }), 'same', same, opts);
      assert.equal(calls(), 2);
      // A copy is not the object handed over: prepared every time (and still a no-op).
      const copy = (cur: KObject | undefined) => structuredClone(cur!);
      await cms().guaranteedUpdate(sys('default'), 'same', copy, opts);
      assert.equal(calls(), 3);
      // The object changed in place is not unchanged: written.
      const changed = await cms().guaranteedUpdate(sys('default'), 'same', (cur) => { cur!['data'] = { a: '2' }; return cur!; }, opts);
      assert.notEqual(changed.object.metadata.resourceVersion, created.metadata.resourceVersion);
      assert.deepEqual(changed.object['data'], { a: '2' });
      assert.equal(calls(), 4);
      // The new revision is unknown: prepared once more, then known again.
      await cms().guaranteedUpdate(sys('default'), 'same', same, opts);
      assert.equal(calls(), 5);
      const again = await cms().guaranteedUpdate(sys('default'), 'same', same, opts);
      assert.equal(calls(), 5);
      assert.equal(again.object.metadata.resourceVersion, changed.object.metadata.resourceVersion);
    });
  });

  void it('without keepManagedFields (PUT, merge patch) the update is always prepared', async () => {
    await cms().create(sys('default'), cm('put', { a: '1' }), {});
    await spying(async (calls) => {
      for (let i = 0; i < 2; i++) await cms().guaranteedUpdate(sys('default', { fieldManager: 'm' }), 'put', (cur) => cur!, {});
      assert.equal(calls(), 2);
    });
  });
});
