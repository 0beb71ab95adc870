import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AdmissionAttributes } from '../../registry/admission.ts';
import type { Authorizer } from '../../request/authorizer.ts';
import {
  admissionRequest, compileExpression, declarations, dynToCel, Evaluation, namespaceObject, OutOfBudget, RequestAuthorizer, VariableSet, withAuthorizerAnswers,
} from './cel.ts';
import { compileValidatingPolicy, dispatchValidating } from './validating.ts';
import { Namespaces } from './source.ts';

const opts = { hasParams: true, hasAuthorizer: true };

function attrs(over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    operation: 'CREATE', kind: { group: '', version: 'v1', kind: 'ConfigMap' }, resource: { group: '', version: 'v1', resource: 'configmaps' }, subresource: '',
    requestKind: { group: '', version: 'v1', kind: 'ConfigMap' }, requestResource: { group: '', version: 'v1', resource: 'configmaps' }, requestSubResource: '',
    name: 'c', namespace: '', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } }, oldObject: undefined, options: undefined,
    dryRun: false, user: { username: 'alice', uid: 'u1', groups: ['devs'], extra: {} }, warnings: [], auditAnnotations: {}, reinvocation: { requested: false, running: false },
    ...over,
  };
}

void test('compile: kube\'s wording for syntax errors, wrong result types, unknown request fields', () => {
  const d = declarations(opts, undefined);
  assert.match(compileExpression('object.x +', d).error!, /^compilation failed: ERROR: <input>:1:\d+: Syntax error:/);
  assert.equal(compileExpression("'x'", d).error, 'must evaluate to bool but got string');
  assert.match(compileExpression('request.nope == 1', d).error!, /undefined field 'nope'/);
  assert.equal(compileExpression("request.userInfo.username == 'a' && request.kind.kind == 'ConfigMap'", d).error, undefined);
  assert.match(compileExpression('params.x == 1', declarations({ hasParams: false, hasAuthorizer: true }, undefined)).error!, /undeclared reference to 'params'/);
  assert.match(compileExpression("authorizer.path('/x').check('get').allowed()", declarations({ hasParams: false, hasAuthorizer: false }, undefined)).error!, /undeclared reference to 'authorizer'/);
});

void test('request and namespaceObject carry what kube puts there; namespaceObject is null for cluster-scoped requests', () => {
  const a = attrs({ namespace: 'ns1', dryRun: true });
  const req = admissionRequest(a, a.resource, a.kind);
  assert.deepEqual(req['userInfo'], { username: 'alice', uid: 'u1', groups: ['devs'] });
  assert.equal(req['namespace'], 'ns1');
  assert.equal(req['dryRun'], true);
  assert.equal('subResource' in req, false);
  const ns = namespaceObject({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1', uid: 'x', labels: { a: 'b' }, managedFields: [] }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
  const d = declarations(opts, undefined);
  const ev = new Evaluation({ object: null, oldObject: null, request: req, namespaceObject: ns, params: null }, undefined, 1e7);
  assert.deepEqual(ev.run(compileExpression("namespaceObject.metadata.labels['a'] == 'b' && namespaceObject.status.phase == 'Active' && request.dryRun", d)), { value: true });
  const cluster = new Evaluation({ object: null, oldObject: null, request: req, namespaceObject: null, params: null }, undefined, 1e7);
  assert.deepEqual(cluster.run(compileExpression('namespaceObject == null && object == null', d)), { value: true });
});

void test('variables: lazy, evaluated once, later ones see earlier ones; errors name the variable', () => {
  const vs = new VariableSet();
  vs.add('n', compileExpression('size(object.data)', declarations(opts, vs), ['any']));
  vs.add('twice', compileExpression('variables.n * 2', declarations(opts, vs), ['any']));
  vs.add('broken', compileExpression('object.missing.x', declarations(opts, vs), ['any']));
  assert.match(compileExpression('variables.later == 1', declarations(opts, vs)).error!, /undefined field 'later'/);
  const ev = new Evaluation({ object: dynToCel({ data: { a: '1', b: '2' } }), oldObject: null, request: {}, namespaceObject: null, params: null }, vs, 1e7);
  assert.deepEqual(ev.run(compileExpression('variables.twice == 4 && variables.n == 2', declarations(opts, vs))), { value: true });
  assert.deepEqual(ev.run(compileExpression('variables.broken == 1', declarations(opts, vs))),
    { error: "expression 'variables.broken == 1' resulted in error: composited variable \"broken\" fails to evaluate: no such key: missing" });
  // Unread variables are never evaluated (the broken one does not fail a policy that does not read it).
  const lazy = new Evaluation({ object: dynToCel({ data: {} }), oldObject: null, request: {}, namespaceObject: null, params: null }, vs, 1e7);
  assert.deepEqual(lazy.run(compileExpression('variables.n == 0', declarations(opts, vs))), { value: true });
});

void test('cost: the per-call limit fails one expression; the shared budget stops the evaluation', () => {
  const d = declarations(opts, undefined);
  const expensive = compileExpression("[1,2,3,4,5,6,7,8,9,10].all(i, [1,2,3,4,5,6,7,8,9,10].all(j, [1,2,3,4,5,6,7,8,9,10].all(k, object.s.matches('^(a|b)*c$'))))", d);
  const ev = new Evaluation({ object: dynToCel({ s: `${'ab'.repeat(40_000)}c` }), oldObject: null, request: {}, namespaceObject: null, params: null }, undefined, 1e7);
  assert.match(ev.run(expensive).error!, /resulted in error: operation cancelled: actual cost limit exceeded$/);
  const cheap = compileExpression("object.s.matches('^(a|b)*c$')", d);
  const small = new Evaluation({ object: dynToCel({ s: 'ab'.repeat(40_000) }), oldObject: null, request: {}, namespaceObject: null, params: null }, undefined, 10);
  assert.throws(() => small.run(cheap), (e: unknown) => e instanceof OutOfBudget && e.message === 'validation failed due to running out of cost budget, no further validation rules will be run');
});

void test('authorizer: answers from a promise make the evaluation run again; checks cost 350000', async () => {
  let calls = 0;
  const authz: Authorizer = {
    name: 'test',
    authorize: async (a) => {
      calls++;
      return a.resource === 'secrets' && a.user.username === 'alice' ? { kind: 'allow', reason: 'granted' } : { kind: 'no-opinion', reason: 'no rule' };
    },
  };
  const a = attrs();
  const ra = new RequestAuthorizer(authz, a);
  const d = declarations(opts, undefined);
  const c = compileExpression("authorizer.group('').resource('secrets').namespace('x').check('get').allowed() && !authorizer.serviceAccount('ns', 'sa').group('').resource('secrets').check('get').allowed()", d);
  assert.equal(c.program!.estimatedCost.max >= 700_000, true);
  const r = await withAuthorizerAnswers(ra, () => new Evaluation({ object: null, oldObject: null, request: {}, namespaceObject: null, params: null, authorizer: ra.value(a.resource) }, undefined, 1e7).run(c));
  assert.deepEqual(r, { value: true });
  assert.equal(calls, 2);
  const reason = compileExpression("authorizer.requestResource.check('create').reason() == 'no rule'", d);
  assert.deepEqual(await withAuthorizerAnswers(ra, () => new Evaluation({ object: null, oldObject: null, request: {}, namespaceObject: null, params: null, authorizer: ra.value(a.resource) }, undefined, 1e7).run(reason)), { value: true });
});

void test('dispatch: Audit publishes kube\'s validation_failure annotation and policy audit annotations', async () => {
  const policy = {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p', uid: '1', resourceVersion: '1' },
    spec: {
      matchConstraints: { resourceRules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
      validations: [{ expression: 'true' }, { expression: "!('a' in object.data)", message: 'no <a> keys' }],
      auditAnnotations: [{ key: 'seen', valueExpression: "'name=' + object.metadata.name" }, { key: 'nothing', valueExpression: 'null' }],
    },
  };
  const binding = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Audit', 'Warn'] } };
  const a = attrs();
  const namespaces = { cached: () => undefined, get: async () => { throw new Error('no namespaces'); } } as unknown as Namespaces;
  await dispatchValidating(a, [{ policy, bindings: [binding], compiled: compileValidatingPolicy(policy) }], {
    match: { namespaceLabels: async () => ({}), equivalents: () => [], kindFor: () => undefined }, namespaces,
    authorizer: () => ({ name: 'x', authorize: () => ({ kind: 'no-opinion' }) }),
  });
  assert.deepEqual(a.auditAnnotations, {
    'validation.policy.admission.k8s.io/validation_failure': '[{"message":"no \\u003ca\\u003e keys","policy":"p","binding":"b","expressionIndex":1,"validationActions":["Audit","Warn"]}]',
    'p/seen': 'name=c',
  });
  assert.deepEqual(a.warnings, ["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': no <a> keys"]);
});
