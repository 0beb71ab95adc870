/**
 * Review resources through a real server: SelfSubjectReview, TokenReview, the access reviews and the rules
 * review answer 201 with a computed status (nothing stored), validate as kube-apiserver does, and other verbs
 * are 405.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.ts';

let allow: TestServer;
let deny: TestServer;
let dir = '';
const AUTHN = '/apis/authentication.k8s.io/v1';
const AUTHZ = '/apis/authorization.k8s.io/v1';

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-reviews-'));
  const tokens = path.join(dir, 'tokens.csv');
  writeFileSync(tokens, 'sekret,alice,uid-a,"devs,ops"\n');
  allow = await startTestServer({ tokenAuthFile: tokens, authorizationMode: ['AlwaysAllow'] });
  deny = await startTestServer({ authorizationMode: ['AlwaysDeny'], tokenAuthFile: tokens });
});
after(async () => {
  await allow?.stop();
  await deny?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const ssar = (spec: object) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec });

void test('SelfSubjectReview: the caller as authenticated, creationTimestamp set', async () => {
  const r = await allow.request('POST', `${AUTHN}/selfsubjectreviews`, { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
  assert.equal(r.status, 201, r.text);
  const o = r.json();
  assert.equal(o.kind, 'SelfSubjectReview');
  assert.equal(o.apiVersion, 'authentication.k8s.io/v1');
  assert.match(o.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.equal(o.status.userInfo.username, 'kubernetes-admin');
  assert.deepEqual(o.status.userInfo.groups, ['system:masters', 'system:authenticated']);
  const t = await allow.request('POST', `${AUTHN}/selfsubjectreviews`, { user: { token: 'sekret' }, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
  assert.deepEqual(t.json().status.userInfo, { username: 'alice', uid: 'uid-a', groups: ['devs', 'ops', 'system:authenticated'] });
});

void test('SelfSubjectReview: impersonation is what the review reports', async () => {
  const r = await allow.request('POST', `${AUTHN}/selfsubjectreviews`, {
    headers: { 'Impersonate-User': 'bob', 'Impersonate-Group': 'team' }, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
  });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json().status.userInfo, { username: 'bob', groups: ['team', 'system:authenticated'] });
});

void test('TokenReview: a known token authenticates, an unknown one does not, an empty one is 400', async () => {
  const tr = (token: string) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } });
  const good = await allow.request('POST', `${AUTHN}/tokenreviews`, { body: tr('sekret') });
  assert.equal(good.status, 201, good.text);
  // Audience-agnostic credentials are valid for the API's own audiences, which kube reports (the SA issuer by default).
  assert.deepEqual(good.json().status, {
    authenticated: true, user: { username: 'alice', uid: 'uid-a', groups: ['devs', 'ops', 'system:authenticated'] },
    audiences: ['https://kubernetes.default.svc.cluster.local'],
  });
  assert.deepEqual(good.json().spec, { token: 'sekret' });
  const bad = await allow.request('POST', `${AUTHN}/tokenreviews`, { body: tr('nope') });
  assert.equal(bad.status, 201);
  assert.deepEqual(bad.json().status, { user: {}, error: 'invalid bearer token' });
  const empty = await allow.request('POST', `${AUTHN}/tokenreviews`, { body: tr('') });
  assert.equal(empty.status, 400);
  assert.equal(empty.json().message, 'token is required for TokenReview in authentication');
  // Audiences other than the API's: audience-agnostic tokens are not valid for them.
  const aud = await allow.request('POST', `${AUTHN}/tokenreviews`, { body: { ...tr('sekret'), spec: { token: 'sekret', audiences: ['vault'] } } });
  assert.equal(aud.json().status.authenticated, undefined);
});

void test('SelfSubjectAccessReview: allowed under AlwaysAllow; AlwaysDeny denies a token user with its reason; masters bypass', async () => {
  const spec = { resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } };
  const a = await allow.request('POST', `${AUTHZ}/selfsubjectaccessreviews`, { body: ssar(spec) });
  assert.equal(a.status, 201, a.text);
  assert.deepEqual(a.json().status, { allowed: true });
  assert.deepEqual(a.json().spec, spec);
  assert.equal(a.json().metadata.creationTimestamp, null);
  const m = await deny.request('POST', `${AUTHZ}/selfsubjectaccessreviews`, { body: ssar(spec) });
  assert.deepEqual(m.json().status, { allowed: true });
  // The token user may not even create the review under AlwaysDeny (403 from the chain).
  const t = await deny.request('POST', `${AUTHZ}/selfsubjectaccessreviews`, { user: { token: 'sekret' }, body: ssar(spec) });
  assert.equal(t.status, 403);
});

void test('SubjectAccessReview: asks about the user in the spec', async () => {
  const sar = (spec: object) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec });
  const d = await deny.request('POST', `${AUTHZ}/subjectaccessreviews`, { body: sar({ user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods' } }) });
  assert.equal(d.status, 201, d.text);
  assert.deepEqual(d.json().status, { allowed: false, reason: 'Everything is forbidden.' });
  const m = await deny.request('POST', `${AUTHZ}/subjectaccessreviews`, { body: sar({ user: 'root', groups: ['system:masters'], nonResourceAttributes: { path: '/healthz', verb: 'get' } }) });
  assert.deepEqual(m.json().status, { allowed: true });
  const bad = await allow.request('POST', `${AUTHZ}/subjectaccessreviews`, { body: sar({}) });
  assert.equal(bad.status, 422);
  assert.equal(bad.json().reason, 'Invalid');
  assert.equal(bad.json().message, '.authorization.k8s.io "" is invalid: [spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]');
  assert.deepEqual(bad.json().details.causes[1], { reason: 'FieldValueInvalid', message: 'Invalid value: "": at least one of user or group must be specified', field: 'spec.user' });
  const both = await allow.request('POST', `${AUTHZ}/subjectaccessreviews`, {
    body: sar({ user: 'a', resourceAttributes: { verb: 'get' }, nonResourceAttributes: { path: '/x', verb: 'get' } }),
  });
  assert.equal(both.json().message, '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes');
  const named = await allow.request('POST', `${AUTHZ}/subjectaccessreviews`, { body: { ...sar({ user: 'a', resourceAttributes: { verb: 'get' } }), metadata: { name: 'x' } } });
  assert.equal(named.status, 422);
  assert.match(named.json().message, /metadata: Invalid value: .*: must be empty$/);
});

void test('LocalSubjectAccessReview: namespace of the URL, body and resourceAttributes must agree', async () => {
  const lsar = (ns: string | undefined, spec: object) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', metadata: ns ? { namespace: ns } : {}, spec });
  const ok = await allow.request('POST', `${AUTHZ}/namespaces/default/localsubjectaccessreviews`, { body: lsar(undefined, { user: 'a', resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' } }) });
  assert.equal(ok.status, 201, ok.text);
  assert.equal(ok.json().metadata.namespace, 'default');
  assert.deepEqual(ok.json().status, { allowed: true });
  const mismatch = await allow.request('POST', `${AUTHZ}/namespaces/default/localsubjectaccessreviews`, { body: lsar(undefined, { user: 'a', resourceAttributes: { namespace: 'other', verb: 'get' } }) });
  assert.equal(mismatch.status, 422);
  assert.equal(mismatch.json().message, '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace');
  const nonRes = await allow.request('POST', `${AUTHZ}/namespaces/default/localsubjectaccessreviews`, { body: lsar(undefined, { user: 'a', nonResourceAttributes: { path: '/x', verb: 'get' } }) });
  assert.match(nonRes.json().message, /spec\.nonResourceAttributes: Invalid value: .*: disallowed on this kind of request$/);
  const other = await allow.request('POST', `${AUTHZ}/namespaces/default/localsubjectaccessreviews`, { body: lsar('other', { user: 'a', resourceAttributes: { namespace: 'other', verb: 'get' } }) });
  assert.equal(other.status, 400);
});

void test('SelfSubjectRulesReview: namespace required; AlwaysAllow lists everything, AlwaysDeny nothing', async () => {
  const ssrr = (spec: object) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec });
  const a = await allow.request('POST', `${AUTHZ}/selfsubjectrulesreviews`, { body: ssrr({ namespace: 'default' }) });
  assert.equal(a.status, 201, a.text);
  assert.deepEqual(a.json().status, {
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
  });
  const d = await deny.request('POST', `${AUTHZ}/selfsubjectrulesreviews`, { body: ssrr({ namespace: 'default' }) });
  assert.deepEqual(d.json().status, { resourceRules: [], nonResourceRules: [], incomplete: false });
  const none = await allow.request('POST', `${AUTHZ}/selfsubjectrulesreviews`, { body: ssrr({}) });
  assert.equal(none.status, 400);
  assert.equal(none.json().message, 'no namespace on request');
});

void test('reviews: dryRun answers the same; other verbs are 405; nothing is listed', async () => {
  const r = await allow.request('POST', `${AUTHZ}/selfsubjectaccessreviews?dryRun=All`, { body: ssar({ nonResourceAttributes: { path: '/version', verb: 'get' } }) });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.json().status.allowed, true);
  assert.equal((await allow.request('GET', `${AUTHZ}/selfsubjectaccessreviews`)).status, 405);
  assert.equal((await allow.request('GET', `${AUTHN}/tokenreviews/x`)).status, 405);
  assert.equal((await allow.request('DELETE', `${AUTHN}/tokenreviews/x`)).status, 405);
});
