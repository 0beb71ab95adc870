/**
 * Names freed by one CRD go to a CRD of the same group that was waiting for them (review issue 7, item 6):
 * as kube's naming controller, a change of accepted names re-checks the group's other CRDs.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { crdManifest, waitFor } from './crd-support.ts';

type J = Record<string, any>;
let srv: TestServer;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GROUP = 'naming.example.com';

before(async () => {
  srv = await startTestServer({ authorizationMode: ['AlwaysAllow'] });
});

after(async () => {
  await srv.stop();
});

const cond = (crd: J, type: string): J | undefined => (crd.status?.conditions ?? []).find((c: J) => c.type === type);

void test('a short name given up by one CRD is accepted for the CRD that conflicted on it', async () => {
  const a = await srv.request('POST', CRDS, { body: crdManifest({ group: GROUP, plural: 'alphas', kind: 'Alpha', shortNames: ['al', 'shared'] }) });
  assert.equal(a.status, 201, a.text);
  await waitFor(async () => cond((await srv.request('GET', `${CRDS}/alphas.${GROUP}`)).json(), 'Established')?.status === 'True');
  const b = await srv.request('POST', CRDS, { body: crdManifest({ group: GROUP, plural: 'betas', kind: 'Beta', shortNames: ['shared'] }) });
  assert.equal(b.status, 201, b.text);
  await waitFor(async () => cond((await srv.request('GET', `${CRDS}/betas.${GROUP}`)).json(), 'NamesAccepted')?.reason === 'ShortNamesConflict');
  const beta = (await srv.request('GET', `${CRDS}/betas.${GROUP}`)).json();
  assert.equal(cond(beta, 'Established')?.status, 'False');
  // Alpha gives the short name up: Beta gets it without any change of its own.
  const cur = (await srv.request('GET', `${CRDS}/alphas.${GROUP}`)).json();
  cur.spec.names.shortNames = ['al'];
  const u = await srv.request('PUT', `${CRDS}/alphas.${GROUP}`, { body: cur });
  assert.equal(u.status, 200, u.text);
  await waitFor(async () => cond((await srv.request('GET', `${CRDS}/betas.${GROUP}`)).json(), 'Established')?.status === 'True');
  const after = (await srv.request('GET', `${CRDS}/betas.${GROUP}`)).json();
  assert.deepEqual(after.status.acceptedNames.shortNames, ['shared']);
  assert.equal(cond(after, 'NamesAccepted')?.reason, 'NoConflicts');
});
