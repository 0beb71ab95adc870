import { test } from 'node:test';
import assert from 'node:assert/strict';
import { h2request, type H2Credentials } from '../server/testing/h2-client.ts';
import { parse } from 'yaml';
import { startServer } from '../index.ts';

const get = (url: string, p: string, cred: H2Credentials) => h2request(url, p, cred);

void test('startServer (library defaults): memory store, random port, admin credentials, ready, stops', async () => {
  const srv = await startServer();
  try {
    assert.match(srv.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(srv.port, 0);
    assert.equal(srv.kubeconfigPath, undefined);
    const kc = parse(srv.kubeconfig);
    assert.equal(kc.clusters[0].cluster.server, srv.url);
    const cred = { ca: srv.caPem, cert: srv.adminCertPem, key: srv.adminKeyPem };
    const ready = await get(srv.url, '/readyz?verbose', cred);
    assert.equal(ready.status, 200, ready.body);
    assert.match(ready.body, /readyz check passed\n$/);
    const ns = await get(srv.url, '/api/v1/namespaces/kube-system', cred);
    assert.equal(ns.status, 200, ns.body);
    assert.equal(JSON.parse(ns.body).metadata.name, 'kube-system');
    const v = await get(srv.url, '/version', cred);
    assert.equal(JSON.parse(v.body).gitVersion, 'v1.33.0');
  } finally {
    await srv.stop();
  }
  await assert.rejects(get(srv.url, '/readyz', { ca: srv.caPem, cert: srv.adminCertPem, key: srv.adminKeyPem }));
  await srv.stop(); // idempotent
});

void test('startServer refuses bad option combinations by name', async () => {
  await assert.rejects(startServer({ storage: 'etcd' }), /--storage=etcd needs --etcd-servers/);
  await assert.rejects(startServer({ storage: 'sqlite' }), /--storage=sqlite needs --data-dir/);
  await assert.rejects(startServer({ port: 70000 }), /--secure-port 70000 must be between 0 and 65535/);
  await assert.rejects(startServer({ tlsCertFile: '/x' }), /must be given together/);
});

void test('a port in use fails the start cleanly (everything started is unwound)', async () => {
  const first = await startServer();
  try {
    await assert.rejects(startServer({ port: first.port }), /EADDRINUSE/);
  } finally {
    await first.stop();
  }
});
