import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject, UserInfo } from '../../machinery/objects.ts';
import type { ResourceDef } from '../../api/types.ts';
import type { Authenticator } from '../../request/authenticator.ts';
import type { Attributes, Authorizer } from '../../request/authorizer.ts';
import { unionAuthorizer, privilegedGroups } from '../../authz/union.ts';
import { StatusError } from '../../machinery/errors.ts';
import type { OpContext } from '../rest.ts';
import { reviewStorageFor, type ReviewDeps } from './index.ts';

const def = (group: string, resource: string, kind: string, namespaced = false): ResourceDef => ({
  group, version: 'v1', resource, singular: kind.toLowerCase(), kind, listKind: `${kind}List`, namespaced, verbs: ['create'],
  nameRule: 'dns1123-subdomain', storagePrefix: `/registry/${resource}/`, virtual: true,
});
const AZ = 'authorization.k8s.io';
const ctx = (user: UserInfo, namespace = ''): OpContext => ({ namespace, user, dryRun: false, subresource: '', warnings: [] });
const jane: UserInfo = { username: 'jane', groups: ['dev', 'system:authenticated'] };
const obj = (kind: string, spec: object, metadata: object = {}): KObject => ({ apiVersion: `${AZ}/v1`, kind, metadata, spec } as KObject);

function deps(authorizer: Authorizer, authenticator?: Authenticator): ReviewDeps {
  return { authorizer: () => authorizer, authenticator: () => authenticator ?? { name: 'none', authenticate: () => ({ kind: 'no-opinion' }) } };
}

void test('access reviews: the attributes the authorizer sees (version * when empty; SSAR asks about the caller)', async () => {
  const seen: Attributes[] = [];
  const authz: Authorizer = { name: 'rec', authorize: (a) => { seen.push(a); return { kind: 'no-opinion' }; } };
  const sar = reviewStorageFor(def(AZ, 'subjectaccessreviews', 'SubjectAccessReview'), deps(authz))!;
  const out = await sar.create(ctx(jane), obj('SubjectAccessReview', {
    user: 'bob', uid: 'u1', groups: ['g'], extra: { scopes: ['a'] }, resourceAttributes: { verb: 'get', group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'ns', name: 'd' },
  }), {});
  assert.deepEqual(out.status, { allowed: false });
  assert.deepEqual(seen[0], {
    user: { username: 'bob', uid: 'u1', groups: ['g'], extra: { scopes: ['a'] } }, verb: 'get', isResourceRequest: true, path: '', apiGroup: 'apps',
    apiVersion: '*', namespace: 'ns', resource: 'deployments', subresource: 'scale', name: 'd',
  });
  const ssar = reviewStorageFor(def(AZ, 'selfsubjectaccessreviews', 'SelfSubjectAccessReview'), deps(authz))!;
  await ssar.create(ctx(jane), obj('SelfSubjectAccessReview', { nonResourceAttributes: { path: '/logs', verb: 'get' } }), {});
  assert.equal(seen[1]!.user, jane);
  assert.equal(seen[1]!.isResourceRequest, false);
  assert.equal(seen[1]!.path, '/logs');
});

void test('access reviews: deny sets denied, reasons pass through, a failing authorizer is an evaluationError', async () => {
  const denier: Authorizer = { name: 'd', authorize: () => ({ kind: 'deny', reason: 'nope' }) };
  const s = reviewStorageFor(def(AZ, 'selfsubjectaccessreviews', 'SelfSubjectAccessReview'), deps(denier))!;
  const spec = { resourceAttributes: { verb: 'list', resource: 'pods' } };
  assert.deepEqual((await s.create(ctx(jane), obj('SelfSubjectAccessReview', spec), {})).status, { allowed: false, denied: true, reason: 'nope' });
  const broken: Authorizer = { name: 'b', authorize: () => { throw new Error('webhook down'); } };
  const b = reviewStorageFor(def(AZ, 'selfsubjectaccessreviews', 'SelfSubjectAccessReview'), deps(broken))!;
  assert.deepEqual((await b.create(ctx(jane), obj('SelfSubjectAccessReview', spec), {})).status, { allowed: false, evaluationError: 'webhook down' });
  // system:masters bypass through the union chain.
  const chain = unionAuthorizer([privilegedGroups(['system:masters']), denier]);
  const m = reviewStorageFor(def(AZ, 'selfsubjectaccessreviews', 'SelfSubjectAccessReview'), deps(chain))!;
  assert.deepEqual((await m.create(ctx({ username: 'root', groups: ['system:masters'] }), obj('SelfSubjectAccessReview', spec), {})).status, { allowed: true });
});

void test('access reviews: validation as kube words it', async () => {
  const a: Authorizer = { name: 'a', authorize: () => ({ kind: 'allow' }) };
  const ssar = reviewStorageFor(def(AZ, 'selfsubjectaccessreviews', 'SelfSubjectAccessReview'), deps(a))!;
  await assert.rejects(ssar.create(ctx(jane), obj('SelfSubjectAccessReview', {}), {}), (e: unknown) => e instanceof StatusError && e.code === 422
    && e.message === '.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified');
  await assert.rejects(ssar.create(ctx(jane), obj('SelfSubjectAccessReview', { resourceAttributes: {} }, { labels: { a: 'b' } }), {}),
    (e: unknown) => e instanceof StatusError && /metadata: Invalid value: v1\.ObjectMeta\{.*\}: must be empty$/.test(e.message));
  // managedFields and an empty creationTimestamp do not count as metadata.
  const ok = await ssar.create(ctx(jane), obj('SelfSubjectAccessReview', { resourceAttributes: {} }, { creationTimestamp: null, managedFields: [{ manager: 'x' }] }), {});
  assert.deepEqual(ok.status, { allowed: true });
  const lsar = reviewStorageFor(def(AZ, 'localsubjectaccessreviews', 'LocalSubjectAccessReview', true), deps(a))!;
  // Validation first (body vs resourceAttributes), then the request's namespace.
  await assert.rejects(lsar.create(ctx(jane, 'ns'), obj('LocalSubjectAccessReview', { groups: ['g'], resourceAttributes: { namespace: 'ns' } }, { namespace: 'other' }), {}),
    (e: unknown) => e instanceof StatusError && e.code === 422 && /must match metadata\.namespace$/.test(e.message));
  await assert.rejects(lsar.create(ctx(jane, 'ns'), obj('LocalSubjectAccessReview', { groups: ['g'], resourceAttributes: { namespace: 'other' } }, { namespace: 'other' }), {}),
    (e: unknown) => e instanceof StatusError && e.code === 400 && e.message === 'spec.resourceAttributes.namespace must match namespace: ns');
  const res = await lsar.create(ctx(jane, 'ns'), obj('LocalSubjectAccessReview', { groups: ['g'], resourceAttributes: { namespace: 'ns' } }, { namespace: 'ns' }), {});
  assert.deepEqual(res.status, { allowed: true });
});

void test('rules review: union of the members that list rules; incomplete and errors as kube reports them', async () => {
  const listing: Authorizer = { name: 'l', authorize: () => ({ kind: 'no-opinion' }), rulesFor: (_u, ns) => ({ resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: [`pods-in-${ns}`] }], nonResourceRules: [], incomplete: false }) };
  const partial: Authorizer = { name: 'p', authorize: () => ({ kind: 'no-opinion' }), rulesFor: () => ({ resourceRules: [], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }], incomplete: true, errors: ['a failed'] }) };
  const throwing: Authorizer = { name: 't', authorize: () => ({ kind: 'no-opinion' }), rulesFor: () => { throw new Error('b failed'); } };
  const chain = unionAuthorizer([privilegedGroups(['system:masters']), listing, partial, throwing]);
  const s = reviewStorageFor(def(AZ, 'selfsubjectrulesreviews', 'SelfSubjectRulesReview'), deps(chain))!;
  const out = await s.create(ctx(jane), obj('SelfSubjectRulesReview', { namespace: 'dev' }), {});
  assert.deepEqual(out.status, {
    resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods-in-dev'] }],
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }],
    incomplete: true,
    evaluationError: '[a failed, b failed]',
  });
  await assert.rejects(s.create(ctx(jane), obj('SelfSubjectRulesReview', {}), {}), (e: unknown) => e instanceof StatusError && e.code === 400 && e.message === 'no namespace on request');
});

void test('token review: through the authenticator with only the bearer header; errors reported, not thrown', async () => {
  const asked: (string | undefined)[] = [];
  const authn: Authenticator = {
    name: 'a',
    authenticate: (req) => {
      asked.push(req.header('authorization'), req.header('impersonate-user'));
      return req.header('authorization') === 'Bearer good' ? { kind: 'authenticated', method: 't', user: { username: 'u', groups: ['system:authenticated'] } } : { kind: 'error', message: 'invalid bearer token' };
    },
  };
  const t = reviewStorageFor(def('authentication.k8s.io', 'tokenreviews', 'TokenReview'), { ...deps({ name: 'x', authorize: () => ({ kind: 'allow' }) }, authn), apiAudiences: ['https://kubernetes.default.svc'] })!;
  const tr = (spec: object): KObject => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: {}, spec } as KObject);
  const good = await t.create(ctx(jane), tr({ token: 'good' }), {});
  assert.deepEqual(asked, ['Bearer good', undefined]);
  assert.deepEqual(good.status, { authenticated: true, user: { username: 'u', groups: ['system:authenticated'] }, audiences: ['https://kubernetes.default.svc'] });
  assert.deepEqual(((await t.create(ctx(jane), tr({ token: 'good', audiences: ['other', 'https://kubernetes.default.svc'] }), {})).status as { audiences?: string[] }).audiences, ['https://kubernetes.default.svc']);
  assert.deepEqual((await t.create(ctx(jane), tr({ token: 'good', audiences: ['other'] }), {})).status, { user: {} });
  assert.deepEqual((await t.create(ctx(jane), tr({ token: 'bad' }), {})).status, { user: {}, error: 'invalid bearer token' });
});

void test('reviews refuse every verb but create (405); non-review virtual defs get no storage', async () => {
  const s = reviewStorageFor(def(AZ, 'selfsubjectrulesreviews', 'SelfSubjectRulesReview'), deps({ name: 'x', authorize: () => ({ kind: 'allow' }) }))!;
  await assert.rejects(s.get(ctx(jane), 'x', {}), (e: unknown) => e instanceof StatusError && e.code === 405);
  await assert.rejects(s.list(ctx(jane), {}), (e: unknown) => e instanceof StatusError && e.code === 405);
  assert.equal(reviewStorageFor(def('example.com', 'widgets', 'Widget'), deps({ name: 'x', authorize: () => ({ kind: 'allow' }) })), undefined);
});

void test('access reviews: selectors in resourceAttributes are validated; unparsable ones become evaluation errors', async () => {
  const a: Authorizer = { name: 'a', authorize: () => ({ kind: 'allow' }) };
  const s = reviewStorageFor(def(AZ, 'selfsubjectaccessreviews', 'SelfSubjectAccessReview'), deps(a))!;
  const review = (ra: object) => s.create(ctx(jane), obj('SelfSubjectAccessReview', { resourceAttributes: { verb: 'list', resource: 'pods', ...ra } }), {});
  await assert.rejects(review({ labelSelector: {} }), (e: unknown) => e instanceof StatusError && e.message
    === '.authorization.k8s.io "" is invalid: spec.resourceAttributes.labelSelector.requirements: Required value: when spec.resourceAttributes.labelSelector is specified, requirements or rawSelector is required');
  await assert.rejects(review({ fieldSelector: { rawSelector: 'a=b', requirements: [{ key: 'a', operator: 'In', values: ['b'] }] } }),
    (e: unknown) => e instanceof StatusError && /spec\.resourceAttributes\.fieldSelector\.rawSelector: Invalid value: "a=b": may not specified at the same time as requirements$/.test(e.message));
  assert.deepEqual((await review({ labelSelector: { rawSelector: 'app=web' } })).status, { allowed: true });
  assert.deepEqual((await review({ labelSelector: { rawSelector: 'app in (' } })).status,
    { allowed: true, evaluationError: 'spec.resourceAttributes.labelSelector ignored due to parse error' });
  assert.deepEqual((await review({
    fieldSelector: { requirements: [{ key: 'spec.nodeName', operator: 'In', values: ['n1'] }, { key: 'x', operator: 'Exists' }] },
    labelSelector: { requirements: [{ key: 'a', operator: 'Bogus' }] },
  })).status, { allowed: true, evaluationError: 'spec.resourceAttributes.fieldSelector partially ignored due to parse error; spec.resourceAttributes.labelSelector ignored due to parse error' });
});

void test('metadata must be empty: the bad value is Go\'s %#v of the ObjectMeta', async () => {
  const a: Authorizer = { name: 'a', authorize: () => ({ kind: 'allow' }) };
  const s = reviewStorageFor(def(AZ, 'selfsubjectaccessreviews', 'SelfSubjectAccessReview'), deps(a))!;
  await assert.rejects(s.create(ctx(jane), obj('SelfSubjectAccessReview', { resourceAttributes: {} }, { name: 'x', labels: { b: '2', a: '1' } }), {}),
    (e: unknown) => e instanceof StatusError && e.message === '.authorization.k8s.io "" is invalid: metadata: Invalid value: v1.ObjectMeta{Name:"x", GenerateName:"", Namespace:"", SelfLink:"", UID:"", ResourceVersion:"", Generation:0, '
      + 'CreationTimestamp:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC), DeletionTimestamp:<nil>, DeletionGracePeriodSeconds:(*int64)(nil), Labels:map[string]string{"a":"1", "b":"2"}, '
      + 'Annotations:map[string]string(nil), OwnerReferences:[]v1.OwnerReference(nil), Finalizers:[]string(nil), ManagedFields:[]v1.ManagedFieldsEntry(nil)}: must be empty');
});
