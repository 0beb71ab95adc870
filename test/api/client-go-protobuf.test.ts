/**
 * A client-go program's cleanup, emulated request for request (no Go toolchain here): typed clients
 * configured for protobuf (ContentType `application/vnd.kubernetes.protobuf`, so Accept
 * `application/vnd.kubernetes.protobuf` then any type) over HTTP/2 with client-go's default User-Agent form, which
 * send objects and DeleteOptions as protobuf enveloped with the client's group version (`v1`, `apps/v1`,
 * `apiextensions.k8s.io/v1`); the dynamic client for the custom resource, which speaks JSON. It creates a
 * namespace, a CRD and objects, then deletes them all — collection, objects, the custom resource, the CRD
 * and the namespace — and waits until they are gone.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobuf, encodeProtobuf } from '../../src/api/protobuf/codec.ts';
import { eventually, startTestServer, type TestResponse, type TestServer } from '../support/server.ts';
import { crdManifest } from './crd-support.ts';
import { configMap, deployment } from './helpers.ts';

const PB = 'application/vnd.kubernetes.protobuf';
const USER_AGENT = 'cleanup/v0.0.0 (linux/amd64) kubernetes/$Format';
const TYPED = { Accept: `${PB}, */*`, 'Content-Type': PB, 'User-Agent': USER_AGENT };
const DYNAMIC = { Accept: 'application/json', 'Content-Type': 'application/json', 'User-Agent': USER_AGENT };
const NS = 'cleanup';
const CRD = 'widgets.stable.example.com';

let srv: TestServer;
before(async () => { srv = await startTestServer(); });
after(async () => { await srv?.stop(); });

type Obj = { apiVersion: string; kind: string; [k: string]: unknown };

/** A typed client call: protobuf body (when any), protobuf or JSON answer decoded. */
async function typed(method: string, path: string, body?: Obj): Promise<{ r: TestResponse; obj: any }> {
  const r = await srv.request(method, path, { http2: true, headers: TYPED, ...(body ? { body: encodeProtobuf(body) } : {}) });
  const type = String(r.headers['content-type']);
  const obj = type === PB ? decodeProtobuf(r.raw) : type.startsWith('application/json') ? r.json() : undefined;
  return { r, obj };
}
/** `metav1.DeleteOptions` as a typed client of this group version sends it. */
function deleteOptions(groupVersion: string, o: Record<string, unknown> = {}): Obj {
  return { apiVersion: groupVersion, kind: 'DeleteOptions', ...o };
}

void test('a client-go program creates a namespace, a CRD and objects in protobuf, then deletes them all with protobuf DeleteOptions', async () => {
  // Set-up, the way typed clients send it.
  const ns = await typed('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  assert.equal(ns.r.status, 201, ns.r.text);
  assert.equal(ns.obj.kind, 'Namespace');
  const crd = await typed('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crdManifest() as Obj);
  assert.equal(crd.r.status, 201, crd.r.text);
  assert.equal(String(crd.r.headers['content-type']), PB);
  await eventually('CRD established', async () => {
    const got = await typed('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${CRD}`);
    return (got.obj.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True');
  });
  for (const name of ['a', 'b', 'c']) {
    const cm = await typed('POST', `/api/v1/namespaces/${NS}/configmaps`, { ...configMap(name, { k: name }, { labels: { batch: 'one' } }) });
    assert.equal(cm.r.status, 201, cm.r.text);
  }
  const secret = await typed('POST', `/api/v1/namespaces/${NS}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { p: 'q' } });
  assert.equal(secret.r.status, 201, secret.r.text);
  const dep = await typed('POST', `/apis/apps/v1/namespaces/${NS}/deployments`, deployment('web'));
  assert.equal(dep.r.status, 201, dep.r.text);
  for (const name of ['w1', 'w2']) {
    const cr = await srv.request('POST', `/apis/stable.example.com/v1/namespaces/${NS}/widgets`, {
      http2: true, headers: DYNAMIC, body: { apiVersion: 'stable.example.com/v1', kind: 'Widget', metadata: { name }, spec: { color: 'red' } },
    });
    assert.equal(cr.status, 201, cr.text);
  }

  // DeleteCollection (typed): DeleteOptions body, list options in the query.
  const coll = await typed('DELETE', `/api/v1/namespaces/${NS}/configmaps?labelSelector=batch%3Done`, deleteOptions('v1'));
  assert.equal(coll.r.status, 200, coll.r.text);
  assert.deepEqual(coll.obj.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort(), ['a', 'b', 'c']);

  // Delete of single objects (typed): core and a named group.
  const s = await typed('DELETE', `/api/v1/namespaces/${NS}/secrets/s`, deleteOptions('v1', { gracePeriodSeconds: 0 }));
  assert.equal(s.r.status, 200, s.r.text);
  assert.equal(s.obj.kind, 'Status');
  assert.equal(s.obj.status, 'Success');
  const d = await typed('DELETE', `/apis/apps/v1/namespaces/${NS}/deployments/web`, deleteOptions('apps/v1', { propagationPolicy: 'Background' }));
  assert.equal(d.r.status, 200, d.r.text);

  // The custom resource (dynamic client: JSON, DeleteOptions encoded as v1).
  const w = await srv.request('DELETE', `/apis/stable.example.com/v1/namespaces/${NS}/widgets/w1`, {
    http2: true, headers: DYNAMIC, body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' },
  });
  assert.equal(w.status, 200, w.text);
  // A typed client generated for the CRD's group, configured for protobuf, sends its DeleteOptions as protobuf in
  // that group version (the custom resource itself has no protobuf form: the answer is JSON).
  const w2 = await typed('DELETE', `/apis/stable.example.com/v1/namespaces/${NS}/widgets/w2`, deleteOptions('stable.example.com/v1', { dryRun: ['All'] }));
  assert.equal(w2.r.status, 200, w2.r.text);
  assert.match(String(w2.r.headers['content-type']), /^application\/json/);
  assert.equal((await srv.request('GET', `/apis/stable.example.com/v1/namespaces/${NS}/widgets/w2`)).status, 200, 'dry run kept it');

  // The CRD (apiextensions typed client) and the namespace (core typed client), both finalized asynchronously.
  const crdDel = await typed('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${CRD}`, deleteOptions('apiextensions.k8s.io/v1', { propagationPolicy: 'Background' }));
  assert.equal(crdDel.r.status, 200, crdDel.r.text);
  assert.equal(String(crdDel.r.headers['content-type']), PB);
  const nsDel = await typed('DELETE', `/api/v1/namespaces/${NS}`, deleteOptions('v1', { propagationPolicy: 'Background' }));
  assert.equal(nsDel.r.status, 200, nsDel.r.text);
  assert.equal(nsDel.obj.kind, 'Namespace');
  assert.equal(nsDel.obj.status.phase, 'Terminating');

  // Everything goes away.
  for (const path of [
    `/api/v1/namespaces/${NS}/secrets/s`,
    `/apis/apps/v1/namespaces/${NS}/deployments/web`,
    `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${CRD}`,
    `/api/v1/namespaces/${NS}`,
  ]) {
    await eventually(`${path} gone`, async () => {
      const got = await typed('GET', path);
      if (got.r.status !== 404) return false;
      assert.equal(String(got.r.headers['content-type']), PB);
      assert.equal(got.obj.reason, 'NotFound');
      return true;
    }, 30_000);
  }
  const list = await typed('GET', `/api/v1/namespaces/${NS}/configmaps`);
  assert.equal(list.obj.items?.length ?? 0, 0);
});
