/**
 * `--authorization-config`: validation with kube's messages; a started server whose chain is two webhooks
 * (one behind CEL match conditions, one failing closed) and ABAC, in order; and reload when the file changes
 * (a bad file keeps the previous chain).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startWebhookServer, type WebhookServer, type WebhookRequest } from '../support/webhook-server.ts';
import { parseAuthorizationConfig } from '../../src/authz/config/index.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'keelson-authz-config-'));
const configFile = path.join(dir, 'authz.yaml');
const tokens = path.join(dir, 'tokens.csv');
const policy = path.join(dir, 'abac.jsonl');
writeFileSync(tokens, ['alice,alice,1', 'bob,bob,2', 'carol,carol,3', 'dave,dave,4', 'erin,erin,5', 'slow,slow,6', ''].join('\n'));
const abac = (spec: object) => `${JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec })}\n`;
writeFileSync(policy, abac({ group: 'system:authenticated', namespace: 'open', resource: '*', apiGroup: '*' }) + abac({ group: 'system:authenticated', nonResourcePath: '/version', readonly: true }));

let first: WebhookServer;
let second: WebhookServer;
let srv: TestServer;
const logs: string[] = [];

const reply = (r: WebhookRequest, status: Record<string, unknown>) => ({ body: { apiVersion: r.body.apiVersion, kind: 'SubjectAccessReview', status } });

function webhookYaml(name: string, kubeconfig: string, extra: string[] = []): string {
  return [
    '- type: Webhook',
    `  name: ${name}`,
    '  webhook:',
    '    timeout: 2s',
    '    subjectAccessReviewVersion: v1',
    '    matchConditionSubjectAccessReviewVersion: v1',
    '    connectionInfo:',
    '      type: KubeConfigFile',
    `      kubeConfigFile: ${kubeconfig}`,
    ...extra.map((l) => `    ${l}`),
  ].join('\n');
}

let kc1: string;
let kc2: string;
function fullConfig(): string {
  return [
    'apiVersion: apiserver.config.k8s.io/v1',
    'kind: AuthorizationConfiguration',
    'authorizers:',
    webhookYaml('first.example.com', kc1, [
      'failurePolicy: NoOpinion',
      'authorizedTTL: 1ms',
      'unauthorizedTTL: 1ms',
      'matchConditions:',
      "- expression: request.user != 'erin'",
      "- expression: request.resourceAttributes.namespace != 'kube-system'",
    ]),
    webhookYaml('second', kc2, ['failurePolicy: Deny']),
    '- type: ABAC',
    '  name: abac',
    '',
  ].join('\n');
}

before(async () => {
  first = await startWebhookServer({
    handler: (r) => {
      const u = r.body.spec.user;
      if (u === 'alice' || u === 'erin') return reply(r, { allowed: true });
      if (u === 'bob') return reply(r, { allowed: false, denied: true, reason: 'bob is banned' });
      if (u === 'dave') return { status: 400, body: 'nope' };
      return reply(r, { allowed: false });
    },
  });
  second = await startWebhookServer({
    handler: (r) => (r.body.spec.user === 'slow' ? { ...reply(r, { allowed: true }), delayMs: 60_000 } : reply(r, { allowed: false, reason: 'second has no opinion' })),
  });
  kc1 = await first.writeKubeconfig(dir, { name: 'first.kubeconfig' });
  kc2 = await second.writeKubeconfig(dir, { name: 'second.kubeconfig' });
  writeFileSync(configFile, fullConfig());
  srv = await startTestServer({ tokenAuthFile: tokens, authorizationConfigFile: configFile, authorizationPolicyFile: policy, log: (l) => logs.push(l) });
});
after(async () => {
  await srv?.stop();
  await first?.stop();
  await second?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const as = (t: string) => ({ user: { token: t } });

void test('authorizers run in order: allow and deny from the first webhook end the chain', async () => {
  assert.equal((await srv.request('GET', '/api/v1/namespaces/default/pods', as('alice'))).status, 200);
  const r = await srv.request('GET', '/api/v1/namespaces/default/pods', as('bob'));
  assert.equal(r.status, 403);
  assert.match(r.json().message, /: bob is banned$/);
});

void test('no opinion falls through to the next webhook, then ABAC', async () => {
  const r = await srv.request('GET', '/api/v1/namespaces/default/pods', as('carol'));
  assert.equal(r.status, 403);
  assert.match(r.json().message, /: second has no opinion\nNo policy matched\.$/);
  assert.equal((await srv.request('GET', '/api/v1/namespaces/open/pods', as('carol'))).status, 200);
});

void test('a failing webhook with failurePolicy NoOpinion lets later authorizers decide', async () => {
  assert.equal((await srv.request('GET', '/api/v1/namespaces/open/pods', as('dave'))).status, 200);
});

void test('match conditions: a false condition skips the webhook; an evaluation error applies the failure policy', async () => {
  const before = first.requests.length;
  // erin: request.user == 'erin' → condition false → first webhook skipped → second says no → ABAC says no.
  assert.equal((await srv.request('GET', '/api/v1/namespaces/default/pods', as('erin'))).status, 403);
  // non-resource request: request.resourceAttributes missing → evaluation error → NoOpinion → ABAC allows.
  assert.equal((await srv.request('GET', '/version', as('alice'))).status, 200);
  assert.equal((await srv.request('GET', '/api/v1/namespaces/kube-system/pods', as('alice'))).status, 403);
  assert.equal(first.requests.length, before, 'the first webhook was never called');
});

void test('a timeout with failurePolicy Deny stops the chain with an internal error (kube: error and no allow → 500)', { timeout: 20_000 }, async () => {
  const r = await srv.request('GET', '/api/v1/namespaces/open/pods', as('slow'));
  assert.equal(r.status, 500, r.text);
  assert.match(r.json().message, /^Internal error occurred: Post "https:\/\/127\.0\.0\.1:\d+\/": context deadline exceeded/);
});

void test('the file is reloaded on change; a bad file keeps the previous chain', { timeout: 20_000 }, async () => {
  const waitFor = async (pred: () => Promise<boolean>): Promise<boolean> => {
    for (let i = 0; i < 150; i++) {
      if (await pred()) return true;
      await new Promise((r) => setTimeout(r, 50));
    }
    return false;
  };
  writeFileSync(configFile, 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: ABAC\n  name: abac\n');
  assert.ok(await waitFor(async () => (await srv.request('GET', '/api/v1/namespaces/default/pods', as('alice'))).status === 403), 'alice lost the webhook');
  writeFileSync(configFile, 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: Nope\n  name: x\n');
  assert.ok(await waitFor(async () => logs.some((l) => l.includes('keeping the previous configuration'))));
  assert.ok(logs.some((l) => l.includes('authorizers[0].type: Unsupported value: "Nope": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook"')));
  assert.equal((await srv.request('GET', '/api/v1/namespaces/open/pods', as('alice'))).status, 200, 'ABAC chain still in force');
  writeFileSync(configFile, 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: ABAC\n  name: abac\n- type: Node\n  name: node\n');
  assert.ok(await waitFor(async () => logs.some((l) => l.includes('authorizer type Node is not allowed if it was not enabled at initial server startup'))));
  writeFileSync(configFile, 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: AlwaysAllow\n  name: alwaysallow\n');
  assert.ok(await waitFor(async () => logs.some((l) => l.includes('missing required types: [ABAC]'))));
  writeFileSync(configFile, fullConfig());
  assert.ok(await waitFor(async () => (await srv.request('GET', '/api/v1/namespaces/default/pods', as('alice'))).status === 200), 'webhook back');
});

const doc = (authorizers: string) => `apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n${authorizers}`;

void test('validation: kube\'s messages', async () => {
  const bad = async (text: string, msg: string | RegExp) => assert.rejects(parseAuthorizationConfig(text), (e: Error) => (typeof msg === 'string' ? e.message === msg : msg.test(e.message)) || assert.fail(e.message));
  await bad('apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\n', 'authorizers: Required value: at least one authorization mode must be defined');
  await bad(doc('- type: RBAC\n  name: a\n- type: RBAC\n  name: b\n'), 'authorizers[1].type: Duplicate value: "RBAC"');
  await bad(doc('- type: RBAC\n  name: a\n- type: Node\n  name: a\n'), 'authorizers[1].name: Duplicate value: "a"');
  await bad(doc('- type: RBAC\n  name: Bad_Name\n'), /^authorizers\[0\]\.name: Invalid value: "Bad_Name": authorizer name is invalid: a lowercase RFC 1123 subdomain/);
  await bad(doc('- type: Webhook\n  name: w\n'), 'authorizers[0].webhook: Required value: required when type=Webhook');
  await bad(doc('- type: RBAC\n  name: rbac\n  webhook: {}\n'), 'authorizers[0].webhook: Invalid value: "non-null": may only be specified when type=Webhook');
  await bad(doc('- type: Webhook\n  name: w\n  webhook:\n    timeout: 31s\n    subjectAccessReviewVersion: v2\n    failurePolicy: Maybe\n    connectionInfo: {type: KubeConfigFile, kubeConfigFile: relative.yaml}\n    matchConditions: [{expression: "request.user"}]\n'),
    '[authorizers[0].webhook.timeout: Invalid value: "31s": must be > 0s and <= 30s, authorizers[0].webhook.subjectAccessReviewVersion: Unsupported value: "v2": supported values: "v1", "v1beta1", '
    + 'authorizers[0].webhook.matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified, '
    + 'authorizers[0].webhook.failurePolicy: Unsupported value: "Maybe": supported values: "NoOpinion", "Deny", '
    + 'authorizers[0].webhook.connectionInfo.kubeConfigFile: Invalid value: "relative.yaml": must be an absolute path, '
    + 'authorizers[0].webhook.matchConditions[0].expression: Invalid value: "request.user": must evaluate to bool]');
  await bad(doc('- type: Webhook\n  name: w\n  webhook:\n    subjectAccessReviewVersion: v1\n    failurePolicy: Deny\n    connectionInfo: {type: InClusterConfig}\n'),
    '[authorizers[0].webhook.timeout: Required value, authorizers[0].webhook.connectionInfo.type: Unsupported value: "InClusterConfig": supported values: "KubeConfigFile"]');
  await bad(doc('- type: RBAC\n  name: roles\n- type: Node\n  name: node\n'), 'expected name rbac for authorizer RBAC instead of roles');
  await assert.rejects(parseAuthorizationConfig(doc('- type: Node\n  name: node\n'), new Set(['RBAC', 'Node', 'ABAC'])), { message: 'missing required types: [ABAC RBAC]' });
  await bad(doc('- type: RBAC\n  name: r\n  extra: 1\n'), 'failed to load AuthorizationConfiguration from file: strict decoding error: unknown field "authorizers[0].extra"');
  await bad('apiVersion: apiserver.config.k8s.io/v2\nkind: AuthorizationConfiguration\n', /^failed to load AuthorizationConfiguration from file: no kind "AuthorizationConfiguration" is registered for version "apiserver.config.k8s.io\/v2"/);
  const ok = await parseAuthorizationConfig(doc(`- type: Webhook\n  name: w\n  webhook:\n    timeout: 3s\n    subjectAccessReviewVersion: v1beta1\n    failurePolicy: Deny\n    connectionInfo: {type: KubeConfigFile, kubeConfigFile: ${tokens}}\n- type: Node\n  name: node\n`));
  assert.equal(ok.length, 2);
  assert.equal(ok[0]!.webhook!.authorizedTtlMs, 300_000);
  assert.equal(ok[0]!.webhook!.unauthorizedTtlMs, 30_000);
  assert.equal(ok[0]!.webhook!.timeoutMs, 3000);
});
