/**
 * Privilege-escalation prevention (kube's policybased RBAC storage) through a real server with
 * `authorizationMode: ['RBAC']`: roles hold only what their author holds unless `escalate`; bindings need
 * `bind` on the role (by name) or the role's permissions; the check covers POST, PUT, PATCH, apply and
 * dry-run, and a refusal writes nothing.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.ts';
import { assertStatus } from './helpers.ts';
import { RBAC, as, clusterRole, clusterRoleBinding, eventually, ns, role, roleBinding, tokenUsers, user } from './rbac-helpers.ts';

let srv: TestServer;
let dir = '';

const SECRETS_GET = [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }];
const MANAGE_RBAC = [
  { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: ['create', 'get', 'update', 'patch'] },
  { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
];

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-rbac-esc-'));
  srv = await startTestServer({ tokenAuthFile: tokenUsers(dir), authorizationMode: ['RBAC'] });
  const admin = async (p: string, body: unknown) => {
    const r = await srv.request('POST', p, { body });
    assert.equal(r.status, 201, r.text);
  };
  await admin('/api/v1/namespaces', ns('e1'));
  // bob manages roles and bindings in e1 and may read config maps there; nothing else.
  await admin(`${RBAC}/namespaces/e1/roles`, role('rbac-manager', MANAGE_RBAC));
  await admin(`${RBAC}/namespaces/e1/rolebindings`, roleBinding('bob-manager', { kind: 'Role', name: 'rbac-manager' }, [user('bob')]));
  await admin(`${RBAC}/clusterroles`, clusterRole('secret-getter', SECRETS_GET));
  await admin(`${RBAC}/clusterroles`, clusterRole('cm-getter', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]));
  await eventually(async () => assert.equal((await srv.request('GET', '/api/v1/namespaces/e1/configmaps/x', { user: as('bob') })).status, 404));
});
after(async () => {
  await srv?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const ESCALATION = 'user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}';

const missing = async (p: string) => assert.equal((await srv.request('GET', p)).status, 404, `${p} must not exist`);

void test('create: a role with rules the caller lacks is 403 with kube\'s message; nothing is written', async () => {
  const r = await srv.request('POST', `${RBAC}/namespaces/e1/roles`, { user: as('bob'), body: role('sneaky', SECRETS_GET) });
  const st = assertStatus(r, 403, 'Forbidden', `roles.rbac.authorization.k8s.io "sneaky" is forbidden: ${ESCALATION}`);
  assert.deepEqual(st.details, { name: 'sneaky', group: 'rbac.authorization.k8s.io', kind: 'roles' });
  await missing(`${RBAC}/namespaces/e1/roles/sneaky`);
  // Dry-run is checked too.
  const dry = await srv.request('POST', `${RBAC}/namespaces/e1/roles?dryRun=All`, { user: as('bob'), body: role('sneaky', SECRETS_GET) });
  assertStatus(dry, 403, 'Forbidden');
  // Several missing rules: compacted per resource, sorted.
  const many = await srv.request('POST', `${RBAC}/namespaces/e1/roles`, { user: as('bob'), body: role('many', [{ apiGroups: ['', 'apps'], resources: ['pods', 'configmaps'], verbs: ['get', 'list'] }]) });
  const msg: string = many.json().message;
  assert.equal(msg.split('\n').slice(1).join('\n'), [
    '{APIGroups:[""], Resources:["configmaps"], Verbs:["list"]}',
    '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}',
    '{APIGroups:["apps"], Resources:["configmaps"], Verbs:["get" "list"]}',
    '{APIGroups:["apps"], Resources:["pods"], Verbs:["get" "list"]}',
  ].join('\n'));
});

void test('create: rules the caller holds are allowed (also ones held only by name)', async () => {
  const r = await srv.request('POST', `${RBAC}/namespaces/e1/roles`, { user: as('bob'), body: role('subset', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['a'] }]) });
  assert.equal(r.status, 201, r.text);
});

void test('update, patch and apply are checked on the object to be written', async () => {
  const path1 = `${RBAC}/namespaces/e1/roles/subset`;
  const cur = (await srv.request('GET', path1)).json();
  const put = await srv.request('PUT', path1, { user: as('bob'), body: { ...cur, rules: SECRETS_GET } });
  assertStatus(put, 403, 'Forbidden', `roles.rbac.authorization.k8s.io "subset" is forbidden: ${ESCALATION}`);
  const patch = await srv.request('PATCH', path1, { user: as('bob'), headers: { 'Content-Type': 'application/merge-patch+json' }, body: { rules: SECRETS_GET } });
  assertStatus(patch, 403, 'Forbidden', `roles.rbac.authorization.k8s.io "subset" is forbidden: ${ESCALATION}`);
  const jsonPatch = await srv.request('PATCH', path1, { user: as('bob'), headers: { 'Content-Type': 'application/json-patch+json' }, body: [{ op: 'add', path: '/rules/-', value: SECRETS_GET[0] }] });
  assertStatus(jsonPatch, 403, 'Forbidden');
  // force: the rules belong to another manager, and kube reports apply conflicts before the escalation check.
  const apply = await srv.request('PATCH', `${path1}?fieldManager=bob&force=true`, { user: as('bob'), headers: { 'Content-Type': 'application/apply-patch+yaml' }, body: JSON.stringify(role('subset', SECRETS_GET)) });
  assertStatus(apply, 403, 'Forbidden');
  // A new role through apply (create on patch) is checked as well.
  const applyNew = await srv.request('PATCH', `${RBAC}/namespaces/e1/roles/applied?fieldManager=bob`, { user: as('bob'), headers: { 'Content-Type': 'application/apply-patch+yaml' }, body: JSON.stringify(role('applied', SECRETS_GET)) });
  assertStatus(applyNew, 403, 'Forbidden');
  await missing(`${RBAC}/namespaces/e1/roles/applied`);
  const after = (await srv.request('GET', path1)).json();
  assert.equal(after.metadata.resourceVersion, cur.metadata.resourceVersion, 'refused writes change nothing');
  // Within what bob holds, updates pass.
  const ok = await srv.request('PATCH', path1, { user: as('bob'), headers: { 'Content-Type': 'application/merge-patch+json' }, body: { metadata: { labels: { a: 'b' } } } });
  assert.equal(ok.status, 200, ok.text);
});

void test('only ownerReferences/finalizers changes skip the check (the GC must finish deletions)', async () => {
  const created = await srv.request('POST', `${RBAC}/namespaces/e1/roles`, { body: role('admins-secret', SECRETS_GET) });
  assert.equal(created.status, 201, created.text);
  const p = `${RBAC}/namespaces/e1/roles/admins-secret`;
  const fin = await srv.request('PATCH', p, { user: as('bob'), headers: { 'Content-Type': 'application/merge-patch+json' }, body: { metadata: { finalizers: ['example.com/x'] } } });
  assert.equal(fin.status, 200, fin.text);
  const label = await srv.request('PATCH', p, { user: as('bob'), headers: { 'Content-Type': 'application/merge-patch+json' }, body: { metadata: { labels: { x: 'y' } } } });
  assertStatus(label, 403, 'Forbidden');
  const unfin = await srv.request('PATCH', p, { user: as('bob'), headers: { 'Content-Type': 'application/merge-patch+json' }, body: { metadata: { finalizers: null } } });
  assert.equal(unfin.status, 200, unfin.text);
});

void test('the escalate verb lets a caller write rules it does not hold', async () => {
  await srv.request('POST', `${RBAC}/clusterroles`, { body: clusterRole('escalator', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate'] }]) });
  await srv.request('POST', `${RBAC}/namespaces/e1/rolebindings`, { body: roleBinding('carol-escalate', { kind: 'ClusterRole', name: 'escalator' }, [user('carol')]) });
  await srv.request('POST', `${RBAC}/namespaces/e1/rolebindings`, { body: roleBinding('carol-manage', { kind: 'Role', name: 'rbac-manager' }, [user('carol')]) });
  await eventually(async () => {
    const r = await srv.request('POST', `${RBAC}/namespaces/e1/roles?dryRun=All`, { user: as('carol'), body: role('escalated', SECRETS_GET) });
    assert.equal(r.status, 201, r.text);
  });
  assert.equal((await srv.request('POST', `${RBAC}/namespaces/e1/roles`, { user: as('carol'), body: role('escalated', SECRETS_GET) })).status, 201);
});

void test('bindings: bind on one role name only; otherwise the role\'s permissions must be held', async () => {
  const rb = (name: string, ref: string) => roleBinding(name, { kind: 'ClusterRole', name: ref }, [user('dave')]);
  // bob holds configmaps get: binding cm-getter is fine without bind.
  const held = await srv.request('POST', `${RBAC}/namespaces/e1/rolebindings`, { user: as('bob'), body: rb('dave-cm', 'cm-getter') });
  assert.equal(held.status, 201, held.text);
  const refused = await srv.request('POST', `${RBAC}/namespaces/e1/rolebindings`, { user: as('bob'), body: rb('dave-secret', 'secret-getter') });
  assertStatus(refused, 403, 'Forbidden', `rolebindings.rbac.authorization.k8s.io "dave-secret" is forbidden: ${ESCALATION}`);
  await missing(`${RBAC}/namespaces/e1/rolebindings/dave-secret`);
  // A missing role (without bind): the registry's 404.
  const ghost = await srv.request('POST', `${RBAC}/namespaces/e1/rolebindings`, { user: as('bob'), body: rb('dave-ghost', 'ghost') });
  assertStatus(ghost, 404, 'NotFound', 'clusterroles.rbac.authorization.k8s.io "ghost" not found');
  // bind limited to secret-getter by resourceNames.
  await srv.request('POST', `${RBAC}/clusterroles`, { body: clusterRole('bind-secret-getter', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['secret-getter'] }]) });
  await srv.request('POST', `${RBAC}/namespaces/e1/rolebindings`, { body: roleBinding('bob-bind', { kind: 'ClusterRole', name: 'bind-secret-getter' }, [user('bob')]) });
  await eventually(async () => {
    const r = await srv.request('POST', `${RBAC}/namespaces/e1/rolebindings`, { user: as('bob'), body: rb('dave-secret', 'secret-getter') });
    assert.equal(r.status, 201, r.text);
  });
  await srv.request('POST', `${RBAC}/clusterroles`, { body: clusterRole('pod-getter', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]) });
  assertStatus(await srv.request('POST', `${RBAC}/namespaces/e1/rolebindings`, { user: as('bob'), body: rb('dave-pods', 'pod-getter') }), 403, 'Forbidden');
  // Changing subjects of a binding to a role bob may not bind nor holds: refused; to one he may bind: fine.
  const dc = (await srv.request('GET', `${RBAC}/namespaces/e1/rolebindings/dave-secret`)).json();
  const upd = await srv.request('PUT', `${RBAC}/namespaces/e1/rolebindings/dave-secret`, { user: as('bob'), body: { ...dc, subjects: [user('eve')] } });
  assert.equal(upd.status, 200, upd.text);
});

void test('cluster scope: a ClusterRoleBinding needs cluster-wide permissions; an aggregationRule needs everything', async () => {
  await srv.request('POST', `${RBAC}/clusterroles`, { body: clusterRole('cluster-rbac-writer', [
    { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles', 'clusterrolebindings'], verbs: ['create', 'update', 'get'] },
    { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
  ]) });
  await srv.request('POST', `${RBAC}/clusterrolebindings`, { body: clusterRoleBinding('carol-cluster', { kind: 'ClusterRole', name: 'cluster-rbac-writer' }, [user('carol')]) });
  await eventually(async () => {
    const r = await srv.request('POST', `${RBAC}/clusterroles?dryRun=All`, { user: as('carol'), body: clusterRole('c-cm', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]) });
    assert.equal(r.status, 201, r.text);
  });
  // carol's namespaced grants (e1) do not count at the cluster scope.
  const crb = await srv.request('POST', `${RBAC}/clusterrolebindings`, { user: as('carol'), body: clusterRoleBinding('c-secret', { kind: 'ClusterRole', name: 'secret-getter' }, [user('dave')]) });
  assertStatus(crb, 403, 'Forbidden', /^clusterrolebindings\.rbac\.authorization\.k8s\.io "c-secret" is forbidden: user "carol" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\[""\], Resources:\["secrets"\], Verbs:\["get"\]\}$/);
  assert.equal((await srv.request('POST', `${RBAC}/clusterrolebindings`, { user: as('carol'), body: clusterRoleBinding('c-cm', { kind: 'ClusterRole', name: 'cm-getter' }, [user('dave')]) })).status, 201);
  const agg = await srv.request('POST', `${RBAC}/clusterroles`, { user: as('carol'), body: clusterRole('agg', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } }) });
  assertStatus(agg, 403, 'Forbidden', 'clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule');
  await missing(`${RBAC}/clusterroles/agg`);
  // Removing an aggregationRule from an existing role is checked too.
  assert.equal((await srv.request('POST', `${RBAC}/clusterroles`, { body: clusterRole('agg', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } }) })).status, 201);
  const cur = (await srv.request('GET', `${RBAC}/clusterroles/agg`)).json();
  delete cur.aggregationRule;
  assertStatus(await srv.request('PUT', `${RBAC}/clusterroles/agg`, { user: as('carol'), body: cur }), 403, 'Forbidden');
});

void test('system:masters writes anything', async () => {
  assert.equal((await srv.request('POST', `${RBAC}/clusterroles`, { body: clusterRole('everything', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }]) })).status, 201);
  assert.equal((await srv.request('POST', `${RBAC}/clusterrolebindings`, { body: clusterRoleBinding('ghost-binding', { kind: 'ClusterRole', name: 'does-not-exist' }, [user('x')]) })).status, 201);
});

void test('bindings without roleRef.apiGroup (and with empty subject apiGroups) are defaulted as kube does, then checked', async () => {
  const body = {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'no-group' },
    roleRef: { kind: 'ClusterRole', name: 'cm-getter' },
    subjects: [{ kind: 'User', apiGroup: '', name: 'carol' }, { kind: 'ServiceAccount', name: 'default', namespace: 'e1' }],
  };
  const r = await srv.request('POST', `${RBAC}/namespaces/e1/rolebindings`, { body });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.json().roleRef.apiGroup, 'rbac.authorization.k8s.io');
  assert.deepEqual(r.json().subjects.map((s: { apiGroup?: string }) => s.apiGroup), ['rbac.authorization.k8s.io', undefined]);
  // bob holds configmaps get in e1, so he may bind cm-getter there even without the apiGroup; not a role he lacks.
  const bob = await srv.request('POST', `${RBAC}/namespaces/e1/rolebindings`, { user: as('bob'), body: { ...body, metadata: { name: 'bob-no-group' } } });
  assert.equal(bob.status, 201, bob.text);
  assert.equal((await srv.request('POST', `${RBAC}/clusterroles`, { body: clusterRole('pod-deleter', [{ apiGroups: [''], resources: ['pods'], verbs: ['delete'] }]) })).status, 201);
  assertStatus(await srv.request('POST', `${RBAC}/namespaces/e1/rolebindings`, {
    user: as('bob'), body: { ...body, metadata: { name: 'bob-pods' }, roleRef: { kind: 'ClusterRole', name: 'pod-deleter' } },
  }), 403, 'Forbidden');
});
