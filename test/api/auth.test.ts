/**
 * Authentication and authorization as clients see them: 401 for bad credentials, anonymous requests,
 * AlwaysDeny with the system:masters bypass, and the 403 message shape kube-apiserver uses.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { assertMatchesReference, assertStatus } from './helpers.ts';

let allow: TestServer;
let deny: TestServer;
before(async () => {
  allow = await startTestServer({ authorizationMode: ['AlwaysAllow'] });
  deny = await startTestServer({ authorizationMode: ['AlwaysDeny'], anonymousAuth: true });
});
after(async () => {
  await allow?.stop();
  await deny?.stop();
});

void test('an unknown bearer token is 401 Unauthorized', async () => {
  assertMatchesReference(await allow.request('GET', '/api/v1/namespaces/default/configmaps', { user: { token: 'not-a-token' } }), '401-bad-token.json');
});

void test('with AlwaysAllow, anonymous auth is off: no credentials is 401', async () => {
  assertStatus(await allow.request('GET', '/api/v1/namespaces', { user: 'anonymous' }), 401, 'Unauthorized', 'Unauthorized');
});

void test('AlwaysDeny: anonymous gets kube\'s 403; system:masters bypasses the authorizer', async () => {
  const r = await deny.request('GET', '/api/v1/namespaces/ref/configmaps', { user: 'anonymous' });
  // The reference was recorded under RBAC (no reason); AlwaysDeny's authorizer adds its reason after a colon.
  assertMatchesReference(r, '403-anonymous.json', [['in the namespace \\"ref\\""', 'in the namespace \\"ref\\": Everything is forbidden."']]);
  const admin = await deny.request('GET', '/api/v1/namespaces/default/configmaps');
  assert.equal(admin.status, 200, admin.text);
});
