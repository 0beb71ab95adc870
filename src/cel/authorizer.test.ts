import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileCel } from './index.ts';
import { admissionVariables } from './admission.ts';
import { authorizerVariables, withAuthorizer } from './authorizer.ts';
import type { Attributes, Authorizer } from '../request/authorizer.ts';

const variables = { ...admissionVariables(), ...authorizerVariables() };
const user = { username: 'alice', groups: ['devs'] };

function recordingAuthorizer(allow: (a: Attributes) => boolean): Authorizer & { asked: Attributes[] } {
  const asked: Attributes[] = [];
  return {
    name: 'test',
    asked,
    async authorize(a) {
      asked.push(a);
      await new Promise((r) => setTimeout(r, 1));
      return allow(a) ? { kind: 'allow', reason: 'ok' } : { kind: 'no-opinion', reason: 'nope' };
    },
  };
}

async function run(expr: string, authz: Authorizer, extra: Record<string, unknown> = {}): Promise<unknown> {
  const p = compileCel(expr, { profile: 'admission', variables });
  const request = { group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'ns', name: 'd' };
  return withAuthorizer(authz, user, request, (vars) => p.evaluate({ object: null, oldObject: null, request: null, namespaceObject: null, ...extra, ...vars }).value);
}

test('authz library: resource and path checks reach the authorizer with kube attributes', async () => {
  const authz = recordingAuthorizer((a) => a.resource === 'pods' && a.verb === 'create');
  assert.equal(await run("authorizer.group('').resource('pods').namespace('x').name('p').subresource('exec').check('create').allowed()", authz), true);
  assert.deepEqual(authz.asked[0], {
    user, verb: 'create', isResourceRequest: true, path: '', apiGroup: '', apiVersion: '*', namespace: 'x', resource: 'pods',
    subresource: 'exec', name: 'p',
  });
  assert.equal(await run("authorizer.path('/healthz').check('get').reason()", authz), 'nope');
  assert.equal(authz.asked[1]!.isResourceRequest, false);
  assert.equal(authz.asked[1]!.path, '/healthz');
});

test('authz library: requestResource, serviceAccount, selectors, several checks in one expression', async () => {
  const authz = recordingAuthorizer((a) => a.user.username.startsWith('system:serviceaccount:') || a.resource === 'deployments');
  assert.equal(await run("authorizer.requestResource.check('update').allowed()", authz), true);
  assert.equal(authz.asked[0]!.subresource, 'scale');
  assert.equal(authz.asked[0]!.namespace, 'ns');
  assert.equal(await run("authorizer.serviceAccount('kube-system', 'gc').group('').resource('pods').check('delete').allowed() && !authorizer.group('').resource('secrets').check('get').allowed()", authz), true);
  const sa = authz.asked.find((a) => a.user.username === 'system:serviceaccount:kube-system:gc')!;
  assert.deepEqual(sa.user.groups, ['system:serviceaccounts', 'system:serviceaccounts:kube-system']);
  await run("authorizer.group('').resource('pods').fieldSelector('spec.nodeName=n1').labelSelector('a in (b)').check('list').allowed()", authz);
  const sel = authz.asked.at(-1)!;
  assert.deepEqual(sel.fieldSelectorRequirements, [{ field: 'spec.nodeName', operator: '=', value: 'n1' }]);
  assert.equal(sel.labelSelectorRequirements?.length, 1);
});

test('authz library: errors and cost', async () => {
  const authz = recordingAuthorizer(() => true);
  await assert.rejects(run("authorizer.path('').check('get').allowed()", authz), /path must not be empty/);
  await assert.rejects(run("authorizer.group('').resource(' ').check('get').allowed()", authz), /resource must not be empty/);
  await assert.rejects(run("authorizer.serviceAccount('ns', 'Bad_Name').path('/x').check('get').allowed()", authz), /Invalid service account name/);
  const failing: Authorizer = { name: 'f', authorize: () => ({ kind: 'no-opinion', reason: '', error: 'webhook down' }) };
  assert.equal(await run("authorizer.path('/x').check('get').errored() && authorizer.path('/x').check('get').error() == 'webhook down'", failing), true);
  const p = compileCel("authorizer.path('/x').check('get').allowed()", { profile: 'admission', variables });
  assert.ok(p.estimatedCost.max >= 350_000);
});
