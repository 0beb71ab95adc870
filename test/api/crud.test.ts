/**
 * Create/read/update/patch/delete of several kinds through HTTP, optimistic concurrency, dry-run on every
 * write, deletion with finalizers and preconditions.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { assertMatchesReference, assertStatus, configMap, deployment } from './helpers.ts';

let srv: TestServer;
before(async () => { srv = await startTestServer(); });
after(async () => { await srv?.stop(); });

const CM = '/api/v1/namespaces/default/configmaps';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };

void test('configmap: create, get, list, update, patch, delete', async () => {
  const c = await srv.request('POST', CM, { body: configMap('cm1') });
  assert.equal(c.status, 201, c.text);
  const created = c.json();
  assert.equal(created.kind, 'ConfigMap');
  assert.equal(created.apiVersion, 'v1');
  assert.equal(created.metadata.namespace, 'default');
  assert.match(created.metadata.uid, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  assert.match(created.metadata.resourceVersion, /^[1-9][0-9]*$/);
  assert.match(created.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.deepEqual(created.data, { a: 'b' });

  const g = await srv.request('GET', `${CM}/cm1`);
  assert.equal(g.status, 200);
  assert.equal(g.json().metadata.uid, created.metadata.uid);
  assert.equal(g.json().metadata.resourceVersion, created.metadata.resourceVersion);

  const l = await srv.request('GET', CM);
  assert.equal(l.status, 200);
  const list = l.json();
  assert.equal(list.kind, 'ConfigMapList');
  assert.equal(list.apiVersion, 'v1');
  assert.match(list.metadata.resourceVersion, /^\d+$/);
  assert.ok(list.items.some((i: any) => i.metadata.name === 'cm1'));

  const upd = { ...created, data: { a: 'c' } };
  const u = await srv.request('PUT', `${CM}/cm1`, { body: upd });
  assert.equal(u.status, 200, u.text);
  assert.deepEqual(u.json().data, { a: 'c' });
  assert.ok(Number(u.json().metadata.resourceVersion) > Number(created.metadata.resourceVersion));

  // The first PUT's resourceVersion is stale now: 409 with kube's exact message.
  const stale = await srv.request('PUT', `${CM}/cm1`, { body: { ...created, data: { a: 'd' } } });
  assertMatchesReference(stale, '409-update-stale.json');

  const p = await srv.request('PATCH', `${CM}/cm1`, { body: { data: { x: 'y' } }, headers: MERGE });
  assert.equal(p.status, 200, p.text);
  assert.deepEqual(p.json().data, { a: 'c', x: 'y' });

  const d = await srv.request('DELETE', `${CM}/cm1`);
  assert.equal(d.status, 200, d.text);
  const gone = await srv.request('GET', `${CM}/cm1`);
  assertStatus(gone, 404, 'NotFound', 'configmaps "cm1" not found');
});

void test('create of an existing name and get of a missing one answer as kube-apiserver', async () => {
  assert.equal((await srv.request('POST', CM, { body: configMap('dup') })).status, 201);
  assertMatchesReference(await srv.request('POST', CM, { body: configMap('dup') }), '409-create-exists.json', [['cm1', 'dup']]);
  assertMatchesReference(await srv.request('GET', `${CM}/nope`), '404-get-missing.json');
});

void test('generateName gets 5 random characters', async () => {
  const r = await srv.request('POST', CM, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } } });
  assert.equal(r.status, 201, r.text);
  assert.match(r.json().metadata.name, /^gen-[a-z0-9]{5}$/);
  assert.equal(r.json().metadata.generateName, 'gen-');
});

void test('secret: data is base64 and round-trips; stringData is folded into data', async () => {
  const S = '/api/v1/namespaces/default/secrets';
  const r = await srv.request('POST', S, { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, type: 'Opaque', data: { k: Buffer.from('v').toString('base64') }, stringData: { plain: 'text' } } });
  assert.equal(r.status, 201, r.text);
  const g = (await srv.request('GET', `${S}/s1`)).json();
  assert.equal(g.type, 'Opaque');
  assert.deepEqual(g.data, { k: 'dg==', plain: Buffer.from('text').toString('base64') });
  assert.equal(g.stringData, undefined);
  assert.equal((await srv.request('DELETE', `${S}/s1`)).status, 200);
});

void test('deployment: generation follows spec changes, status and scale sub-resources', async () => {
  const D = '/apis/apps/v1/namespaces/default/deployments';
  const c = await srv.request('POST', D, { body: deployment('web', 2) });
  assert.equal(c.status, 201, c.text);
  assert.equal(c.json().metadata.generation, 1);
  const labels = await srv.request('PATCH', `${D}/web`, { body: { metadata: { labels: { tier: 'x' } } }, headers: MERGE });
  assert.equal(labels.json().metadata.generation, 1, 'metadata changes do not bump generation');
  const spec = await srv.request('PATCH', `${D}/web`, { body: { spec: { replicas: 3 } }, headers: MERGE });
  assert.equal(spec.status, 200, spec.text);
  assert.equal(spec.json().metadata.generation, 2);

  const scale = await srv.request('GET', `${D}/web/scale`);
  assert.equal(scale.status, 200, scale.text);
  assert.equal(scale.json().kind, 'Scale');
  assert.equal(scale.json().apiVersion, 'autoscaling/v1');
  assert.equal(scale.json().spec.replicas, 3);

  const st = await srv.request('GET', `${D}/web/status`);
  assert.equal(st.status, 200, st.text);
  assert.equal(st.json().kind, 'Deployment');

  const all = await srv.request('GET', '/apis/apps/v1/deployments');
  assert.equal(all.status, 200);
  assert.equal(all.json().kind, 'DeploymentList');
  assert.ok(all.json().items.some((d: any) => d.metadata.name === 'web' && d.metadata.namespace === 'default'));
  assert.equal((await srv.request('DELETE', `${D}/web`)).status, 200);
});

void test('dryRun=All on every write changes nothing stored', async () => {
  await srv.request('POST', CM, { body: configMap('dry', { a: '1' }) });
  const before = (await srv.request('GET', `${CM}/dry`)).json();

  const c = await srv.request('POST', `${CM}?dryRun=All`, { body: configMap('dry-new') });
  assert.equal(c.status, 201, c.text);
  assert.equal(c.json().metadata.name, 'dry-new');
  assertStatus(await srv.request('GET', `${CM}/dry-new`), 404, 'NotFound');

  const u = await srv.request('PUT', `${CM}/dry?dryRun=All`, { body: { ...before, data: { a: '2' } } });
  assert.equal(u.status, 200, u.text);
  assert.deepEqual(u.json().data, { a: '2' });
  const p = await srv.request('PATCH', `${CM}/dry?dryRun=All`, { body: { data: { a: '3' } }, headers: MERGE });
  assert.equal(p.status, 200, p.text);
  assert.deepEqual(p.json().data, { a: '3' });
  const d = await srv.request('DELETE', `${CM}/dry?dryRun=All`);
  assert.equal(d.status, 200, d.text);
  const dc = await srv.request('DELETE', `${CM}?dryRun=All`);
  assert.equal(dc.status, 200, dc.text);

  const afterGet = (await srv.request('GET', `${CM}/dry`)).json();
  assert.deepEqual(afterGet.data, { a: '1' });
  assert.equal(afterGet.metadata.resourceVersion, before.metadata.resourceVersion);
  assertStatus(await srv.request('POST', `${CM}?dryRun=Bogus`, { body: configMap('x') }), 422, 'Invalid', /dryRun: Unsupported value: .*"Bogus".*: supported values: "All"/);
});

void test('finalizers keep a deleted object until they are removed', async () => {
  await srv.request('POST', CM, { body: configMap('held', {}, { finalizers: ['example.com/hold'] }) });
  const d = await srv.request('DELETE', `${CM}/held`);
  assert.ok(d.status === 200 || d.status === 202, d.text);
  const g = await srv.request('GET', `${CM}/held`);
  assert.equal(g.status, 200);
  assert.ok(g.json().metadata.deletionTimestamp, 'deletionTimestamp set');
  assert.equal(g.json().metadata.deletionGracePeriodSeconds, 0);
  // A second delete changes nothing and still answers with the object.
  assert.equal((await srv.request('DELETE', `${CM}/held`)).status, 200);
  const rel = await srv.request('PATCH', `${CM}/held`, { body: { metadata: { finalizers: null } }, headers: MERGE });
  assert.equal(rel.status, 200, rel.text);
  assertStatus(await srv.request('GET', `${CM}/held`), 404, 'NotFound');
});

void test('delete preconditions on uid and resourceVersion', async () => {
  const cm = (await srv.request('POST', CM, { body: configMap('pre') })).json();
  const badUid = await srv.request('DELETE', `${CM}/pre`, { body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: 'wrong' } } });
  // rest.BeforeDelete's wording: the Kind (not the resource) qualifies the name here.
  assertStatus(badUid, 409, 'Conflict', `Operation cannot be fulfilled on ConfigMap "pre": the UID in the precondition (wrong) does not match the UID in record (${cm.metadata.uid}). The object might have been deleted and then recreated`);
  const badRv = await srv.request('DELETE', `${CM}/pre`, { body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { resourceVersion: '1' } } });
  assertStatus(badRv, 409, 'Conflict', `Operation cannot be fulfilled on ConfigMap "pre": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${cm.metadata.resourceVersion}). The object might have been modified`);
  assert.equal((await srv.request('GET', `${CM}/pre`)).status, 200, 'still there');
  const ok = await srv.request('DELETE', `${CM}/pre`, { body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: cm.metadata.uid, resourceVersion: cm.metadata.resourceVersion } } });
  assert.equal(ok.status, 200, ok.text);
  assertStatus(await srv.request('GET', `${CM}/pre`), 404, 'NotFound');
});

void test('propagationPolicy is validated', async () => {
  await srv.request('POST', CM, { body: configMap('prop') });
  const bad = await srv.request('DELETE', `${CM}/prop?propagationPolicy=Sideways`);
  assertStatus(bad, 422, 'Invalid', /propagationPolicy: Unsupported value: "Sideways"/);
  const ok = await srv.request('DELETE', `${CM}/prop?propagationPolicy=Background`);
  assert.equal(ok.status, 200, ok.text);
});

void test('deletecollection with a label selector deletes only the matches', async () => {
  for (const [n, l] of [['dc1', 'x'], ['dc2', 'x'], ['dc3', 'y']] as const) {
    assert.equal((await srv.request('POST', CM, { body: configMap(n, {}, { labels: { dc: l } }) })).status, 201);
  }
  const r = await srv.request('DELETE', `${CM}?labelSelector=dc%3Dx`);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json().kind, 'ConfigMapList');
  assert.deepEqual(r.json().items.map((i: any) => i.metadata.name).sort(), ['dc1', 'dc2']);
  const left = (await srv.request('GET', `${CM}?labelSelector=dc`)).json().items.map((i: any) => i.metadata.name);
  assert.deepEqual(left, ['dc3']);
});
