// The admission chain on a real server: the default plugins, the flags that change the set, and refusals
// reaching clients as kube-apiserver words them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../src/index.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { parseCommandLine } from '../../src/cli/flags.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer();
});
after(async () => {
  await srv?.stop();
});

const cm = (name: string, ns = 'default') => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data: { a: 'b' } });

void test('NamespaceLifecycle by default: no content in a missing namespace, system namespaces stay', async () => {
  const r = await srv.request('POST', '/api/v1/namespaces/nowhere/configmaps', { body: cm('x', 'nowhere') });
  assert.equal(r.status, 404);
  assert.equal(r.json().message, 'namespaces "nowhere" not found');
  const dry = await srv.request('POST', '/api/v1/namespaces/nowhere/configmaps?dryRun=All', { body: cm('x', 'nowhere') });
  assert.equal(dry.status, 404, 'dry-run runs admission too');
  for (const ns of ['default', 'kube-system', 'kube-public']) {
    const d = await srv.request('DELETE', `/api/v1/namespaces/${ns}`);
    assert.equal(d.status, 403);
    assert.equal(d.json().message, `namespaces "${ns}" is forbidden: this namespace may not be deleted`);
  }
  // Updating an object of a namespace that no longer exists is a NotFound for the namespace, as kube says it.
  const up = await srv.request('PUT', '/api/v1/namespaces/nowhere/configmaps/x', { body: cm('x', 'nowhere') });
  assert.equal(up.status, 404);
});

void test('--enable-admission-plugins=AlwaysDeny refuses every write, reads pass', async () => {
  // kube's bootstrap writes go through admission too, so a fresh server under AlwaysDeny could not create its
  // system namespaces: bootstrap once without it, then restart on the same data with it (nothing left to write).
  const dataDir = mkdtempSync(join(tmpdir(), 'keelson-always-deny-'));
  const first = await startTestServer({ storage: 'sqlite', dataDir });
  await first.stop();
  const s = await startTestServer({ storage: 'sqlite', dataDir, admission: { enablePlugins: ['AlwaysDeny'] } });
  try {
    const r = await s.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('x') });
    assert.equal(r.status, 403);
    assert.deepEqual(r.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'configmaps "x" is forbidden: admission control is denying all modifications',
      reason: 'Forbidden', details: { name: 'x', kind: 'configmaps' }, code: 403,
    });
    assert.equal((await s.request('GET', '/api/v1/namespaces/default/configmaps')).status, 200);
    const del = await s.request('DELETE', '/api/v1/namespaces/kube-public/configmaps/kube-root-ca.crt');
    assert.ok([403, 404].includes(del.status));
  } finally {
    await s.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

void test('--disable-admission-plugins=NamespaceLifecycle: objects may be created in namespaces that do not exist (as in kube)', async () => {
  const s = await startTestServer({ admission: { disablePlugins: ['NamespaceLifecycle'] } });
  try {
    const r = await s.request('POST', '/api/v1/namespaces/ghost/configmaps', { body: cm('x', 'ghost') });
    assert.equal(r.status, 201);
  } finally {
    await s.stop();
  }
});

void test('flags: kube\'s validation messages; the configuration file is read at start', async () => {
  assert.throws(() => parseCommandLine(['--admission-control=NamespaceLifecycle', '--enable-admission-plugins=AlwaysDeny']),
    { message: 'admission-control and enable-admission-plugins/disable-admission-plugins flags are mutually exclusive' });
  assert.throws(() => parseCommandLine(['--admission-control=Bogus']), { message: 'admission-control plugin "Bogus" is unknown' });
  const c = parseCommandLine(['--enable-admission-plugins=AlwaysPullImages,NodeRestriction', '--disable-admission-plugins=PodSecurity']);
  assert.deepEqual(c.options.admission?.enablePlugins, ['AlwaysPullImages', 'NodeRestriction']);
  assert.deepEqual(c.options.admission?.disablePlugins, ['PodSecurity']);
  await assert.rejects(startServer({ storage: 'memory', admission: { enablePlugins: ['Bogus'] } }), { message: 'enable-admission-plugins plugin "Bogus" is unknown' });
  await assert.rejects(startServer({ storage: 'memory', admission: { enablePlugins: ['ImagePolicyWebhook'] } }), /ImagePolicyWebhook is not supported by Keelson/);
  const dir = mkdtempSync(join(tmpdir(), 'keelson-admission-'));
  writeFileSync(join(dir, 'bad.yaml'), 'apiVersion: v1\nkind: Pod\n');
  await assert.rejects(startServer({ storage: 'memory', admission: { configFile: join(dir, 'bad.yaml') } }), /expected kind AdmissionConfiguration/);
});
