import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statusOf, cm, sys, testEnv, type TestEnv } from './testing/registry.ts';
import { readKubeJson } from '../../test/support/kube-reference.ts';

const ref = (f: string) => readKubeJson<Record<string, unknown>>('responses/errors', f);

void describe('create and get', () => {
  let env: TestEnv;
  before(async () => { env = await testEnv(); });
  after(async () => { await env.close(); });
  const cms = () => env.registry.lookup('', 'v1', 'configmaps')!;

  void it('fills system metadata and reads back with resourceVersion = modRevision', async () => {
    const out = await cms().create(sys('default', { fieldManager: 'kubectl-create' }), cm('cm1'), {});
    assert.equal(out.kind, 'ConfigMap');
    assert.equal(out.apiVersion, 'v1');
    assert.match(out.metadata.uid!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(out.metadata.creationTimestamp!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(out.metadata.namespace, 'default');
    assert.equal(out.metadata.generation, undefined, 'configmaps do not track generation');
    assert.deepEqual(out.metadata.managedFields, [{
      manager: 'kubectl-create', operation: 'Update', apiVersion: 'v1', time: out.metadata.creationTimestamp,
      fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } },
    }]);
    // Same key order as kube's JSON.
    assert.deepEqual(Object.keys(out), ['kind', 'apiVersion', 'metadata', 'data']);
    assert.deepEqual(Object.keys(out.metadata), ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'managedFields']);
    const stored = await env.store.get('/registry/configmaps/default/cm1');
    assert.ok(stored);
    assert.equal(out.metadata.resourceVersion, String(stored.modRevision));
    assert.equal(JSON.parse(Buffer.from(stored.value).toString()).metadata.resourceVersion, undefined, 'rv is not stored');
    const got = await cms().get(sys('default'), 'cm1', {});
    assert.deepEqual(got.object, out);
  });

  void it('409 AlreadyExists like the reference', async () => {
    const s = await statusOf(cms().create(sys('default'), cm('cm1'), {}));
    assert.deepEqual(s, ref('409-create-exists.json'));
  });

  void it('404 NotFound like the reference', async () => {
    const s = await statusOf(cms().get(sys('default'), 'nope', {}));
    assert.deepEqual(s, ref('404-get-missing.json'));
  });

  void it('422 for a bad name like the reference', async () => {
    const s = await statusOf(cms().create(sys('default'), cm('Bad_Name'), {}));
    assert.deepEqual(s, ref('422-invalid-name.json'));
  });

  void it('generateName: prefix + 5 characters of kube\'s alphabet, truncated to fit', async () => {
    const a = await cms().create(sys('default'), { metadata: { generateName: 'gen-' }, data: {} }, {});
    assert.match(a.metadata.name!, /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    const long = await cms().create(sys('default'), { metadata: { generateName: 'x'.repeat(70) } }, {});
    assert.equal(long.metadata.name!.length, 63);
    const s = await statusOf(cms().create(sys('default'), { metadata: { generateName: 'Bad_' } }, {}));
    assert.equal(s.code, 422);
    assert.match(s.message!, /metadata\.generateName: Invalid value: "Bad_"/);
  });

  void it('missing name → 422 Required', async () => {
    const s = await statusOf(cms().create(sys('default'), { metadata: {} }, {}));
    assert.equal(s.message, 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');
  });

  void it('labels and annotations are validated with kube messages', async () => {
    const s = await statusOf(cms().create(sys('default'), cm('l1', {}, { labels: { 'bad key!': 'v', ok: '-bad' } }), {}));
    assert.equal(s.code, 422);
    assert.equal(s.details!.causes!.length, 2);
    assert.equal(s.details!.causes![0]!.field, 'metadata.labels');
    const big = await statusOf(cms().create(sys('default'), cm('l2', {}, { annotations: { a: 'x'.repeat(256 * 1024) } }), {}));
    assert.equal(big.message, 'ConfigMap "l2" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes');
  });

  void it('namespace rules: mismatch 400, missing 404, terminating 403', async () => {
    const mismatch = await statusOf(cms().create(sys('default'), cm('n1', {}, { namespace: 'other' }), {}));
    assert.deepEqual([mismatch.code, mismatch.message], [400, 'the namespace of the provided object does not match the namespace sent on the request']);
    const missing = await statusOf(cms().create(sys('nowhere'), cm('n1'), {}));
    assert.deepEqual([missing.code, missing.message, missing.details], [404, 'namespaces "nowhere" not found', { name: 'nowhere', kind: 'namespaces' }]);
    const term = await statusOf(cms().create(sys('gone'), cm('n1'), {}));
    assert.equal(term.code, 403);
    assert.equal(term.message, 'configmaps "n1" is forbidden: unable to create new content in namespace gone because it is being terminated');
    assert.deepEqual(term.details!.causes, [{ reason: 'NamespaceTerminating', message: 'namespace gone is being terminated', field: 'metadata.namespace' }]);
    // Admission runs before name generation and validation: a generateName names the object, bad names do not matter.
    const gen = await statusOf(cms().create(sys('gone'), { metadata: { generateName: 'Bad_' } }, {}));
    assert.equal(gen.message, 'configmaps "Bad_" is forbidden: unable to create new content in namespace gone because it is being terminated');
  });

  void it('cluster-scoped kinds drop a namespace and use path-segment names', async () => {
    const cr = env.registry.lookup('rbac.authorization.k8s.io', 'v1', 'clusterroles')!;
    const out = await cr.create(sys(''), { metadata: { name: 'system:Admin', namespace: 'default' }, rules: [] }, {});
    assert.equal(out.metadata.namespace, undefined);
    assert.equal(out.apiVersion, 'rbac.authorization.k8s.io/v1');
    assert.ok(await env.store.get('/registry/clusterroles/system:Admin'));
    const s = await statusOf(cr.create(sys(''), { metadata: { name: '..' } }, {}));
    assert.equal(s.message, 'ClusterRole.rbac.authorization.k8s.io ".." is invalid: metadata.name: Invalid value: "..": may not be \'..\'');
  });

  void it('kinds that track generation start at 1; status is cleared on create', async () => {
    const d = env.registry.lookup('apps', 'v1', 'deployments')!;
    const out = await d.create(sys('default'), { metadata: { name: 'web', generation: 7 }, spec: { replicas: 2 }, status: { replicas: 9 } }, {});
    assert.equal(out.metadata.generation, 1);
    assert.deepEqual(out['status'], {});
  });

  void it('resourceVersion set on create is refused (500 as kube), accepted in a dry run', async () => {
    const s = await statusOf(cms().create(sys('default'), cm('rv1', {}, { resourceVersion: '5' }), {}));
    assert.deepEqual([s.code, s.message], [500, 'resourceVersion should not be set on objects to be created']);
  });

  void it('dry-run create: full answer, no resourceVersion, nothing stored', async () => {
    const before = await env.store.currentRevision();
    const out = await cms().create(sys('default', { dryRun: true }), cm('dry'), {});
    assert.equal(out.metadata.name, 'dry');
    assert.ok(out.metadata.uid);
    assert.ok(out.metadata.creationTimestamp);
    assert.equal(out.metadata.resourceVersion, undefined);
    assert.equal(await env.store.get('/registry/configmaps/default/dry'), undefined);
    assert.equal(await env.store.currentRevision(), before);
    const dup = await statusOf(cms().create(sys('default', { dryRun: true }), cm('cm1'), {}));
    assert.equal(dup.code, 409);
  });

  void it('get: resourceVersion "0", not older than, too large, invalid', async () => {
    const cur = await env.store.currentRevision();
    assert.equal((await cms().get(sys('default'), 'cm1', { resourceVersion: '0' })).object.metadata.name, 'cm1');
    assert.equal((await cms().get(sys('default'), 'cm1', { resourceVersion: String(cur) })).object.metadata.name, 'cm1');
    const bad = await statusOf(cms().get(sys('default'), 'cm1', { resourceVersion: 'abc' }));
    assert.deepEqual([bad.code, bad.message], [400, 'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax']);
  });
});

void describe('status on create', () => {
  void it('kinds may keep the caller\'s status on create (allowStatusOnCreate, e.g. nodes)', async () => {
    const env = await testEnv();
    try {
      const d = env.registry.lookup('apps', 'v1', 'deployments')!;
      const saved = d.def.strategy;
      d.def.strategy = { ...saved, allowStatusOnCreate: true } as typeof saved;
      try {
        const out = await d.create(sys('default'), { metadata: { name: 'n' }, spec: {}, status: { replicas: 4 } }, {});
        assert.deepEqual(out['status'], { replicas: 4 });
      } finally {
        d.def.strategy = saved;
      }
    } finally {
      await env.close();
    }
  });
});
