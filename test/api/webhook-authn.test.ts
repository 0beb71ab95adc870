/**
 * Webhook token authentication: a started server asks an HTTPS TokenReview webhook (own CA, client certificate)
 * about bearer tokens it does not know. Accepted tokens become users (plus system:authenticated); rejected,
 * erroring or wrong-audience tokens are 401; answers are cached for the TTL, errors are not.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.ts';
import { findKubectl, kubectl } from '../support/kubectl.ts';
import { startWebhookServer, type WebhookServer, type WebhookRequest } from '../support/webhook-server.ts';
import { tokenReviewOutcome } from '../../src/authn/webhook/index.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'keelson-wh-authn-'));
let wh: WebhookServer;
let srv: TestServer;
let v1: TestServer;

function review(r: WebhookRequest): { status?: number; body?: unknown } {
  const token: string = r.body.spec.token;
  const reply = (status: Record<string, unknown>) => ({ body: { apiVersion: r.body.apiVersion, kind: 'TokenReview', status } });
  if (token === 'good') return reply({ authenticated: true, user: { username: 'webhook-user', uid: 'u-1', groups: ['wh-group'], extra: { scopes: ['a', 'b'] } } });
  if (token === 'other-aud') return reply({ authenticated: true, audiences: ['somebody-else'], user: { username: 'x' } });
  if (token === 'explained') return reply({ authenticated: false, error: 'token expired' });
  if (token === 'broken') return { status: 400, body: 'bad' };
  return reply({ authenticated: false });
}

before(async () => {
  wh = await startWebhookServer({ requireClientCert: true, handler: review });
  const kubeconfig = await wh.writeKubeconfig(dir, { inline: true });
  srv = await startTestServer({ authorizationMode: ['AlwaysAllow'], authenticationTokenWebhook: { configFile: kubeconfig, cacheTtlMs: 60_000 } });
  v1 = await startTestServer({ authorizationMode: ['AlwaysAllow'], apiAudiences: ['https://kubernetes.default.svc'], authenticationTokenWebhook: { configFile: kubeconfig, version: 'v1' } });
});
after(async () => {
  await srv?.stop();
  await v1?.stop();
  await wh?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const whoami = (s: TestServer, token: string) => s.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
  user: { token }, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
});

void test('an accepted token is the webhook\'s user (v1beta1 TokenReview by default)', async () => {
  const r = await whoami(srv, 'good');
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json().status.userInfo, { username: 'webhook-user', uid: 'u-1', groups: ['wh-group', 'system:authenticated'], extra: { scopes: ['a', 'b'] } });
  const sent = wh.requests.find((q) => q.body.spec.token === 'good')!;
  assert.equal(sent.body.apiVersion, 'authentication.k8s.io/v1beta1');
  assert.equal(sent.body.kind, 'TokenReview');
  assert.equal(sent.clientCn, 'keelson-apiserver');
});

void test('rejected, explained and failing tokens are 401 Unauthorized', async () => {
  for (const t of ['nope', 'explained', 'broken']) {
    const r = await srv.request('GET', '/api/v1/namespaces', { user: { token: t } });
    assert.equal(r.status, 401, t);
    assert.equal(r.json().message, 'Unauthorized');
  }
});

void test('answers are cached for the TTL; errors are not cached', async () => {
  const count = (t: string) => wh.requests.filter((q) => q.body.spec.token === t).length;
  const before = { good: count('good'), nope: count('nope'), explained: count('explained') };
  for (let i = 0; i < 3; i++) {
    assert.equal((await srv.request('GET', '/api/v1/namespaces', { user: { token: 'good' } })).status, 200);
    assert.equal((await srv.request('GET', '/api/v1/namespaces', { user: { token: 'nope' } })).status, 401);
    assert.equal((await srv.request('GET', '/api/v1/namespaces', { user: { token: 'explained' } })).status, 401);
  }
  assert.equal(count('good') - before.good, 0, 'cached from the first test');
  assert.equal(count('nope') - before.nope, 0, 'the earlier rejection is cached');
  assert.equal(count('explained') - before.explained, 3, 'a reply with status.error is an error: not cached');
});

void test('v1 with API audiences: spec.audiences is sent, a reply for another audience is 401', async () => {
  const r = await whoami(v1, 'good');
  assert.equal(r.status, 201, r.text);
  const sent = [...wh.requests].reverse().find((q) => q.body.spec.token === 'good')!;
  assert.equal(sent.body.apiVersion, 'authentication.k8s.io/v1');
  assert.deepEqual(sent.body.spec.audiences, ['https://kubernetes.default.svc']);
  assert.equal((await v1.request('GET', '/api/v1/namespaces', { user: { token: 'other-aud' } })).status, 401);
});

void test('TokenReview through the API asks the webhook', async () => {
  const r = await srv.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'good' } } });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.json().status.authenticated, true);
  assert.equal(r.json().status.user.username, 'webhook-user');
});

void test('tokenReviewOutcome: malformed replies are errors', () => {
  assert.throws(() => tokenReviewOutcome('x', 'v1', []), /not a JSON object/);
  assert.throws(() => tokenReviewOutcome({ apiVersion: 'authentication.k8s.io/v1beta1', status: { authenticated: true, user: { username: 'a' } } }, 'v1', []), /apiVersion/);
  assert.throws(() => tokenReviewOutcome({ status: { authenticated: true, user: {} } }, 'v1', []), /username is required/);
  assert.deepEqual(tokenReviewOutcome({ status: { authenticated: true, user: { username: 'a' } } }, 'v1', []), { user: { username: 'a', groups: [] } });
});

void test('kubectl with a webhook-checked token', { skip: findKubectl() ? false : 'no kubectl' }, async () => {
  const kc = path.join(dir, 'user.kubeconfig');
  writeFileSync(kc, JSON.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
    clusters: [{ name: 'k', cluster: { server: srv.url, 'certificate-authority-data': Buffer.from(srv.caPem).toString('base64') } }],
    users: [{ name: 'u', user: { token: 'good' } }],
    contexts: [{ name: 'c', context: { cluster: 'k', user: 'u' } }],
  }));
  const r = await kubectl(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'], { kubeconfig: kc });
  assert.equal(r.stdout, 'webhook-user', r.stderr);
});
