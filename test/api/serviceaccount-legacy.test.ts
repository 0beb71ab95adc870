/**
 * Secret-based (legacy) service account tokens: the tokens controller fills `kubernetes.io/service-account-token`
 * Secrets, the token authenticates (and marks the Secret last-used), and it stops working when the Secret's
 * copy changes, the Secret goes, or the account goes (which also deletes the Secret).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';
import { assertStatus } from './helpers.ts';

const NS = 'legacy-tokens';
let srv: TestServer;

before(async () => {
  srv = await startTestServer({ authorizationMode: ['AlwaysAllow'] });
  assert.equal((await srv.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } } })).status, 201);
});
after(async () => {
  await srv?.stop();
});

async function tokenSecret(name: string, sa: string): Promise<any> {
  const r = await srv.request('POST', `/api/v1/namespaces/${NS}/secrets`, {
    body: { apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/service-account-token', metadata: { name, annotations: { 'kubernetes.io/service-account.name': sa } } },
  });
  assert.equal(r.status, 201, r.text);
  return r.json();
}

async function filled(name: string): Promise<any> {
  return eventually(`secret ${name} to get a token`, async () => {
    const r = await srv.request('GET', `/api/v1/namespaces/${NS}/secrets/${name}`);
    const s = r.json();
    return s.data?.token ? s : undefined;
  });
}

const whoami = (token: string) => srv.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
  user: { token }, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
});

void test('the tokens controller fills a token secret with a legacy token, ca.crt, namespace and the uid annotation', async () => {
  const sa = (await srv.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder' } } })).json();
  await tokenSecret('builder-token', 'builder');
  const s = await filled('builder-token');
  assert.equal(Buffer.from(s.data.namespace, 'base64').toString(), NS);
  assert.equal(Buffer.from(s.data['ca.crt'], 'base64').toString(), srv.caPem);
  assert.equal(s.metadata.annotations['kubernetes.io/service-account.uid'], sa.metadata.uid);
  const token = Buffer.from(s.data.token, 'base64').toString();
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
  assert.deepEqual(claims, {
    iss: 'kubernetes/serviceaccount',
    'kubernetes.io/serviceaccount/namespace': NS,
    'kubernetes.io/serviceaccount/secret.name': 'builder-token',
    'kubernetes.io/serviceaccount/service-account.name': 'builder',
    'kubernetes.io/serviceaccount/service-account.uid': sa.metadata.uid,
    sub: `system:serviceaccount:${NS}:builder`,
  });

  const r = await whoami(token);
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json().status.userInfo, {
    username: `system:serviceaccount:${NS}:builder`, uid: sa.metadata.uid,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${NS}`, 'system:authenticated'],
  });
  const today = new Date().toISOString().slice(0, 10);
  await eventually('the last-used label', async () => {
    const cur = (await srv.request('GET', `/api/v1/namespaces/${NS}/secrets/builder-token`)).json();
    return cur.metadata.labels?.['kubernetes.io/legacy-token-last-used'] === today ? true : undefined;
  });
});

void test('a legacy token stops working when the secret holds another value or is deleted', async () => {
  await srv.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'rotated' } } });
  await tokenSecret('rotated-token', 'rotated');
  const s = await filled('rotated-token');
  const token = Buffer.from(s.data.token, 'base64').toString();
  assert.equal((await whoami(token)).status, 201);
  const patched = await srv.request('PATCH', `/api/v1/namespaces/${NS}/secrets/rotated-token`, {
    headers: { 'Content-Type': 'application/merge-patch+json' }, body: { data: { token: Buffer.from('something-else').toString('base64') } },
  });
  assert.equal(patched.status, 200, patched.text);
  assertStatus(await whoami(token), 401, 'Unauthorized');
  assert.equal((await srv.request('DELETE', `/api/v1/namespaces/${NS}/secrets/rotated-token`)).status, 200);
  assertStatus(await whoami(token), 401, 'Unauthorized');
});

void test('deleting the account deletes its token secrets; a token secret for a missing account is deleted', async () => {
  await srv.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'doomed' } } });
  await tokenSecret('doomed-token', 'doomed');
  const token = Buffer.from((await filled('doomed-token')).data.token, 'base64').toString();
  assert.equal((await srv.request('DELETE', `/api/v1/namespaces/${NS}/serviceaccounts/doomed`)).status, 200);
  await eventually('the token secret to be deleted', async () => ((await srv.request('GET', `/api/v1/namespaces/${NS}/secrets/doomed-token`)).status === 404 ? true : undefined));
  assertStatus(await whoami(token), 401, 'Unauthorized');

  await tokenSecret('orphan-token', 'never-existed');
  await eventually('the orphan token secret to be deleted', async () => ((await srv.request('GET', `/api/v1/namespaces/${NS}/secrets/orphan-token`)).status === 404 ? true : undefined));
});

void test('a deleted token secret is dropped from its account\'s secrets list', async () => {
  const created = await srv.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, {
    body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'listed' }, secrets: [{ name: 'listed-token' }, { name: 'other' }] },
  });
  assert.equal(created.status, 201, created.text);
  await tokenSecret('listed-token', 'listed');
  await filled('listed-token');
  assert.equal((await srv.request('DELETE', `/api/v1/namespaces/${NS}/secrets/listed-token`)).status, 200);
  await eventually('the reference to go', async () => {
    const sa = (await srv.request('GET', `/api/v1/namespaces/${NS}/serviceaccounts/listed`)).json();
    return sa.secrets?.length === 1 ? sa.secrets : undefined;
  }).then((refs) => assert.deepEqual(refs, [{ name: 'other' }]));
});
