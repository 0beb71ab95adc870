/**
 * Two Keelson servers on one etcd (HA control plane): a CRD created through the first is served by the second
 * (each runs the CRD controller over its own watch of CRDs), custom resources written through one are read
 * through the other, and deleting the CRD through the second removes the API from both.
 * Skips (printing why) when no etcd binary is installed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startReplicasOnEtcd, type EtcdReplicas } from '../support/etcd-replicas.ts';
import type { TestServer } from '../support/server.ts';
import { crdManifest, waitFor } from './crd-support.ts';

let replicas: EtcdReplicas | undefined;
let a: TestServer | undefined;
let b: TestServer | undefined;
let skip: string | false = false;

before(async () => {
  replicas = await startReplicasOnEtcd(2, { etcdPrefix: `/keelson-crd-${process.pid}`, authorizationMode: ['AlwaysAllow'] });
  if (!replicas) {
    skip = 'no etcd binary';
    process.stderr.write('skipping CRD HA test: no etcd binary\n');
    return;
  }
  [a, b] = replicas.servers;
});

after(async () => {
  await replicas?.stop();
});

void test('a CRD created on one server is served by the other, and goes away on both', async (t) => {
  if (skip) return t.skip(skip);
  const r = await a!.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crdManifest({ group: 'ha.example.com' }) });
  assert.equal(r.status, 201, r.text);
  const base = '/apis/ha.example.com/v1/namespaces/default/widgets';
  await waitFor(async () => (await b!.request('GET', base)).status === 200, 10_000);
  const c = await b!.request('POST', base, { body: { apiVersion: 'ha.example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { color: 'red' } } });
  assert.equal(c.status, 201, c.text);
  await waitFor(async () => (await a!.request('GET', `${base}/w`)).status === 200, 10_000);
  assert.equal((await a!.request('GET', `${base}/w`)).json().spec.color, 'red');
  assert.equal((await b!.request('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.ha.example.com')).status, 200);
  await waitFor(async () => (await a!.request('GET', base)).status === 404 && (await b!.request('GET', base)).status === 404, 15_000);
});
