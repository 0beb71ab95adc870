/**
 * RBAC authorization through a real server (`authorizationMode: ['RBAC']`): static-token users act after
 * the admin (system:masters) writes roles and bindings; 403 messages, allow reasons in access reviews, rule
 * listing, and `kubectl auth can-i` as such a user.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.ts';
import { findKubectl, kubectl, kubectlMissingReason } from '../support/kubectl.ts';
import { assertStatus } from './helpers.ts';
import { RBAC, as, clusterRole, clusterRoleBinding, eventually, ns, role, roleBinding, tokenUsers, userKubeconfig } from './rbac-helpers.ts';

let srv: TestServer;
let dir = '';
const AUTHZ = '/apis/authorization.k8s.io/v1';

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-rbac-'));
  srv = await startTestServer({ tokenAuthFile: tokenUsers(dir), authorizationMode: ['RBAC'] });
  for (const n of ['r1', 'r2']) assert.equal((await srv.request('POST', '/api/v1/namespaces', { body: ns(n) })).status, 201);
});
after(async () => {
  await srv?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const post = async (p: string, body: unknown) => {
  const r = await srv.request('POST', p, { body });
  assert.equal(r.status, 201, r.text);
  return r.json();
};

const ssar = (user: string, attrs: object) =>
  srv.request('POST', `${AUTHZ}/selfsubjectaccessreviews`, { user: as(user), body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: attrs } } });

void test('no binding: 403 with kube\'s message and no reason', async () => {
  const r = await srv.request('GET', '/api/v1/namespaces/r1/configmaps', { user: as('alice') });
  assertStatus(r, 403, 'Forbidden', 'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "r1"');
  // system:masters bypasses RBAC.
  assert.equal((await srv.request('GET', '/api/v1/namespaces/r1/configmaps')).status, 200);
});

void test('a RoleBinding to a Role grants in its namespace only; the allow reason names the binding', async () => {
  await post(`${RBAC}/namespaces/r1/roles`, role('cm-reader', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }]));
  await post(`${RBAC}/namespaces/r1/rolebindings`, roleBinding('alice-cm', { kind: 'Role', name: 'cm-reader' }, [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }]));
  await eventually(async () => assert.equal((await srv.request('GET', '/api/v1/namespaces/r1/configmaps', { user: as('alice') })).status, 200));
  assert.equal((await srv.request('GET', '/api/v1/namespaces/r2/configmaps', { user: as('alice') })).status, 403);
  assert.equal((await srv.request('POST', '/api/v1/namespaces/r1/configmaps', { user: as('alice'), body: { metadata: { name: 'x' } } })).status, 403);
  const review = (await ssar('alice', { namespace: 'r1', verb: 'list', resource: 'configmaps' })).json();
  assert.deepEqual(review.status, { allowed: true, reason: 'RBAC: allowed by RoleBinding "alice-cm/r1" of Role "cm-reader" to User "alice"' });
});

void test('ClusterRoleBinding by group grants everywhere; resourceNames restrict get but never list', async () => {
  await post(`${RBAC}/clusterroles`, clusterRole('one-secret', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'], resourceNames: ['s1'] }]));
  await post(`${RBAC}/clusterrolebindings`, clusterRoleBinding('devs-one-secret', { kind: 'ClusterRole', name: 'one-secret' }, [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' }]));
  await post('/api/v1/namespaces/r2/secrets', { metadata: { name: 's1' } });
  await eventually(async () => assert.equal((await srv.request('GET', '/api/v1/namespaces/r2/secrets/s1', { user: as('alice') })).status, 200));
  assert.equal((await srv.request('GET', '/api/v1/namespaces/r2/secrets/s2', { user: as('alice') })).status, 403);
  assert.equal((await srv.request('GET', '/api/v1/namespaces/r2/secrets', { user: as('alice') })).status, 403);
  // bob is not in the group.
  assert.equal((await srv.request('GET', '/api/v1/namespaces/r2/secrets/s1', { user: as('bob') })).status, 403);
});

void test('a binding to a missing role: 403 carries the RBAC resolution error', async () => {
  await post(`${RBAC}/namespaces/r2/rolebindings`, roleBinding('ghost', { kind: 'Role', name: 'ghost' }, [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'dave' }]));
  await eventually(async () => {
    const r = await srv.request('GET', '/api/v1/namespaces/r2/pods', { user: as('dave') });
    assertStatus(r, 403, 'Forbidden', 'pods is forbidden: User "dave" cannot list resource "pods" in API group "" in the namespace "r2": RBAC: role.rbac.authorization.k8s.io "ghost" not found');
  });
  const rules = await srv.request('POST', `${AUTHZ}/selfsubjectrulesreviews`, { user: as('dave'), body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'r2' } } });
  assert.equal(rules.json().status.evaluationError, 'role.rbac.authorization.k8s.io "ghost" not found');
});

void test('service accounts: a RoleBinding subject without namespace means the binding\'s', async () => {
  await post(`${RBAC}/namespaces/r1/rolebindings`, roleBinding('robot', { kind: 'Role', name: 'cm-reader' }, [{ kind: 'ServiceAccount', name: 'robot' }]));
  const review = (u: string, namespace: string) => srv.request('POST', `${AUTHZ}/subjectaccessreviews`, {
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: u, groups: ['system:serviceaccounts'], resourceAttributes: { namespace, verb: 'get', resource: 'configmaps', name: 'c' } } },
  });
  await eventually(async () => assert.equal((await review('system:serviceaccount:r1:robot', 'r1')).json().status.allowed, true));
  assert.equal((await review('system:serviceaccount:r1:robot', 'r1')).json().status.reason, 'RBAC: allowed by RoleBinding "robot/r1" of Role "cm-reader" to ServiceAccount "robot/r1"');
  assert.equal((await review('system:serviceaccount:r2:robot', 'r1')).json().status.allowed, false);
});

void test('SelfSubjectRulesReview lists the rules RBAC grants in the namespace', async () => {
  await eventually(async () => {
    const r = await srv.request('POST', `${AUTHZ}/selfsubjectrulesreviews`, { user: as('alice'), body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'r1' } } });
    assert.equal(r.status, 201, r.text);
    const st = r.json().status;
    assert.equal(st.incomplete, false);
    assert.ok(st.resourceRules.some((x: any) => x.resources?.[0] === 'configmaps' && x.verbs.join() === 'get,list'), JSON.stringify(st));
    assert.ok(st.resourceRules.some((x: any) => x.resources?.[0] === 'secrets' && x.resourceNames?.[0] === 's1'), JSON.stringify(st));
  });
});

const bin = findKubectl();
const noKubectl = bin ? false : `no kubectl: ${kubectlMissingReason()}`;

void test('kubectl auth can-i and can-i --list as an RBAC user', { skip: noKubectl }, async () => {
  // Discovery for token users (what the bootstrap system:discovery binding grants), under our own names.
  await post(`${RBAC}/clusterroles`, clusterRole('test-discovery', [{ nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/version'], verbs: ['get'] }]));
  await post(`${RBAC}/clusterrolebindings`, clusterRoleBinding('test-discovery', { kind: 'ClusterRole', name: 'test-discovery' }, [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' }]));
  const kc = userKubeconfig(dir, srv, 'alice');
  const k = (args: string[]) => kubectl(args, { kubeconfig: kc });
  await eventually(async () => assert.equal((await k(['auth', 'can-i', 'list', 'configmaps', '-n', 'r1'])).stdout.trim(), 'yes'));
  const no = await k(['auth', 'can-i', 'create', 'configmaps', '-n', 'r1']);
  assert.equal(no.stdout.trim(), 'no');
  assert.equal(no.code, 1);
  assert.equal((await k(['auth', 'can-i', 'get', 'secrets/s1', '-n', 'r2'])).stdout.trim(), 'yes');
  assert.equal((await k(['auth', 'can-i', 'get', 'secrets/s2', '-n', 'r2'])).stdout.trim(), 'no');
  const list = await k(['auth', 'can-i', '--list', '-n', 'r1']);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /^configmaps\s+\[\]\s+\[\]\s+\[get list\]$/m);
  assert.match(list.stdout, /^secrets\s+\[\]\s+\[s1\]\s+\[get list\]$/m);
  assert.match(list.stdout, /^\s+\[\/apis\/\*\]\s+\[\]\s+\[get\]$/m);
});

void test('kubectl create role: an escalating role is refused with kube\'s message', { skip: noKubectl }, async () => {
  await post(`${RBAC}/namespaces/r2/roles`, role('role-creator', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['create'] }]));
  await post(`${RBAC}/namespaces/r2/rolebindings`, roleBinding('alice-role-creator', { kind: 'Role', name: 'role-creator' }, [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }]));
  const kc = userKubeconfig(dir, srv, 'alice');
  await eventually(async () => assert.equal((await kubectl(['auth', 'can-i', 'create', 'roles', '-n', 'r2'], { kubeconfig: kc })).stdout.trim(), 'yes'));
  const r = await kubectl(['create', 'role', 'sneaky', '--verb=get', '--resource=secrets', '-n', 'r2'], { kubeconfig: kc });
  assert.equal(r.code, 1, r.stdout);
  assert.ok(r.stderr.includes('roles.rbac.authorization.k8s.io "sneaky" is forbidden: user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}'), r.stderr);
  const ok = await kubectl(['create', 'role', 'fine', '--verb=create', '--resource=roles.rbac.authorization.k8s.io', '-n', 'r2'], { kubeconfig: kc });
  assert.equal(ok.code, 0, ok.stderr);
});
