/**
 * Custom resources served from a CRD: established without restart, every verb, watch, selectors (incl.
 * selectableFields), chunking, status and scale sub-resources, patch types (415 for strategic merge), Table
 * from printer columns, discovery, and the delete lifecycle (Terminating, instances removed, API gone).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { crdManifest, waitFor } from './crd-support.ts';

let srv: TestServer;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const W = '/apis/stable.example.com/v1/namespaces/default/widgets';

before(async () => {
  srv = await startTestServer({ authorizationMode: ['AlwaysAllow'] });
  const r = await srv.request('POST', CRDS, { body: crdManifest() });
  assert.equal(r.status, 201, r.text);
  await waitFor(async () => (await srv.request('GET', `${CRDS}/widgets.stable.example.com`)).json().status?.conditions?.some((c: any) => c.type === 'Established' && c.status === 'True'));
});

after(async () => {
  await srv.stop();
});

void test('the CRD gets accepted names, NamesAccepted and Established, and storedVersions', async () => {
  const crd = (await srv.request('GET', `${CRDS}/widgets.stable.example.com`)).json();
  assert.deepEqual(crd.status.acceptedNames, { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'], categories: ['all'] });
  const by = Object.fromEntries(crd.status.conditions.map((c: any) => [c.type, c]));
  assert.equal(by.NamesAccepted.status, 'True');
  assert.equal(by.NamesAccepted.reason, 'NoConflicts');
  assert.equal(by.Established.reason, 'InitialNamesAccepted');
  assert.deepEqual(crd.status.storedVersions, ['v1']);
  assert.equal(crd.spec.conversion.strategy, 'None');
});

void test('create, get, list, update, merge and JSON patch, delete', async () => {
  const c = await srv.request('POST', W, { body: { apiVersion: 'stable.example.com/v1', kind: 'Widget', metadata: { name: 'w1', labels: { a: 'b' } }, spec: { color: 'red', replicas: 2 } } });
  assert.equal(c.status, 201, c.text);
  const created = c.json();
  assert.equal(created.metadata.generation, 1);
  assert.equal(created.kind, 'Widget');
  const g = await srv.request('GET', `${W}/w1`);
  assert.equal(g.status, 200);
  assert.equal(g.json().spec.color, 'red');
  const l = await srv.request('GET', `${W}?labelSelector=a%3Db`);
  assert.equal(l.json().kind, 'WidgetList');
  assert.equal(l.json().items.length, 1);
  const obj = g.json();
  obj.spec.color = 'blue';
  const u = await srv.request('PUT', `${W}/w1`, { body: obj });
  assert.equal(u.status, 200, u.text);
  assert.equal(u.json().metadata.generation, 2);
  const mp = await srv.request('PATCH', `${W}/w1`, { body: { spec: { size: 3 } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
  assert.equal(mp.status, 200, mp.text);
  assert.equal(mp.json().spec.size, 3);
  const jp = await srv.request('PATCH', `${W}/w1`, { body: [{ op: 'replace', path: '/spec/color', value: 'green' }], headers: { 'Content-Type': 'application/json-patch+json' } });
  assert.equal(jp.status, 200, jp.text);
  assert.equal(jp.json().spec.color, 'green');
  const smp = await srv.request('PATCH', `${W}/w1`, { body: { spec: {} }, headers: { 'Content-Type': 'application/strategic-merge-patch+json' } });
  assert.equal(smp.status, 415);
  assert.equal(smp.json().reason, 'UnsupportedMediaType');
  const d = await srv.request('DELETE', `${W}/w1`);
  assert.equal(d.status, 200);
  assert.equal((await srv.request('GET', `${W}/w1`)).status, 404);
});

void test('server-side apply creates and updates with managedFields', async () => {
  const body = 'apiVersion: stable.example.com/v1\nkind: Widget\nmetadata:\n  name: applied\nspec:\n  color: red\n';
  const r = await srv.request('PATCH', `${W}/applied?fieldManager=test`, { body, headers: { 'Content-Type': 'application/apply-patch+yaml' } });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.json().metadata.managedFields[0].manager, 'test');
  assert.equal(r.json().metadata.managedFields[0].operation, 'Apply');
  const again = await srv.request('PATCH', `${W}/applied?fieldManager=test`, { body: body.replace('red', 'blue'), headers: { 'Content-Type': 'application/apply-patch+yaml' } });
  assert.equal(again.status, 200, again.text);
  assert.equal(again.json().spec.color, 'blue');
});

void test('status sub-resource: main writes keep status, status writes keep spec', async () => {
  const c = await srv.request('POST', W, { body: { apiVersion: 'stable.example.com/v1', kind: 'Widget', metadata: { name: 's1' }, spec: { color: 'red' }, status: { phase: 'ignored' } } });
  assert.equal(c.status, 201, c.text);
  assert.equal(c.json().status, undefined);
  const s = await srv.request('PATCH', `${W}/s1/status`, { body: { status: { phase: 'Ready', replicas: 4 }, spec: { color: 'x' } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
  assert.equal(s.status, 200, s.text);
  assert.equal(s.json().status.phase, 'Ready');
  assert.equal(s.json().spec.color, 'red');
  const m = await srv.request('PATCH', `${W}/s1`, { body: { status: { phase: 'no' } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
  assert.equal(m.json().status.phase, 'Ready');
});

void test('scale sub-resource reads and writes the configured paths', async () => {
  await srv.request('POST', W, { body: { apiVersion: 'stable.example.com/v1', kind: 'Widget', metadata: { name: 'sc' }, spec: { color: 'red', replicas: 2 } } });
  await srv.request('PATCH', `${W}/sc/status`, { body: { status: { replicas: 1, selector: 'app=x' } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
  const g = await srv.request('GET', `${W}/sc/scale`);
  assert.equal(g.status, 200, g.text);
  assert.equal(g.json().kind, 'Scale');
  assert.equal(g.json().spec.replicas, 2);
  assert.equal(g.json().status.replicas, 1);
  assert.equal(g.json().status.selector, 'app=x');
  const p = await srv.request('PATCH', `${W}/sc/scale`, { body: { spec: { replicas: 5 } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
  assert.equal(p.status, 200, p.text);
  assert.equal((await srv.request('GET', `${W}/sc`)).json().spec.replicas, 5);
});

void test('field selectors on selectableFields, chunked lists', async () => {
  for (const [n, color] of [['f1', 'red'], ['f2', 'blue'], ['f3', 'red']]) {
    await srv.request('POST', W, { body: { apiVersion: 'stable.example.com/v1', kind: 'Widget', metadata: { name: n, labels: { sel: 'yes' } }, spec: { color } } });
  }
  const l = await srv.request('GET', `${W}?fieldSelector=spec.color%3Dblue&labelSelector=sel`);
  assert.equal(l.status, 200, l.text);
  assert.deepEqual(l.json().items.map((i: any) => i.metadata.name), ['f2']);
  const bad = await srv.request('GET', `${W}?fieldSelector=spec.size%3D1`);
  assert.equal(bad.status, 400);
  const p1 = (await srv.request('GET', `${W}?limit=1`)).json();
  assert.equal(p1.items.length, 1);
  assert.ok(p1.metadata.continue);
  const p2 = (await srv.request('GET', `${W}?limit=1&continue=${encodeURIComponent(p1.metadata.continue)}`)).json();
  assert.equal(p2.items.length, 1);
  assert.notEqual(p2.items[0].metadata.name, p1.items[0].metadata.name);
});

void test('watch sees adds and modifications', async () => {
  const rv = (await srv.request('GET', W)).json().metadata.resourceVersion;
  const w = await srv.watch(`${W}?watch=1&resourceVersion=${rv}`);
  await srv.request('POST', W, { body: { apiVersion: 'stable.example.com/v1', kind: 'Widget', metadata: { name: 'wt' }, spec: { color: 'red' } } });
  const ev = await w.next(5000);
  assert.equal(ev.type, 'ADDED');
  assert.equal(ev.object.metadata.name, 'wt');
  w.close();
});

void test('Table output uses the printer columns', async () => {
  await srv.request('POST', W, { body: { apiVersion: 'stable.example.com/v1', kind: 'Widget', metadata: { name: 'tb' }, spec: { color: 'red', replicas: 3 } } });
  const r = await srv.request('GET', `${W}/tb`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
  assert.equal(r.status, 200, r.text);
  const t = r.json();
  assert.deepEqual(t.columnDefinitions.map((c: any) => [c.name, c.type, c.priority]), [['Name', 'string', 0], ['Color', 'string', 0], ['Replicas', 'integer', 0], ['Age', 'date', 0]]);
  assert.equal(t.rows[0].cells[0], 'tb');
  assert.equal(t.rows[0].cells[1], 'red');
  assert.equal(t.rows[0].cells[2], 3);
});

void test('discovery lists the group and resource', async () => {
  const g = await srv.request('GET', '/apis/stable.example.com/v1');
  assert.equal(g.status, 200, g.text);
  const res = g.json().resources.find((r: any) => r.name === 'widgets');
  assert.equal(res.kind, 'Widget');
  assert.equal(res.namespaced, true);
  assert.deepEqual(res.shortNames, ['wd']);
  assert.deepEqual(res.categories, ['all']);
  assert.ok(g.json().resources.some((r: any) => r.name === 'widgets/status'));
  assert.ok(g.json().resources.some((r: any) => r.name === 'widgets/scale'));
  const apis = (await srv.request('GET', '/apis')).json();
  assert.ok(apis.groups.some((x: any) => x.name === 'stable.example.com'));
});

void test('OpenAPI v3 and v2 carry the CRD schema; PATCH lists no strategic merge', async () => {
  const index = (await srv.request('GET', '/openapi/v3')).json();
  const entry = index.paths['apis/stable.example.com/v1'];
  assert.ok(entry, Object.keys(index.paths).join(','));
  const doc = (await srv.request('GET', `/openapi/v3/apis/stable.example.com/v1`)).json();
  const kind = doc.components.schemas['com.example.stable.v1.Widget'];
  assert.ok(kind, Object.keys(doc.components.schemas).join(','));
  assert.deepEqual(kind['x-kubernetes-group-version-kind'], [{ group: 'stable.example.com', kind: 'Widget', version: 'v1' }]);
  assert.equal(kind.properties.spec.properties.color.type, 'string');
  const patch = doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/widgets/{name}'].patch;
  assert.deepEqual(Object.keys(patch.requestBody.content), ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json']);
  const v2 = (await srv.request('GET', '/openapi/v2')).json();
  assert.equal(v2.definitions['com.example.stable.v1.Widget'].properties.spec.properties.replicas.type, 'integer');
});

void test('aggregated discovery lists the custom resource; protobuf is not offered for it', async () => {
  const agg = await srv.request('GET', '/apis', { headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' } });
  assert.equal(agg.status, 200, agg.text);
  const group = agg.json().items.find((g: any) => g.metadata.name === 'stable.example.com');
  assert.ok(group, 'group in aggregated discovery');
  const res = group.versions[0].resources.find((r: any) => r.resource === 'widgets');
  assert.equal(res.responseKind.kind, 'Widget');
  assert.equal(res.scope, 'Namespaced');
  assert.deepEqual(res.subresources.map((s: any) => s.subresource).sort(), ['scale', 'status']);
  const pb = await srv.request('GET', W, { headers: { Accept: 'application/vnd.kubernetes.protobuf' } });
  assert.equal(pb.status, 406, pb.text);
  const fallback = await srv.request('GET', W, { headers: { Accept: 'application/vnd.kubernetes.protobuf, application/json' } });
  assert.equal(fallback.status, 200);
  assert.match(String(fallback.headers['content-type']), /application\/json/);
});

void test('a deprecated version answers with its deprecation warning', async () => {
  const m = crdManifest({ group: 'old.example.com', plural: 'relics', kind: 'Relic', shortNames: [] }) as any;
  m.spec.versions[0].deprecated = true;
  m.spec.versions[0].deprecationWarning = 'old.example.com/v1 Relic is going away';
  assert.equal((await srv.request('POST', CRDS, { body: m })).status, 201);
  await waitFor(async () => (await srv.request('GET', '/apis/old.example.com/v1/relics')).status === 200);
  const r = await srv.request('GET', '/apis/old.example.com/v1/relics');
  assert.equal(r.headers['warning'], '299 - "old.example.com/v1 Relic is going away"');
});

void test('cluster-scoped custom resources live outside namespaces', async () => {
  const m = crdManifest({ group: 'cluster.example.com', plural: 'realms', kind: 'Realm', shortNames: [], scope: 'Cluster' });
  assert.equal((await srv.request('POST', CRDS, { body: m })).status, 201);
  const base = '/apis/cluster.example.com/v1/realms';
  await waitFor(async () => (await srv.request('GET', base)).status === 200);
  const c = await srv.request('POST', base, { body: { apiVersion: 'cluster.example.com/v1', kind: 'Realm', metadata: { name: 'r1' }, spec: { color: 'gold' } } });
  assert.equal(c.status, 201, c.text);
  assert.equal(c.json().metadata.namespace, undefined);
  assert.equal((await srv.request('GET', `${base}/r1`)).json().spec.color, 'gold');
  assert.equal((await srv.request('GET', '/apis/cluster.example.com/v1/namespaces/default/realms/r1')).status, 404);
  const res = (await srv.request('GET', '/apis/cluster.example.com/v1')).json().resources.find((r: any) => r.name === 'realms');
  assert.equal(res.namespaced, false);
});

void test('without a status sub-resource, status is ordinary content and its changes bump generation', async () => {
  const m = crdManifest({ group: 'nostatus.example.com', plural: 'plains', kind: 'Plain', shortNames: [] }) as any;
  delete m.spec.versions[0].subresources;
  assert.equal((await srv.request('POST', CRDS, { body: m })).status, 201);
  const base = '/apis/nostatus.example.com/v1/namespaces/default/plains';
  await waitFor(async () => (await srv.request('GET', base)).status === 200);
  const c = await srv.request('POST', base, { body: { apiVersion: 'nostatus.example.com/v1', kind: 'Plain', metadata: { name: 'p' }, spec: { color: 'red' }, status: { phase: 'set' } } });
  assert.equal(c.json().status.phase, 'set');
  const p = await srv.request('PATCH', `${base}/p`, { body: { status: { phase: 'changed' } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
  assert.equal(p.json().status.phase, 'changed');
  assert.equal(p.json().metadata.generation, 2);
  assert.equal((await srv.request('GET', `${base}/p/status`)).status, 404);
});
