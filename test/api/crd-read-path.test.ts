/**
 * Reading custom resources after their CRD's schema changed (review issue 7, item 4): as kube's decoder,
 * objects read from storage are pruned by the served version's schema (fields it no longer specifies
 * disappear from GET, LIST and WATCH) before its defaults apply.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { waitFor } from './crd-support.ts';

type J = Record<string, any>;
let srv: TestServer;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const NAME = 'tubes.readpath.example.com';
const T = '/apis/readpath.example.com/v1/namespaces/default/tubes';

function crd(props: Record<string, unknown>): J {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: NAME },
    spec: {
      group: 'readpath.example.com', scope: 'Namespaced', names: { plural: 'tubes', singular: 'tube', kind: 'Tube' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: props } } } } }],
    },
  };
}

before(async () => {
  srv = await startTestServer({ authorizationMode: ['AlwaysAllow'] });
  const r = await srv.request('POST', CRDS, { body: crd({ keep: { type: 'string' }, gone: { type: 'string' } }) });
  assert.equal(r.status, 201, r.text);
  await waitFor(async () => (await srv.request('GET', T)).status === 200);
});

after(async () => {
  await srv.stop();
});

void test('fields removed from the schema disappear from GET, LIST and WATCH; new defaults apply', async () => {
  const c = await srv.request('POST', T, { body: { apiVersion: 'readpath.example.com/v1', kind: 'Tube', metadata: { name: 't' }, spec: { keep: 'k', gone: 'g' } } });
  assert.equal(c.status, 201, c.text);
  assert.deepEqual(c.json().spec, { keep: 'k', gone: 'g' });
  const cur = (await srv.request('GET', `${CRDS}/${NAME}`)).json();
  // `gone` leaves the schema; `added` comes with a default (applied after pruning).
  const next = crd({ keep: { type: 'string' }, added: { type: 'string', default: 'd' } });
  const u = await srv.request('PUT', `${CRDS}/${NAME}`, { body: { ...next, metadata: cur.metadata } });
  assert.equal(u.status, 200, u.text);
  await waitFor(async () => (await srv.request('GET', `${T}/t`)).json().spec?.added === 'd');
  assert.deepEqual((await srv.request('GET', `${T}/t`)).json().spec, { keep: 'k', added: 'd' });
  assert.deepEqual((await srv.request('GET', T)).json().items.map((i: J) => i.spec), [{ keep: 'k', added: 'd' }]);
  const w = await srv.request('GET', `${T}?watch=1&timeoutSeconds=1`);
  assert.deepEqual(JSON.parse(w.text.split('\n')[0]!).object.spec, { keep: 'k', added: 'd' });
});
