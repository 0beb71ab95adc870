import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject, UserInfo } from '../../machinery/objects.ts';
import { builtinCatalog } from '../../registry/resources/groups/index.ts';
import { MemoryStore } from '../../storage/memory/memory-store.ts';
import { createRegistry, type Registry } from '../../registry/registry.ts';
import { rbacStorageGuard } from '../../registry/rbac/guard.ts';
import type { OpContext } from '../../registry/rest.ts';
import { systemContext } from '../../registry/system-context.ts';
import { StatusError } from '../../machinery/errors.ts';
import { buildAuthorizer } from '../modes.ts';
import type { Attributes, Authorizer } from '../../request/authorizer.ts';
import './index.ts';

const G = 'rbac.authorization.k8s.io';
let store: MemoryStore;
let registry: Registry;
let authorizer: Authorizer;
const stops: (() => Promise<void>)[] = [];
const readies: (() => Promise<void>)[] = [];

before(async () => {
  store = new MemoryStore();
  registry = await createRegistry({ catalog: builtinCatalog(), store, wrapStorage: rbacStorageGuard({ authorizer: () => authorizer }) });
  for (const name of ['default', 'kube-system']) await registry.lookup('', 'v1', 'namespaces')!.create(systemContext(), { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } as KObject, {});
  authorizer = await buildAuthorizer(['RBAC'], { registry, onStop: (f) => stops.push(f), onReady: (f) => readies.push(f) });
  for (const r of readies) await r();
});
after(async () => {
  for (const s of stops) await s();
  await registry?.stop();
  await store?.close();
});

const rbac = (resource: string) => registry.lookup(G, 'v1', resource)!;
const bob: UserInfo = { username: 'bob', groups: ['system:authenticated'] };
const asBob = (namespace: string): OpContext => ({ namespace, user: bob, dryRun: false, subresource: '', warnings: [] });
const attrs = (verb: string, resource: string, namespace: string): Attributes =>
  ({ user: bob, verb, isResourceRequest: true, path: '', apiGroup: '', apiVersion: 'v1', namespace, resource, subresource: '', name: 'x' });

/** Informers deliver a moment after the write: bounded polling. */
async function until(fn: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail('condition not reached');
}

async function refusal(p: Promise<unknown>): Promise<StatusError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  return assert.fail('expected a refusal');
}

void test('informers feed the index: a binding written through the registry allows, its deletion stops it', async () => {
  await rbac('clusterroles').create(systemContext(), { apiVersion: `${G}/v1`, kind: 'ClusterRole', metadata: { name: 'cm-get' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] } as KObject, {});
  await rbac('rolebindings').create(systemContext({ namespace: 'default' }), { apiVersion: `${G}/v1`, kind: 'RoleBinding', metadata: { name: 'b', namespace: 'default' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'cm-get' }, subjects: [{ kind: 'User', apiGroup: G, name: 'bob' }] } as KObject, {});
  await until(async () => (await authorizer.authorize(attrs('get', 'configmaps', 'default'))).kind === 'allow');
  assert.equal((await authorizer.authorize(attrs('get', 'configmaps', 'kube-system'))).kind, 'no-opinion');
  await rbac('rolebindings').delete(systemContext({ namespace: 'default' }), 'b', {});
  await until(async () => (await authorizer.authorize(attrs('get', 'configmaps', 'default'))).kind === 'no-opinion');
});

void test('a second RBAC authorizer over the same registry shares the running index', async () => {
  const more: (() => Promise<void>)[] = [];
  const again = await buildAuthorizer(['RBAC'], { registry, onStop: (f) => more.push(f) });
  await rbac('clusterrolebindings').create(systemContext(), { apiVersion: `${G}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'cb' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'cm-get' }, subjects: [{ kind: 'Group', apiGroup: G, name: 'system:authenticated' }] } as KObject, {});
  await until(async () => (await again.authorize(attrs('get', 'configmaps', 'x'))).kind === 'allow');
  for (const s of more) await s();
  // The first authorizer still follows changes after the second one stopped.
  await rbac('clusterrolebindings').delete(systemContext(), 'cb', {});
  await until(async () => (await authorizer.authorize(attrs('get', 'configmaps', 'x'))).kind === 'no-opinion');
});

void test('the guard on registry writes: escalation refused for create and guaranteedUpdate, allowed within held rules', async () => {
  await rbac('rolebindings').create(systemContext({ namespace: 'default' }), { apiVersion: `${G}/v1`, kind: 'RoleBinding', metadata: { name: 'b2', namespace: 'default' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'cm-get' }, subjects: [{ kind: 'User', apiGroup: G, name: 'bob' }] } as KObject, {});
  const role = (rules: unknown[]) => ({ apiVersion: `${G}/v1`, kind: 'Role', metadata: { name: 'r', namespace: 'default' }, rules }) as KObject;
  const e = await refusal(rbac('roles').create(asBob('default'), role([{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }]), {}));
  assert.equal(e.code, 403);
  assert.equal(e.message, 'roles.rbac.authorization.k8s.io "r" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["list"]}');
  // Fresh registry reads: no waiting for informers.
  const created = await rbac('roles').create(asBob('default'), role([{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]), {});
  assert.equal(created.metadata.name, 'r');
  const u = await refusal(rbac('roles').guaranteedUpdate(asBob('default'), 'r', (cur) => ({ ...cur!, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] }) as KObject, {}));
  assert.equal(u.code, 403);
  // In another namespace bob holds nothing.
  assert.equal((await refusal(rbac('roles').create(asBob('kube-system'), { ...role([{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]), metadata: { name: 'r', namespace: 'kube-system' } } as KObject, {}))).code, 403);
});
