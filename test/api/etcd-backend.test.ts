/**
 * The same API machinery on the etcd backend (`--etcd-servers`): CRUD, optimistic concurrency, chunked lists,
 * watch from a resourceVersion, the namespace controllers, and readiness while etcd is down.
 * Skips (printing why) when no etcd binary is installed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEtcd, type EtcdProcess } from '../support/etcd.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';
import { assertStatus, configMap, namespace } from './helpers.ts';

let etcd: EtcdProcess | undefined;
let srv: TestServer | undefined;
let skipReason = '';

before(async () => {
  etcd = await startEtcd();
  if (!etcd) {
    skipReason = 'no etcd binary';
    process.stderr.write('skipping etcd backend API tests: no etcd binary\n');
    return;
  }
  srv = await startTestServer({ storage: 'etcd', etcdServers: [etcd.endpoint], etcdPrefix: `/keelson-${process.pid}` });
});
after(async () => {
  await srv?.stop();
  await etcd?.stop();
});

const CM = '/api/v1/namespaces/etcd-ns/configmaps';

void test('etcd: CRUD, conflicts, chunking, watch and controllers', async (t) => {
  if (!srv) return t.skip(skipReason);
  assert.equal((await srv.request('POST', '/api/v1/namespaces', { body: namespace('etcd-ns') })).status, 201);
  await eventually('default SA', async () => (await srv!.request('GET', '/api/v1/namespaces/etcd-ns/serviceaccounts/default')).status === 200);

  const rv0 = (await srv.request('GET', CM)).json().metadata.resourceVersion;
  const w = await srv.watch(`${CM}?watch=1&resourceVersion=${rv0}&labelSelector=e`);
  try {
    const created = [];
    for (let i = 0; i < 5; i++) {
      const r = await srv.request('POST', CM, { body: configMap(`e-${i}`, { i: String(i) }, { labels: { e: 'y' } }) });
      assert.equal(r.status, 201, r.text);
      created.push(r.json());
    }
    const stale = await srv.request('PUT', `${CM}/e-0`, { body: { ...created[0], data: { i: 'x' } } });
    assert.equal(stale.status, 200, stale.text);
    assertStatus(await srv.request('PUT', `${CM}/e-0`, { body: { ...created[0], data: { i: 'y' } } }), 409, 'Conflict');

    const p1 = (await srv.request('GET', `${CM}?limit=2&labelSelector=e`)).json();
    assert.deepEqual(p1.items.map((i: any) => i.metadata.name), ['e-0', 'e-1']);
    const p2 = (await srv.request('GET', `${CM}?limit=10&labelSelector=e&continue=${encodeURIComponent(p1.metadata.continue)}`)).json();
    assert.deepEqual(p2.items.map((i: any) => i.metadata.name), ['e-2', 'e-3', 'e-4']);

    for (let i = 0; i < 5; i++) assert.equal((await w.next()).type, 'ADDED');
    const m = await w.next();
    assert.equal(m.type, 'MODIFIED');
    assert.deepEqual(m.object.data, { i: 'x' });
  } finally {
    w.close();
  }

  assert.equal((await srv.request('DELETE', '/api/v1/namespaces/etcd-ns')).status, 200);
  await eventually('namespace removed', async () => (await srv!.request('GET', '/api/v1/namespaces/etcd-ns')).status === 404, 30_000);
});

void test('etcd: /readyz fails while etcd is down and recovers', async (t) => {
  if (!srv || !etcd) return t.skip(skipReason);
  await etcd.kill();
  await eventually('not ready', async () => (await srv!.request('GET', '/readyz', { timeoutMs: 5000 })).status !== 200, 30_000);
  await etcd.restart();
  await eventually('ready again', async () => (await srv!.request('GET', '/readyz', { timeoutMs: 5000 })).status === 200, 30_000);
  const r = await srv.request('POST', '/api/v1/namespaces/default/configmaps', { body: configMap('after-outage') });
  assert.equal(r.status, 201, r.text);
});
