import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import { statusOf, cm, sys, testEnv, type TestEnv } from '../testing/registry.ts';
import { readKubeJson } from '../../../test/support/kube-reference.ts';

void describe('namespaces special REST', () => {
  let env: TestEnv;
  before(async () => { env = await testEnv(); });
  after(async () => { await env.close(); });
  const ns = () => env.registry.lookup('', 'v1', 'namespaces')!;

  void it('create: phase Active, kubernetes finalizer, metadata.name label (shape of the reference object)', async () => {
    const out = await ns().create(sys('', { fieldManager: 'kubectl-create' }), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ref' } }, {});
    const ref = readKubeJson<KObject>('responses/objects/api_v1_namespaces_ref.json');
    const strip = (o: KObject) => {
      const c = structuredClone(o);
      for (const k of ['uid', 'resourceVersion', 'creationTimestamp'] as const) delete c.metadata[k];
      for (const m of c.metadata.managedFields ?? []) delete m.time;
      return c;
    };
    assert.deepEqual(strip(out), strip(ref));
    assert.equal(JSON.stringify(Object.keys(out)), JSON.stringify(Object.keys(ref)));
  });

  void it('main update keeps spec.finalizers and status; the label stays', async () => {
    const cur = (await ns().get(sys(''), 'ref', {})).object;
    const body = structuredClone(cur) as KObject;
    body['spec'] = { finalizers: [] };
    body['status'] = { phase: 'Terminating' };
    body.metadata.labels = { team: 'a' };
    const out = (await ns().update(sys(''), 'ref', body, {})).object;
    assert.deepEqual(out['spec'], { finalizers: ['kubernetes'] });
    assert.deepEqual(out['status'], { phase: 'Active' });
    assert.deepEqual(out.metadata.labels, { team: 'a', 'kubernetes.io/metadata.name': 'ref' });
  });

  void it('delete: Terminating and kept while spec.finalizers remain; finalize removes it', async () => {
    await env.registry.lookup('', 'v1', 'configmaps')!.create(sys('ref'), cm('inside'), {});
    const first = await ns().delete(sys(''), 'ref', {});
    assert.equal(first.deleted, false);
    assert.ok(first.object.metadata.deletionTimestamp);
    assert.equal((first.object['status'] as { phase: string }).phase, 'Terminating');
    const again = await ns().delete(sys(''), 'ref', {});
    assert.equal(again.deleted, false);
    assert.equal(again.object.metadata.resourceVersion, first.object.metadata.resourceVersion);
    const finalize = structuredClone(first.object) as KObject;
    finalize['spec'] = { finalizers: [] };
    const done = await ns().update(sys('', { subresource: 'finalize' }), 'ref', finalize, {});
    assert.deepEqual(done.object['spec'], { finalizers: [] });
    assert.equal(await env.store.get('/registry/namespaces/ref'), undefined);
  });

  void it('finalize validates finalizer names', async () => {
    await ns().create(sys(''), { metadata: { name: 'v' } }, {});
    const cur = (await ns().get(sys(''), 'v', {})).object;
    const body = structuredClone(cur) as KObject;
    body['spec'] = { finalizers: ['custom'] };
    const s = await statusOf(ns().update(sys('', { subresource: 'finalize' }), 'v', body, {}));
    assert.equal(s.message, 'Namespace "v" is invalid: spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified');
  });

  void it('UID precondition and immortal namespaces', async () => {
    const s = await statusOf(ns().delete(sys(''), 'v', { preconditions: { uid: 'nope' } }));
    assert.match(s.message!, /^Operation cannot be fulfilled on namespaces "v": Precondition failed: UID in precondition: nope, UID in object meta: /);
    const d = await statusOf(ns().delete(sys(''), 'default', {}));
    assert.deepEqual([d.code, d.message], [403, 'namespaces "default" is forbidden: this namespace may not be deleted']);
  });

  void it('bad names are DNS-1123 labels', async () => {
    const s = await statusOf(ns().create(sys(''), { metadata: { name: 'a.b' } }, {}));
    assert.equal(s.message, 'Namespace "a.b" is invalid: metadata.name: Invalid value: "a.b": must not contain dots');
  });
});

void describe('namespace spec types', () => {
  void it('spec.finalizers of the wrong type is a 400', async () => {
    const env = await testEnv({ bare: true });
    try {
      const s = await statusOf(env.registry.lookup('', 'v1', 'namespaces')!.create(sys(''), { metadata: { name: 'x' }, spec: { finalizers: 'kubernetes' } }, {}));
      assert.deepEqual([s.code, s.message], [400, 'Namespace in version "v1" cannot be handled as a Namespace: json: cannot unmarshal string into Go struct field NamespaceSpec.spec.finalizers of type []v1.FinalizerName']);
    } finally {
      await env.close();
    }
  });
});
