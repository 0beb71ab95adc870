/**
 * Deleting a CRD deletes its instances even when none of its versions is served any more (review issue 7,
 * item 2): kube's finalizer always deletes through the storage version, so re-creating the CRD must not bring
 * old objects back.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { crdManifest, waitFor } from './crd-support.ts';

type J = Record<string, any>;
let srv: TestServer;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GROUP = 'finalize.example.com';
const NAME = `widgets.${GROUP}`;
const WIDGETS = `/apis/${GROUP}/v1/namespaces/default/widgets`;

before(async () => {
  srv = await startTestServer({ authorizationMode: ['AlwaysAllow'] });
});

after(async () => {
  await srv.stop();
});

void test('instances of a CRD with no served version are deleted with it', async () => {
  const r = await srv.request('POST', CRDS, { body: crdManifest({ group: GROUP }) });
  assert.equal(r.status, 201, r.text);
  await waitFor(async () => (await srv.request('GET', WIDGETS)).status === 200);
  const c = await srv.request('POST', WIDGETS, { body: { apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name: 'w1' }, spec: { color: 'red' } } });
  assert.equal(c.status, 201, c.text);
  // Stop serving the only version, then delete the CRD.
  const cur = (await srv.request('GET', `${CRDS}/${NAME}`)).json();
  cur.spec.versions[0].served = false;
  const u = await srv.request('PUT', `${CRDS}/${NAME}`, { body: cur });
  assert.equal(u.status, 200, u.text);
  await waitFor(async () => (await srv.request('GET', WIDGETS)).status === 404);
  const d = await srv.request('DELETE', `${CRDS}/${NAME}`);
  assert.equal(d.status, 200, d.text);
  await waitFor(async () => (await srv.request('GET', `${CRDS}/${NAME}`)).status === 404);
  // The same CRD again: the old instance must be gone.
  const again = await srv.request('POST', CRDS, { body: crdManifest({ group: GROUP }) });
  assert.equal(again.status, 201, again.text);
  await waitFor(async () => (await srv.request('GET', WIDGETS)).status === 200);
  const list = (await srv.request('GET', WIDGETS)).json();
  assert.deepEqual(list.items.map((i: J) => i.metadata.name), []);
  // The transient deleter is not left in discovery.
  const disc = (await srv.request('GET', `/apis/${GROUP}/v1`)).json();
  assert.deepEqual(disc.resources.map((x: J) => x.name).sort(), ['widgets', 'widgets/scale', 'widgets/status']);
});
