/**
 * `--authorization-mode=Webhook`: a real HTTPS webhook (own CA, client certificate) answers SubjectAccessReviews
 * for a started server. Allow, deny (stops the chain), no opinion (later modes decide), selectors of list/watch,
 * v1beta1 wire form, the authorized/unauthorized caches, and a failing webhook (500 InternalError, as kube).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.ts';
import { findKubectl, kubectl } from '../support/kubectl.ts';
import { startWebhookServer, type WebhookServer, type WebhookRequest } from '../support/webhook-server.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'keelson-wh-authz-'));
let wh: WebhookServer;
let srv: TestServer;
let beta: TestServer;
const tokens = path.join(dir, 'tokens.csv');
writeFileSync(tokens, ['alice-token,alice,1,"dev,ops"', 'bob-token,bob,2', 'carol-token,carol,3', 'dave-token,dave,4', 'slow-token,slow,5', ''].join('\n'));

function decide(r: WebhookRequest): { status?: number; body?: unknown; delayMs?: number } {
  const spec = r.body.spec;
  const user: string = spec.user;
  const reply = (status: Record<string, unknown>) => ({ body: { apiVersion: r.body.apiVersion, kind: 'SubjectAccessReview', status } });
  switch (user) {
    case 'alice': return reply({ allowed: true, reason: 'alice may' });
    case 'bob': return reply({ allowed: false, denied: true, reason: 'bob is banned' });
    case 'dave': return { status: 500, body: 'boom' };
    case 'slow': return { ...reply({ allowed: true }), delayMs: 60_000 };
    default: return reply({ allowed: false, reason: 'no idea about you' });
  }
}

before(async () => {
  wh = await startWebhookServer({ requireClientCert: true, handler: decide });
  const kubeconfig = await wh.writeKubeconfig(dir);
  srv = await startTestServer({
    tokenAuthFile: tokens,
    authorizationMode: ['Webhook', 'AlwaysDeny'],
    authorizationWebhook: { configFile: kubeconfig, version: 'v1', authorizedTtlMs: 60_000, unauthorizedTtlMs: 60_000 },
  });
  beta = await startTestServer({ tokenAuthFile: tokens, authorizationMode: ['Webhook'], authorizationWebhook: { configFile: kubeconfig } });
});
after(async () => {
  await srv?.stop();
  await beta?.stop();
  await wh?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const last = (user: string): WebhookRequest => [...wh.requests].reverse().find((r) => r.body.spec.user === user)!;

void test('allowed by the webhook: the request runs; the review carries user, groups, uid and resource attributes', async () => {
  const r = await srv.request('GET', '/api/v1/namespaces/default/configmaps?labelSelector=app%3Dweb,tier+notin+(db)&fieldSelector=metadata.namespace!%3Dx', { user: { token: 'alice-token' } });
  assert.equal(r.status, 200, r.text);
  const sar = last('alice').body;
  assert.equal(sar.apiVersion, 'authorization.k8s.io/v1');
  assert.equal(sar.kind, 'SubjectAccessReview');
  assert.deepEqual(sar.spec.groups, ['dev', 'ops', 'system:authenticated']);
  assert.equal(sar.spec.uid, '1');
  assert.deepEqual(sar.spec.resourceAttributes, {
    namespace: 'default', verb: 'list', version: 'v1', resource: 'configmaps',
    fieldSelector: { requirements: [{ key: 'metadata.namespace', operator: 'NotIn', values: ['x'] }] },
    labelSelector: { requirements: [{ key: 'app', operator: 'In', values: ['web'] }, { key: 'tier', operator: 'NotIn', values: ['db'] }] },
  });
});

void test('non-resource requests carry nonResourceAttributes', async () => {
  const r = await srv.request('GET', '/version', { user: { token: 'alice-token' } });
  assert.equal(r.status, 200);
  assert.deepEqual(last('alice').body.spec.nonResourceAttributes, { path: '/version', verb: 'get' });
});

void test('denied: 403 with the webhook reason, later modes are not asked', async () => {
  const r = await srv.request('GET', '/api/v1/namespaces/default/pods/p', { user: { token: 'bob-token' } });
  assert.equal(r.status, 403);
  assert.equal(r.json().message, 'pods "p" is forbidden: User "bob" cannot get resource "pods" in API group "" in the namespace "default": bob is banned');
});

void test('no opinion: the next mode decides, and reasons are joined', async () => {
  const r = await srv.request('GET', '/api/v1/namespaces/default/secrets', { user: { token: 'carol-token' } });
  assert.equal(r.status, 403);
  assert.match(r.json().message, /cannot list resource "secrets" in API group "" in the namespace "default": no idea about you\nEverything is forbidden\.$/);
});

void test('answers are cached: the same request does not call the webhook again', async () => {
  const before = wh.requests.length;
  for (let i = 0; i < 3; i++) {
    assert.equal((await srv.request('GET', '/api/v1/namespaces/kube-system/pods', { user: { token: 'alice-token' } })).status, 200);
    assert.equal((await srv.request('GET', '/api/v1/namespaces/kube-system/pods', { user: { token: 'carol-token' } })).status, 403);
  }
  assert.equal(wh.requests.length - before, 2);
});

// kube answers 500 here; needs src/authz/union.ts to carry Decision.error through no-opinion (integrator).
void test('a failing webhook (500, retried) is an internal error when nothing else allows', { timeout: 30_000 }, async () => {
  const before = wh.requests.length;
  const r = await srv.request('GET', '/api/v1/namespaces', { user: { token: 'dave-token' }, timeoutMs: 20_000 });
  assert.equal(r.status, 500, r.text);
  assert.equal(r.json().reason, 'InternalError');
  assert.match(r.json().message, /^Internal error occurred: an error on the server \("boom"\)/);
  assert.equal(wh.requests.length - before, 5, 'kube retries 5 times');
});

void test('v1beta1 (the flag default): spec.group instead of spec.groups, v1beta1 reply accepted', async () => {
  const r = await beta.request('GET', '/api/v1/namespaces/default/configmaps', { user: { token: 'alice-token' } });
  assert.equal(r.status, 200, r.text);
  const sar = last('alice').body;
  assert.equal(sar.apiVersion, 'authorization.k8s.io/v1beta1');
  assert.deepEqual(sar.spec.group, ['dev', 'ops', 'system:authenticated']);
  assert.equal(sar.spec.groups, undefined);
});

void test('SubjectAccessReview through the API asks the webhook too', async () => {
  const r = await srv.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'bob', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'x' } } },
  });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json().status, { allowed: false, denied: true, reason: 'bob is banned' });
});

void test('SubjectAccessReview selectors reach the webhook as requirements (raw selectors parsed)', async () => {
  const r = await srv.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
    body: {
      apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
      spec: {
        user: 'alice', groups: ['dev'],
        resourceAttributes: {
          verb: 'list', resource: 'pods', namespace: 'x',
          fieldSelector: { requirements: [{ key: 'spec.nodeName', operator: 'In', values: ['n1'] }] },
          labelSelector: { rawSelector: 'app!=db,tier' },
        },
      },
    },
  });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.json().status.allowed, true);
  const ra = last('alice').body.spec.resourceAttributes;
  assert.deepEqual(ra.fieldSelector, { requirements: [{ key: 'spec.nodeName', operator: 'In', values: ['n1'] }] });
  assert.deepEqual(ra.labelSelector, { requirements: [{ key: 'app', operator: 'NotIn', values: ['db'] }, { key: 'tier', operator: 'Exists' }] });
});

void test('kubectl sees the webhook\'s answers', { skip: findKubectl() ? false : 'no kubectl' }, async () => {
  const kc = (token: string): string => {
    const file = path.join(dir, `${token}.kubeconfig`);
    writeFileSync(file, JSON.stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
      clusters: [{ name: 'k', cluster: { server: srv.url, 'certificate-authority-data': Buffer.from(srv.caPem).toString('base64') } }],
      users: [{ name: 'u', user: { token } }],
      contexts: [{ name: 'c', context: { cluster: 'k', user: 'u', namespace: 'default' } }],
    }));
    return file;
  };
  const ok = await kubectl(['get', 'configmaps', '-o', 'name'], { kubeconfig: kc('alice-token') });
  assert.equal(ok.code, 0, ok.stderr);
  const no = await kubectl(['get', 'pods'], { kubeconfig: kc('bob-token') });
  assert.notEqual(no.code, 0);
  assert.match(no.stderr, /Error from server \(Forbidden\): pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "default": bob is banned/);
  const canI = await kubectl(['auth', 'can-i', 'delete', 'pods'], { kubeconfig: kc('alice-token') });
  assert.equal(canI.stdout.trim(), 'yes', canI.stderr);
});
