/** Health endpoints (verbose, exclude, single checks), /version, legacy and aggregated discovery. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { reference } from './helpers.ts';

let srv: TestServer;
before(async () => { srv = await startTestServer(); });
after(async () => { await srv?.stop(); });

void test('/livez, /readyz, /healthz answer ok', async () => {
  for (const p of ['/livez', '/readyz', '/healthz']) {
    const r = await srv.request('GET', p);
    assert.equal(r.status, 200, `${p}: ${r.text}`);
    assert.equal(r.text, 'ok');
    assert.match(String(r.headers['content-type']), /^text\/plain/);
  }
});

void test('verbose lists the checks, exclude skips one and warns on unknown names', async () => {
  const r = await srv.request('GET', '/readyz?verbose');
  assert.equal(r.status, 200);
  const lines = r.text.trim().split('\n');
  assert.equal(lines[0], '[+]ping ok');
  assert.ok(lines.includes('[+]log ok'));
  assert.ok(lines.includes('[+]shutdown ok'), r.text);
  assert.equal(lines.at(-1), 'readyz check passed');
  for (const l of lines.slice(0, -1)) assert.match(l, /^\[\+\][a-z0-9/-]+ ok$/);

  const ex = await srv.request('GET', '/readyz?verbose&exclude=log&exclude=nonexistent');
  assert.equal(ex.status, 200);
  assert.ok(ex.text.includes('[+]log excluded: ok'), ex.text);
  assert.ok(ex.text.includes('warn: some health checks cannot be excluded: no matches for "nonexistent"'), ex.text);

  const live = await srv.request('GET', '/livez?verbose');
  assert.match(live.text, /livez check passed\n?$/);
});

void test('single checks and unknown checks', async () => {
  const ping = await srv.request('GET', '/livez/ping');
  assert.equal(ping.status, 200);
  assert.equal(ping.text, 'ok');
  assert.equal((await srv.request('GET', '/readyz/ping')).status, 200);
  assert.equal((await srv.request('GET', '/readyz/no-such-check')).status, 404);
});

void test('/version reports v1.33', async () => {
  const v = (await srv.request('GET', '/version')).json();
  assert.equal(v.major, '1');
  assert.equal(v.minor, '33');
  assert.match(v.gitVersion, /^v1\.33\.\d+/);
  for (const k of Object.keys(reference('version.json') ?? {})) assert.ok(k in v, `version has ${k}`);
});

void test('legacy discovery: /api, /api/v1, /apis, /apis/apps/v1', async () => {
  const api = (await srv.request('GET', '/api')).json();
  assert.equal(api.kind, 'APIVersions');
  assert.deepEqual(api.versions, ['v1']);

  const v1 = (await srv.request('GET', '/api/v1')).json();
  assert.equal(v1.kind, 'APIResourceList');
  assert.equal(v1.groupVersion, 'v1');
  const cm = v1.resources.find((r: any) => r.name === 'configmaps');
  const refCm = reference('discovery/api__v1.json').resources.find((r: any) => r.name === 'configmaps');
  assert.deepEqual({ ...cm, storageVersionHash: undefined }, { ...refCm, storageVersionHash: undefined });
  for (const sub of ['namespaces/status', 'namespaces/finalize']) assert.ok(v1.resources.some((r: any) => r.name === sub), sub);

  const apis = (await srv.request('GET', '/apis')).json();
  assert.equal(apis.kind, 'APIGroupList');
  const apps = apis.groups.find((g: any) => g.name === 'apps');
  assert.deepEqual(apps.preferredVersion, { groupVersion: 'apps/v1', version: 'v1' });
  for (const g of ['batch', 'rbac.authorization.k8s.io', 'coordination.k8s.io', 'networking.k8s.io', 'policy', 'storage.k8s.io', 'events.k8s.io', 'apiextensions.k8s.io']) {
    assert.ok(apis.groups.some((x: any) => x.name === g), g);
  }

  const appsV1 = (await srv.request('GET', '/apis/apps/v1')).json();
  const names = appsV1.resources.map((r: any) => r.name).sort();
  for (const n of ['deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'statefulsets', 'daemonsets']) assert.ok(names.includes(n), n);
  const dep = appsV1.resources.find((r: any) => r.name === 'deployments');
  assert.deepEqual(dep.shortNames, ['deploy']);
  assert.deepEqual(dep.categories, ['all']);
});

void test('aggregated discovery v2 (what kubectl 1.33 asks for)', async () => {
  const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;q=0.9';
  const r = await srv.request('GET', '/apis', { headers: { Accept: accept } });
  assert.equal(r.status, 200, r.text);
  assert.match(String(r.headers['content-type']), /as=APIGroupDiscoveryList/);
  const body = r.json();
  assert.equal(body.kind, 'APIGroupDiscoveryList');
  assert.equal(body.apiVersion, 'apidiscovery.k8s.io/v2');
  const apps = body.items.find((g: any) => g.metadata.name === 'apps');
  const dep = apps.versions[0].resources.find((x: any) => x.resource === 'deployments');
  assert.deepEqual(dep.responseKind, { group: '', version: '', kind: 'Deployment' });
  assert.equal(dep.scope, 'Namespaced');
  assert.ok(dep.subresources.some((s: any) => s.subresource === 'scale'));

  const core = (await srv.request('GET', '/api', { headers: { Accept: accept } })).json();
  assert.equal(core.kind, 'APIGroupDiscoveryList');
  assert.ok(core.items[0].versions[0].resources.some((x: any) => x.resource === 'configmaps'));
});

void test('HTTP/2 and HTTP/1.1 on the same port', async () => {
  const h2 = await srv.request('GET', '/api/v1/namespaces/default', { http2: true });
  assert.equal(h2.status, 200, h2.text);
  assert.equal(h2.json().metadata.name, 'default');
  const h1 = await srv.request('GET', '/api/v1/namespaces/default');
  assert.equal(h1.json().metadata.uid, h2.json().metadata.uid);
});
