import { test } from 'node:test';
import assert from 'node:assert/strict';
import { h2request, type H2Credentials } from '../server/testing/h2-client.ts';
import { startServer } from '../index.ts';
import { startEtcd } from '../../test/support/etcd.ts';

const get = (url: string, p: string, cred: H2Credentials) => h2request(url, p, cred);

void test('startServer on etcd: ready while etcd answers, not ready when it is gone', { timeout: 120_000 }, async (t) => {
  const etcd = await startEtcd();
  if (!etcd) {
    t.skip('no etcd binary on this machine');
    return;
  }
  let stopped = false;
  try {
    const srv = await startServer({ etcdServers: [etcd.endpoint], etcdPrefix: `/keelson-${process.pid}-${Date.now()}`, storeHealthTimeoutMs: 1000 });
    const cred = { ca: srv.caPem, cert: srv.adminCertPem, key: srv.adminKeyPem };
    try {
      const ok = await get(srv.url, '/readyz?verbose', cred);
      assert.equal(ok.status, 200, ok.body);
      assert.equal((await get(srv.url, '/livez/etcd', cred)).body, 'ok');
      await etcd.stop();
      stopped = true;
      const down = await get(srv.url, '/readyz?verbose', cred);
      assert.equal(down.status, 500);
      assert.match(down.body, /\[-\]informer-sync failed: reason withheld/);
      assert.equal((await get(srv.url, '/livez/etcd', cred)).status, 500);
    } finally {
      await srv.stop();
    }
  } finally {
    if (!stopped) await etcd.stop();
  }
});
