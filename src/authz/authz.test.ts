import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAuthorizer, knownAuthorizationModes, registerAuthorizationMode } from './modes.ts';
import { forbiddenError } from './forbidden.ts';
import { unionAuthorizer, privilegedGroups } from './union.ts';
import type { Attributes } from '../request/authorizer.ts';
import { readKubeJson } from '../../test/support/kube-reference.ts';


const attrs = (over: Partial<Attributes> = {}): Attributes => ({
  user: { username: 'alice', groups: ['dev', 'system:authenticated'] }, verb: 'list', isResourceRequest: true, path: '/api/v1/namespaces/ref/configmaps',
  apiGroup: '', apiVersion: 'v1', namespace: 'ref', resource: 'configmaps', subresource: '', name: '', ...over,
});

void test('AlwaysAllow allows; AlwaysDeny has no opinion with kube\'s reason', async () => {
  assert.equal((await (await buildAuthorizer(['AlwaysAllow'])).authorize(attrs())).kind, 'allow');
  const d = await (await buildAuthorizer(['AlwaysDeny'])).authorize(attrs());
  assert.deepEqual(d, { kind: 'no-opinion', reason: 'Everything is forbidden.' });
});

void test('modes are asked in order: first decision wins', async () => {
  assert.equal((await (await buildAuthorizer(['AlwaysDeny', 'AlwaysAllow'])).authorize(attrs())).kind, 'allow');
  // The deciding member is named for apiserver_authorization_decisions_total (unknown modes count as webhooks).
  registerAuthorizationMode('TestDeny', () => ({ name: 'TestDeny', authorize: () => ({ kind: 'deny', reason: 'no way' }) }));
  assert.deepEqual(await (await buildAuthorizer(['TestDeny', 'AlwaysAllow'])).authorize(attrs()), { kind: 'deny', reason: 'no way', decidedBy: { type: 'Webhook', name: 'TestDeny' } });
  assert.ok(knownAuthorizationModes().includes('TestDeny'));
});

void test('system:masters bypasses every mode', async () => {
  const a = await buildAuthorizer(['AlwaysDeny']);
  assert.equal((await a.authorize(attrs({ user: { username: 'root', groups: ['system:masters'] } }))).kind, 'allow');
});

void test('no modes at all: default deny', async () => {
  assert.equal((await (await buildAuthorizer([])).authorize(attrs())).kind, 'no-opinion');
});

void test('unknown modes cannot be built', async () => {
  await assert.rejects(buildAuthorizer(['RBAC']), /RBAC authorization is not implemented yet/);
});

void test('403 body for a namespaced list matches kube-apiserver', () => {
  const want = readKubeJson('responses/errors/403-anonymous.json');
  const got = forbiddenError(attrs({ user: { username: 'system:anonymous', groups: ['system:unauthenticated'] } })).toStatus();
  assert.deepEqual(got, want);
});

void test('403 wording: named, cluster-scoped, sub-resource, group, reason, non-resource', () => {
  const m = (a: Partial<Attributes>, reason?: string) => forbiddenError(attrs(a), reason);
  const named = m({ verb: 'get', resource: 'pods', subresource: 'log', name: 'p1' });
  assert.equal(named.message, 'pods "p1" is forbidden: User "alice" cannot get resource "pods/log" in API group "" in the namespace "ref"');
  assert.deepEqual(named.details, { name: 'p1', kind: 'pods' });
  assert.equal(m({ namespace: '', resource: 'nodes' }).message, 'nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope');
  const grouped = m({ apiGroup: 'apps', resource: 'deployments', verb: 'create' }, 'Everything is forbidden.');
  assert.equal(grouped.message, 'deployments.apps is forbidden: User "alice" cannot create resource "deployments" in API group "apps" in the namespace "ref": Everything is forbidden.');
  assert.deepEqual(grouped.details, { group: 'apps', kind: 'deployments' });
  const nr = m({ isResourceRequest: false, path: '/foo', verb: 'get', resource: '', namespace: '', apiVersion: '' });
  assert.equal(nr.message, 'forbidden: User "alice" cannot get path "/foo"');
  assert.deepEqual(nr.toStatus().details, {});
  assert.equal(m({ isResourceRequest: false, path: '/a<b>', verb: 'get', resource: '', namespace: '' }).message, 'forbidden: User "alice" cannot get path "/a&lt;b&gt;"');
});

void test('union: synchronous members answer without a promise; an asynchronous member keeps order, reasons and errors', async () => {
  const none = (reason: string) => ({ name: 'AlwaysDeny', authorize: () => ({ kind: 'no-opinion' as const, reason }) });
  const allow = { name: 'RBAC', authorize: () => ({ kind: 'allow' as const, reason: 'rbac' }) };
  const slow = { name: 'hook', authorize: () => Promise.resolve({ kind: 'no-opinion' as const, reason: 'slow', error: 'timeout' }) };
  const d = unionAuthorizer([privilegedGroups(['system:masters']), none('a'), allow]).authorize(attrs());
  assert.ok(!(d instanceof Promise), 'no promise when every member answers synchronously');
  assert.deepEqual(d, { kind: 'allow', reason: 'rbac', decidedBy: { type: 'RBAC', name: 'rbac' } });
  const mixed = unionAuthorizer([none('a'), slow, none('b')]).authorize(attrs());
  assert.ok(mixed instanceof Promise);
  assert.deepEqual(await mixed, { kind: 'no-opinion', reason: 'a\nslow\nb', error: 'timeout' });
  assert.equal((await unionAuthorizer([slow, allow]).authorize(attrs())).kind, 'allow');
  const throwing = { name: 'x', authorize: () => { throw new Error('boom'); } };
  await assert.rejects(Promise.resolve(unionAuthorizer([throwing]).authorize(attrs())), /boom/);
});
