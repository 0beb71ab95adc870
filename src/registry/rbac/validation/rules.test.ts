import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeRule, ruleAllows, type PolicyRule } from './rules.ts';
import type { Attributes } from '../../../request/authorizer.ts';

const user = { username: 'u', groups: [] };

function res(verb: string, resource: string, o: Partial<Attributes> = {}): Attributes {
  return { user, verb, isResourceRequest: true, path: '', apiGroup: '', apiVersion: 'v1', namespace: 'ns', resource, subresource: '', name: '', ...o };
}

function url(verb: string, path: string): Attributes {
  return { user, verb, isResourceRequest: false, path, apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '' };
}

const allows = (rule: PolicyRule, a: Attributes): boolean => ruleAllows(a, normalizeRule(rule));

void test('verbs and apiGroups: * or an exact entry', () => {
  assert.equal(allows({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res('get', 'pods')), true);
  assert.equal(allows({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res('list', 'pods')), false);
  assert.equal(allows({ verbs: ['*'], apiGroups: [''], resources: ['pods'] }, res('deletecollection', 'pods')), true);
  assert.equal(allows({ verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] }, res('get', 'pods')), false);
  assert.equal(allows({ verbs: ['get'], apiGroups: ['*'], resources: ['deployments'] }, res('get', 'deployments', { apiGroup: 'apps' })), true);
  // No apiGroups at all matches no resource request.
  assert.equal(allows({ verbs: ['get'], resources: ['pods'] }, res('get', 'pods')), false);
});

void test('resources: *, exact, <res>/<sub>, */<sub>; <res>/* is only a literal', () => {
  const pod = (sub: string) => res('get', 'pods', { subresource: sub, name: 'p' });
  assert.equal(allows({ verbs: ['get'], apiGroups: [''], resources: ['*'] }, pod('log')), true);
  assert.equal(allows({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, pod('log')), false);
  assert.equal(allows({ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, pod('log')), true);
  assert.equal(allows({ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, pod('')), false);
  assert.equal(allows({ verbs: ['get'], apiGroups: [''], resources: ['*/log'] }, pod('log')), true);
  assert.equal(allows({ verbs: ['get'], apiGroups: [''], resources: ['*/log'] }, pod('status')), false);
  assert.equal(allows({ verbs: ['get'], apiGroups: [''], resources: ['*/log'] }, pod('')), false);
  // kube's ResourceMatches has no <resource>/* wildcard.
  assert.equal(allows({ verbs: ['get'], apiGroups: [''], resources: ['pods/*'] }, pod('log')), false);
});

void test('resourceNames: empty does not restrict; listed names only; never create/list (no name)', () => {
  const rule = { verbs: ['*'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] };
  assert.equal(allows(rule, res('get', 'configmaps', { name: 'a' })), true);
  assert.equal(allows(rule, res('get', 'configmaps', { name: 'b' })), false);
  assert.equal(allows(rule, res('list', 'configmaps')), false);
  assert.equal(allows(rule, res('create', 'configmaps')), false);
  assert.equal(allows({ verbs: ['*'], apiGroups: [''], resources: ['configmaps'], resourceNames: [] }, res('list', 'configmaps')), true);
});

void test('nonResourceURLs: *, exact, trailing * as a prefix; not for resource requests', () => {
  assert.equal(allows({ verbs: ['get'], nonResourceURLs: ['*'] }, url('get', '/anything')), true);
  assert.equal(allows({ verbs: ['get'], nonResourceURLs: ['/healthz'] }, url('get', '/healthz')), true);
  assert.equal(allows({ verbs: ['get'], nonResourceURLs: ['/healthz'] }, url('get', '/healthz/etcd')), false);
  assert.equal(allows({ verbs: ['get'], nonResourceURLs: ['/healthz*'] }, url('get', '/healthz/etcd')), true);
  assert.equal(allows({ verbs: ['get'], nonResourceURLs: ['/apis/*'] }, url('get', '/apis')), false);
  assert.equal(allows({ verbs: ['get'], nonResourceURLs: ['/apis/*'] }, url('get', '/apis/apps')), true);
  assert.equal(allows({ verbs: ['get'], nonResourceURLs: ['/healthz'] }, url('post', '/healthz')), false);
  assert.equal(allows({ verbs: ['get'], apiGroups: ['*'], resources: ['*'] }, url('get', '/healthz')), false);
  assert.equal(allows({ verbs: ['get'], nonResourceURLs: ['*'] }, res('get', 'pods')), false);
});

void test('malformed stored rules match nothing instead of throwing', () => {
  assert.equal(allows({ verbs: 'get' } as unknown as PolicyRule, res('get', 'pods')), false);
  assert.equal(ruleAllows(res('get', 'pods'), normalizeRule(null)), false);
  assert.equal(allows({ verbs: ['get', 7], apiGroups: [''], resources: ['pods'] } as unknown as PolicyRule, res('get', 'pods')), true);
});
