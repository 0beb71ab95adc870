import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject, UserInfo } from '../../machinery/objects.ts';
import type { Attributes } from '../../request/authorizer.ts';
import { rbacAuthorizer } from './authorizer.ts';
import { RbacIndex } from './index-store.ts';
import { buildAuthorizer } from '../modes.ts';
import './index.ts';

const G = 'rbac.authorization.k8s.io';

function role(name: string, rules: unknown[], namespace?: string): KObject {
  return { apiVersion: `${G}/v1`, kind: namespace ? 'Role' : 'ClusterRole', metadata: { name, ...(namespace ? { namespace } : {}) }, rules } as KObject;
}

function binding(name: string, roleRef: { kind: string; name: string }, subjects: unknown[], namespace?: string): KObject {
  return { apiVersion: `${G}/v1`, kind: namespace ? 'RoleBinding' : 'ClusterRoleBinding', metadata: { name, ...(namespace ? { namespace } : {}) }, roleRef: { apiGroup: G, ...roleRef }, subjects } as KObject;
}

const U = (name: string) => ({ kind: 'User', apiGroup: G, name });
const Grp = (name: string) => ({ kind: 'Group', apiGroup: G, name });

function attrs(user: UserInfo, verb: string, resource: string, namespace = '', o: Partial<Attributes> = {}): Attributes {
  return { user, verb, isResourceRequest: true, path: '', apiGroup: '', apiVersion: 'v1', namespace, resource, subresource: '', name: '', ...o };
}

const alice: UserInfo = { username: 'alice', groups: ['dev', 'system:authenticated'] };
const bob: UserInfo = { username: 'bob', groups: ['system:authenticated'] };
const sa: UserInfo = { username: 'system:serviceaccount:ns1:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'] };

function setup(): RbacIndex {
  const ix = new RbacIndex();
  ix.upsertClusterRole(role('pod-reader', [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]));
  ix.upsertClusterRole(role('healthz', [{ nonResourceURLs: ['/healthz*'], verbs: ['get'] }]));
  ix.upsertRole(role('cm-writer', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['*'] }], 'ns1'));
  ix.upsertBinding(binding('readers', { kind: 'ClusterRole', name: 'pod-reader' }, [Grp('dev')]), 'ClusterRoleBinding');
  ix.upsertBinding(binding('health', { kind: 'ClusterRole', name: 'healthz' }, [Grp('system:authenticated')]), 'ClusterRoleBinding');
  ix.upsertBinding(binding('cm', { kind: 'Role', name: 'cm-writer' }, [U('bob'), { kind: 'ServiceAccount', name: 'robot' }], 'ns1'), 'RoleBinding');
  return ix;
}

void test('allows from cluster bindings by group, with kube\'s reason; no opinion otherwise', async () => {
  const a = rbacAuthorizer(setup());
  assert.deepEqual(await a.authorize(attrs(alice, 'list', 'pods', 'any')), { kind: 'allow', reason: 'RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "pod-reader" to Group "dev"' });
  assert.deepEqual(await a.authorize(attrs(bob, 'list', 'pods', 'any')), { kind: 'no-opinion' });
  assert.deepEqual(await a.authorize(attrs(alice, 'delete', 'pods', 'any', { name: 'p' })), { kind: 'no-opinion' });
  const h = await a.authorize({ ...attrs(bob, 'get', ''), isResourceRequest: false, path: '/healthz/etcd' });
  assert.equal(h.kind, 'allow');
});

void test('role bindings grant in their namespace only; service accounts match by namespace and name', async () => {
  const a = rbacAuthorizer(setup());
  assert.deepEqual(await a.authorize(attrs(bob, 'create', 'configmaps', 'ns1')), { kind: 'allow', reason: 'RBAC: allowed by RoleBinding "cm/ns1" of Role "cm-writer" to User "bob"' });
  assert.equal((await a.authorize(attrs(bob, 'create', 'configmaps', 'ns2'))).kind, 'no-opinion');
  assert.equal((await a.authorize(attrs(bob, 'create', 'configmaps', ''))).kind, 'no-opinion');
  // Subject without a namespace: the binding's namespace.
  assert.deepEqual(await a.authorize(attrs(sa, 'get', 'configmaps', 'ns1', { name: 'x' })), { kind: 'allow', reason: 'RBAC: allowed by RoleBinding "cm/ns1" of Role "cm-writer" to ServiceAccount "robot/ns1"' });
  assert.equal((await a.authorize(attrs({ ...sa, username: 'system:serviceaccount:ns2:robot' }, 'get', 'configmaps', 'ns1', { name: 'x' }))).kind, 'no-opinion');
});

void test('a cluster binding to a service account needs its namespace', async () => {
  const ix = setup();
  ix.upsertBinding(binding('sa-nons', { kind: 'ClusterRole', name: 'pod-reader' }, [{ kind: 'ServiceAccount', name: 'robot' }]), 'ClusterRoleBinding');
  const a = rbacAuthorizer(ix);
  assert.equal((await a.authorize(attrs(sa, 'list', 'pods', 'ns1'))).kind, 'no-opinion');
  ix.upsertBinding(binding('sa-ns', { kind: 'ClusterRole', name: 'pod-reader' }, [{ kind: 'ServiceAccount', name: 'robot', namespace: 'ns1' }]), 'ClusterRoleBinding');
  assert.deepEqual(await a.authorize(attrs(sa, 'list', 'pods', '')), { kind: 'allow', reason: 'RBAC: allowed by ClusterRoleBinding "sa-ns" of ClusterRole "pod-reader" to ServiceAccount "robot/ns1"' });
});

void test('the reason names the first subject of the binding that applies', async () => {
  const ix = setup();
  ix.upsertBinding(binding('two', { kind: 'ClusterRole', name: 'pod-reader' }, [Grp('system:authenticated'), U('bob')]), 'ClusterRoleBinding');
  const d = await rbacAuthorizer(ix).authorize(attrs(bob, 'get', 'pods', '', { name: 'p' }));
  assert.equal(d.reason, 'RBAC: allowed by ClusterRoleBinding "two" of ClusterRole "pod-reader" to Group "system:authenticated"');
});

void test('bindings to missing roles: no opinion with the listers\' errors, other bindings still count', async () => {
  const ix = setup();
  ix.upsertBinding(binding('ghost', { kind: 'ClusterRole', name: 'nope' }, [U('bob')]), 'ClusterRoleBinding');
  ix.upsertBinding(binding('ghost2', { kind: 'Role', name: 'gone' }, [U('bob')], 'ns1'), 'RoleBinding');
  const a = rbacAuthorizer(ix);
  assert.deepEqual(await a.authorize(attrs(bob, 'get', 'secrets', 'ns1', { name: 's' })), {
    kind: 'no-opinion',
    reason: `RBAC: [clusterrole.${G} "nope" not found, role.${G} "gone" not found]`,
  });
  assert.deepEqual(await a.authorize(attrs(bob, 'get', 'secrets', '', { name: 's' })), { kind: 'no-opinion', reason: `RBAC: clusterrole.${G} "nope" not found` });
  assert.equal((await a.authorize(attrs(bob, 'get', 'configmaps', 'ns1', { name: 's' }))).kind, 'allow');
  const rules = await a.rulesFor!(bob, 'ns1');
  assert.deepEqual(rules.errors, [`clusterrole.${G} "nope" not found`, `role.${G} "gone" not found`]);
});

void test('updates and deletes re-index: changed subjects, roles and removed bindings apply at once', async () => {
  const ix = setup();
  const a = rbacAuthorizer(ix);
  ix.upsertBinding(binding('readers', { kind: 'ClusterRole', name: 'pod-reader' }, [U('bob')]), 'ClusterRoleBinding');
  assert.equal((await a.authorize(attrs(alice, 'list', 'pods'))).kind, 'no-opinion');
  assert.equal((await a.authorize(attrs(bob, 'list', 'pods'))).kind, 'allow');
  ix.upsertClusterRole(role('pod-reader', [{ apiGroups: [''], resources: ['pods'], verbs: ['watch'] }]));
  assert.equal((await a.authorize(attrs(bob, 'list', 'pods'))).kind, 'no-opinion');
  assert.equal((await a.authorize(attrs(bob, 'watch', 'pods'))).kind, 'allow');
  ix.deleteBinding(binding('readers', { kind: 'ClusterRole', name: 'pod-reader' }, []), 'ClusterRoleBinding');
  assert.equal((await a.authorize(attrs(bob, 'watch', 'pods'))).kind, 'no-opinion');
  ix.deleteBinding(binding('cm', { kind: 'Role', name: 'cm-writer' }, [], 'ns1'), 'RoleBinding');
  assert.equal((await a.authorize(attrs(bob, 'create', 'configmaps', 'ns1'))).kind, 'no-opinion');
  ix.deleteRole(role('cm-writer', [], 'ns1'));
  ix.deleteClusterRole(role('healthz', []));
  assert.deepEqual(ix.size(), { roles: 0, clusterRoles: 1, bindings: 1 });
});

void test('rulesFor: resource and non-resource parts of the rules that apply, never incomplete', async () => {
  const a = rbacAuthorizer(setup());
  assert.deepEqual(await a.rulesFor!(bob, 'ns1'), {
    resourceRules: [{ verbs: ['*'], apiGroups: [''], resources: ['configmaps'] }],
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz*'] }],
    incomplete: false,
  });
  const r = await a.rulesFor!(alice, 'ns2');
  assert.deepEqual(r.resourceRules, [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]);
});

void test('the RBAC mode registers itself and works without a registry (empty)', async () => {
  const a = await buildAuthorizer(['RBAC']);
  assert.equal((await a.authorize(attrs(alice, 'get', 'pods', 'x', { name: 'p' }))).kind, 'no-opinion');
  assert.equal((await a.authorize(attrs({ username: 'root', groups: ['system:masters'] }, 'get', 'pods', 'x', { name: 'p' }))).kind, 'allow');
});

void test('cached decisions follow every change to roles and bindings (one revision per change)', async () => {
  const ix = setup();
  const a = rbacAuthorizer(ix);
  const get = (u: UserInfo, ns = 'ns1') => a.authorize(attrs(u, 'get', 'configmaps', ns, { name: 'c' }));
  // Asked twice: the second answer comes from the cache; the shared decision is frozen, so no caller can
  // change what the next request is told.
  const first = await get(bob);
  const again = await get(bob);
  assert.equal(first.kind, 'allow');
  assert.deepEqual(again, first);
  assert.ok(Object.isFrozen(again));
  assert.throws(() => { (again as { reason?: string }).reason = 'changed'; }, TypeError);

  // The role narrowed: denied at once.
  ix.upsertRole(role('cm-writer', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }], 'ns1'));
  assert.equal((await get(bob)).kind, 'no-opinion');
  // Widened again, then the binding loses bob as a subject.
  ix.upsertRole(role('cm-writer', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }], 'ns1'));
  assert.equal((await get(bob)).kind, 'allow');
  ix.upsertBinding(binding('cm', { kind: 'Role', name: 'cm-writer' }, [U('carol')], 'ns1'), 'RoleBinding');
  assert.equal((await get(bob)).kind, 'no-opinion');
  // A new cluster binding for bob's group; then its cluster role goes away (the lister's error is the reason).
  ix.upsertClusterRole(role('cm-all', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]));
  ix.upsertBinding(binding('everyone', { kind: 'ClusterRole', name: 'cm-all' }, [Grp('system:authenticated')]), 'ClusterRoleBinding');
  assert.equal((await get(bob, 'ns9')).kind, 'allow');
  ix.deleteClusterRole(role('cm-all', []));
  assert.deepEqual(await get(bob, 'ns9'), { kind: 'no-opinion', reason: `RBAC: clusterrole.${G} "cm-all" not found` });
  ix.deleteBinding(binding('everyone', { kind: 'ClusterRole', name: 'cm-all' }, []), 'ClusterRoleBinding');
  assert.deepEqual(await get(bob, 'ns9'), { kind: 'no-opinion' });
  ix.deleteRole(role('cm-writer', [], 'ns1'));
  ix.upsertBinding(binding('cm', { kind: 'Role', name: 'cm-writer' }, [U('bob')], 'ns1'), 'RoleBinding');
  assert.equal((await get(bob)).reason, `RBAC: role.${G} "cm-writer" not found`);
});

void test('the decision cache tells users, groups, verbs, names and paths apart', async () => {
  const a = rbacAuthorizer(setup());
  const dev: UserInfo = { username: 'bob', groups: ['dev'] };
  assert.equal((await a.authorize(attrs(dev, 'get', 'pods', 'ns2', { name: 'p' }))).kind, 'allow');
  assert.equal((await a.authorize(attrs({ username: 'bob', groups: [] }, 'get', 'pods', 'ns2', { name: 'p' }))).kind, 'no-opinion');
  assert.equal((await a.authorize(attrs(alice, 'delete', 'pods', 'ns2', { name: 'p' }))).kind, 'no-opinion');
  assert.equal((await a.authorize(attrs(alice, 'get', 'pods', 'ns2', { name: 'p', subresource: 'log' }))).kind, 'no-opinion');
  const health = (path: string) => a.authorize({ ...attrs(bob, 'get', ''), isResourceRequest: false, path });
  assert.equal((await health('/healthz')).kind, 'allow');
  assert.equal((await health('/metrics')).kind, 'no-opinion');
});
