/**
 * `--authorization-mode=ABAC`: a policy file (v1beta1 lines, a legacy unversioned line, comments) decides for a
 * started server; read-only policies refuse writes; non-resource paths with a trailing `*`; `kubectl auth
 * can-i` and SelfSubjectRulesReview list the matching policies as kube does.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.ts';
import { findKubectl, kubectl } from '../support/kubectl.ts';
import { parsePolicies } from '../../src/authz/abac/index.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'keelson-abac-'));
const policyFile = path.join(dir, 'policy.jsonl');
const v1 = (spec: Record<string, unknown>) => JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });
writeFileSync(policyFile, [
  '# alice may do anything in namespace "projectcaribou"',
  v1({ user: 'alice', namespace: 'projectcaribou', resource: '*', apiGroup: '*' }),
  '',
  v1({ user: 'bob', namespace: 'projectcaribou', resource: 'pods', apiGroup: '', readonly: true }),
  v1({ user: 'bob', namespace: '*', resource: '*', apiGroup: 'authorization.k8s.io' }),
  v1({ user: 'bob', readonly: true, nonResourcePath: '/api*' }),
  v1({ group: 'system:authenticated', readonly: true, nonResourcePath: '/version' }),
  v1({ user: '*', readonly: true, nonResourcePath: '/apis/*' }),
  JSON.stringify({ user: 'legacy' }),
  '',
].join('\n'));
const tokens = path.join(dir, 'tokens.csv');
writeFileSync(tokens, 'alice-t,alice,1\nbob-t,bob,2\ncarol-t,carol,3\nlegacy-t,legacy,4\n');

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ tokenAuthFile: tokens, authorizationMode: ['ABAC'], authorizationPolicyFile: policyFile });
  const ns = await srv.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'projectcaribou' } } });
  assert.equal(ns.status, 201, ns.text);
});
after(async () => {
  await srv?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const as = (token: string) => ({ user: { token } });

void test('a full policy allows every verb in its namespace and nothing elsewhere', async () => {
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
  assert.equal((await srv.request('POST', '/api/v1/namespaces/projectcaribou/configmaps', { ...as('alice-t'), body: cm })).status, 201);
  const r = await srv.request('GET', '/api/v1/namespaces/default/configmaps', as('alice-t'));
  assert.equal(r.status, 403);
  assert.equal(r.json().message, 'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default": No policy matched.');
});

void test('readonly policies allow get/list/watch only, for their resource and group', async () => {
  assert.equal((await srv.request('GET', '/api/v1/namespaces/projectcaribou/pods', as('bob-t'))).status, 200);
  assert.equal((await srv.request('GET', '/api/v1/namespaces/projectcaribou/pods?watch=1&timeoutSeconds=1', as('bob-t'))).status, 200);
  assert.equal((await srv.request('DELETE', '/api/v1/namespaces/projectcaribou/pods/x', as('bob-t'))).status, 403);
  assert.equal((await srv.request('GET', '/api/v1/namespaces/projectcaribou/secrets', as('bob-t'))).status, 403);
  assert.equal((await srv.request('GET', '/apis/apps/v1/namespaces/projectcaribou/deployments', as('alice-t'))).status, 200);
});

void test('non-resource paths: exact and trailing-* prefix; user "*" means any authenticated user', async () => {
  assert.equal((await srv.request('GET', '/version', as('carol-t'))).status, 200);
  assert.equal((await srv.request('GET', '/apis/apps/v1', as('carol-t'))).status, 200);
  assert.equal((await srv.request('GET', '/api/v1', as('carol-t'))).status, 403);
  assert.equal((await srv.request('GET', '/healthz', as('carol-t'))).status, 403);
});

void test('a legacy unversioned line with only a user allows everything for that user', async () => {
  assert.equal((await srv.request('GET', '/api/v1/namespaces/kube-system/secrets', as('legacy-t'))).status, 200);
  assert.equal((await srv.request('GET', '/metrics', as('legacy-t'))).status, 200);
});

void test('SelfSubjectRulesReview lists the policies matching the subject and namespace', async () => {
  const r = await srv.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
    ...as('bob-t'), body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'projectcaribou' } },
  });
  assert.equal(r.status, 201, r.text);
  const st = r.json().status;
  assert.deepEqual(st.resourceRules, [
    { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] },
    { verbs: ['*'], apiGroups: ['authorization.k8s.io'], resources: ['*'] },
  ]);
  // kube's RulesFor checks the namespace of every policy: non-resource policies (no namespace) are not listed.
  assert.deepEqual(st.nonResourceRules, []);
  assert.equal(st.incomplete, false);
});

void test('kubectl auth can-i follows the policy', { skip: findKubectl() ? false : 'no kubectl' }, async () => {
  const kc = path.join(dir, 'bob.kubeconfig');
  writeFileSync(kc, JSON.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
    clusters: [{ name: 'k', cluster: { server: srv.url, 'certificate-authority-data': Buffer.from(srv.caPem).toString('base64') } }],
    users: [{ name: 'bob', user: { token: 'bob-t' } }],
    contexts: [{ name: 'c', context: { cluster: 'k', user: 'bob', namespace: 'projectcaribou' } }],
  }));
  const yes = await kubectl(['auth', 'can-i', 'list', 'pods'], { kubeconfig: kc });
  assert.equal(yes.stdout.trim(), 'yes', yes.stderr);
  const no = await kubectl(['auth', 'can-i', 'delete', 'pods'], { kubeconfig: kc });
  assert.equal(no.stdout.trim(), 'no - No policy matched.');
});

void test('parsePolicies: errors name the file and line; unknown versions are refused', () => {
  assert.throws(() => parsePolicies('{"user":"a"}\n{bad', 'p.jsonl'), /^PolicyLoadError: error reading policy file p.jsonl, line 2: \{bad: /);
  assert.throws(() => parsePolicies('{"apiVersion":"abac.authorization.kubernetes.io/v9","kind":"Policy","spec":{}}', 'p'), /no kind "Policy" is registered for version "abac.authorization.kubernetes.io\/v9"/);
  const { policies, unversionedLines } = parsePolicies('{"namespace":"ns"}\n{"user":"*","group":"g"}', 'p');
  assert.equal(unversionedLines, 2);
  assert.deepEqual(policies[0], { user: '', group: 'system:authenticated', readonly: false, apiGroup: '*', namespace: 'ns', resource: '*', nonResourcePath: '' });
  assert.equal(policies[1]!.group, 'system:authenticated');
});
