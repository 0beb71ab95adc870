// ValidatingAdmissionPolicy on a real server: denials as kube words them, Warn, params from ConfigMaps, the
// authorizer library under RBAC, namespaceObject, variables, failurePolicy, type checking, many bindings, and
// the validation of the policy objects themselves.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';
import { as, clusterRole, clusterRoleBinding, RBAC, tokenUsers, user } from './rbac-helpers.ts';

const AR = '/apis/admissionregistration.k8s.io/v1';
let srv: TestServer;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'keelson-vap-'));
  srv = await startTestServer({ tokenAuthFile: tokenUsers(dir) });
});
after(async () => {
  await srv?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const rules = (resources: string[], operations = ['CREATE', 'UPDATE']) => [{ apiGroups: [''], apiVersions: ['v1'], operations, resources }];

function policy(name: string, spec: Record<string, unknown>) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name },
    spec: { failurePolicy: 'Fail', ...spec, matchConstraints: { resourceRules: rules(['configmaps']), ...(spec['matchConstraints'] as object ?? {}) } },
  };
}
function binding(name: string, policyName: string, spec: Record<string, unknown> = {}) {
  return { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName, validationActions: ['Deny'], ...spec } };
}
const cm = (name: string, ns: string, data: Record<string, string> = {}, labels: Record<string, string> = {}) =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, labels }, data });

async function create(path: string, body: unknown, expect = 201): Promise<void> {
  const r = await srv.request('POST', path, { body });
  assert.equal(r.status, expect, r.text);
}
async function namespace(name: string, labels: Record<string, string> = {}): Promise<void> {
  await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
}
/** Creates a policy and binding scoped to one namespace, and waits until the policy is in force. */
async function install(ns: string, p: ReturnType<typeof policy>, b: ReturnType<typeof binding>, probe: { data?: Record<string, string>; status: number }): Promise<void> {
  (b.spec as Record<string, unknown>)['matchResources'] ??= { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } } };
  await create(`${AR}/validatingadmissionpolicies`, p);
  await create(`${AR}/validatingadmissionpolicybindings`, b);
  let i = 0;
  await eventually(`policy ${p.metadata.name} in force`, async () => {
    const name = `probe-${i++}`;
    const r = await srv.request('POST', `/api/v1/namespaces/${ns}/configmaps?dryRun=All`, { body: cm(name, ns, probe.data ?? {}) });
    return r.status === probe.status;
  });
}

void test('Deny: message, messageExpression and reason give kube\'s Status; other namespaces pass', async () => {
  await namespace('vap-deny');
  await install('vap-deny', policy('deny-bad', {
    validations: [
      { expression: "!has(object.data) || !('bad' in object.data)", message: 'no bad keys' },
      { expression: 'object.metadata.name.size() < 10', messageExpression: "'name ' + object.metadata.name + ' is too long'", reason: 'Forbidden' },
      { expression: "!has(object.data) || !('big' in object.data)", reason: 'RequestEntityTooLarge' },
    ],
  }), binding('deny-bad', 'deny-bad'), { data: { bad: 'x' }, status: 422 });

  const r = await srv.request('POST', '/api/v1/namespaces/vap-deny/configmaps', { body: cm('x', 'vap-deny', { bad: '1' }) });
  const message = "configmaps \"x\" is forbidden: ValidatingAdmissionPolicy 'deny-bad' with binding 'deny-bad' denied request: no bad keys";
  assert.deepEqual(r.json(), {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Invalid',
    details: { name: 'x', kind: 'configmaps', causes: [{ message: "ValidatingAdmissionPolicy 'deny-bad' with binding 'deny-bad' denied request: no bad keys" }] }, code: 422,
  });
  const long = await srv.request('POST', '/api/v1/namespaces/vap-deny/configmaps', { body: cm('much-too-long-name', 'vap-deny') });
  assert.equal(long.status, 403);
  assert.equal(long.json().reason, 'Forbidden');
  assert.match(long.json().message, /denied request: name much-too-long-name is too long$/);
  const big = await srv.request('POST', '/api/v1/namespaces/vap-deny/configmaps', { body: cm('b', 'vap-deny', { big: '1' }) });
  assert.equal(big.status, 413);
  assert.match(big.json().message, /denied request: failed expression: !has\(object.data\) \|\| !\('big' in object.data\)$/);
  assert.equal((await srv.request('POST', '/api/v1/namespaces/vap-deny/configmaps', { body: cm('ok', 'vap-deny', { good: '1' }) })).status, 201);
  assert.equal((await srv.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('vap-elsewhere', 'default', { bad: '1' }) })).status, 201);
});

void test('Warn: the request passes with kube\'s Warning header', async () => {
  await namespace('vap-warn');
  await install('vap-warn', policy('warn-bad', { validations: [{ expression: "!has(object.data) || !('bad' in object.data)", message: 'bad is discouraged' }] }),
    binding('warn-bad', 'warn-bad', { validationActions: ['Warn', 'Audit'] }), { status: 201 });
  let r;
  await eventually('warning', async () => {
    r = await srv.request('POST', '/api/v1/namespaces/vap-warn/configmaps?dryRun=All', { body: cm('w', 'vap-warn', { bad: '1' }) });
    return String(r.headers['warning'] ?? '').includes('bad is discouraged');
  });
  assert.equal(r!.status, 201);
  assert.equal(r!.headers['warning'], "299 - \"Validation failed for ValidatingAdmissionPolicy 'warn-bad' with binding 'warn-bad': bad is discouraged\"");
});

void test('params: a ConfigMap by name and by selector; parameterNotFoundAction', async () => {
  await namespace('vap-params');
  await create('/api/v1/namespaces/vap-params/configmaps', cm('limits', 'vap-params', { max: '2' }, { role: 'limits' }));
  const p = policy('max-keys', {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    validations: [{ expression: '!has(object.data) || size(object.data) <= int(params.data.max)', messageExpression: "'at most ' + params.data.max + ' keys'" }],
  });
  await install('vap-params', p, binding('max-keys', 'max-keys', { paramRef: { name: 'limits', namespace: 'vap-params', parameterNotFoundAction: 'Deny' } }),
    { data: { a: '1', b: '2', c: '3' }, status: 422 });
  const r = await srv.request('POST', '/api/v1/namespaces/vap-params/configmaps', { body: cm('three', 'vap-params', { a: '1', b: '2', c: '3' }) });
  assert.match(r.json().message, /denied request: at most 2 keys$/);
  // Params are watched: raising the limit lets the same object in.
  assert.equal((await srv.request('PUT', '/api/v1/namespaces/vap-params/configmaps/limits', { body: cm('limits', 'vap-params', { max: '5' }, { role: 'limits' }) })).status, 200);
  await eventually('new limit', async () => (await srv.request('POST', '/api/v1/namespaces/vap-params/configmaps?dryRun=All', { body: cm('three', 'vap-params', { a: '1', b: '2', c: '3' }) })).status === 201);

  // By selector (in the request's namespace): every selected param must pass.
  await create(`${AR}/validatingadmissionpolicybindings`, binding('max-keys-sel', 'max-keys', {
    paramRef: { selector: { matchLabels: { role: 'limits' } }, parameterNotFoundAction: 'Allow' },
    matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'vap-params' } } },
  }));
  await create('/api/v1/namespaces/vap-params/configmaps', cm('limits-2', 'vap-params', { max: '1' }, { role: 'limits' }));
  await eventually('selector params', async () => {
    const x = await srv.request('POST', '/api/v1/namespaces/vap-params/configmaps?dryRun=All', { body: cm('two', 'vap-params', { a: '1', b: '2' }) });
    return x.status === 422 && /binding 'max-keys-sel' denied request: at most 1 keys$/.test(x.json().message);
  });

  // A missing param: Deny refuses with kube's configuration error, Allow admits.
  await namespace('vap-noparam');
  await create(`${AR}/validatingadmissionpolicybindings`, binding('max-keys-missing', 'max-keys', {
    paramRef: { name: 'absent', parameterNotFoundAction: 'Deny' },
    matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'vap-noparam' } } },
  }));
  await eventually('missing param', async () => {
    const x = await srv.request('POST', '/api/v1/namespaces/vap-noparam/configmaps?dryRun=All', { body: cm('x', 'vap-noparam') });
    return x.status === 422 && x.json().message === "configmaps \"x\" is forbidden: ValidatingAdmissionPolicy 'max-keys' with binding 'max-keys-missing' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction";
  });
});

void test('authorizer: admin may, a user without the RBAC grant may not', async () => {
  await namespace('vap-authz');
  await create(`${RBAC}/clusterroles`, clusterRole('vap-cm-writer', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get', 'list'] }]));
  await create(`${RBAC}/clusterrolebindings`, clusterRoleBinding('vap-cm-writer', { kind: 'ClusterRole', name: 'vap-cm-writer' }, [user('alice')]));
  await install('vap-authz', policy('special-needs-grant', {
    validations: [{
      expression: "!has(object.data) || !('special' in object.data) || authorizer.group('').resource('configmaps').namespace(object.metadata.namespace).subresource('special').check('create').allowed()",
      messageExpression: "'user ' + request.userInfo.username + ' may not write special configmaps'",
    }, {
      expression: "authorizer.requestResource.check('create').allowed()",
    }],
  }), binding('special-needs-grant', 'special-needs-grant'), { status: 201 });
  assert.equal((await srv.request('POST', '/api/v1/namespaces/vap-authz/configmaps', { body: cm('a', 'vap-authz', { special: '1' }) })).status, 201);
  await eventually('alice may create configmaps', async () => (await srv.request('POST', '/api/v1/namespaces/vap-authz/configmaps?dryRun=All', { body: cm('p', 'vap-authz'), user: as('alice') })).status === 201);
  const r = await srv.request('POST', '/api/v1/namespaces/vap-authz/configmaps', { body: cm('b', 'vap-authz', { special: '1' }), user: as('alice') });
  assert.equal(r.status, 422);
  assert.match(r.json().message, /denied request: user alice may not write special configmaps$/);
});

void test('namespaceObject and variables', async () => {
  await namespace('vap-ns', { tier: 'gold' });
  await install('vap-ns', policy('tier-match', {
    variables: [
      { name: 'tier', expression: "has(namespaceObject.metadata.labels) && 'tier' in namespaceObject.metadata.labels ? namespaceObject.metadata.labels['tier'] : 'none'" },
      { name: 'wanted', expression: "has(object.data) && 'tier' in object.data ? object.data['tier'] : variables.tier" },
    ],
    validations: [{ expression: 'variables.wanted == variables.tier', messageExpression: "'tier ' + variables.wanted + ' does not match namespace tier ' + variables.tier" }],
  }), binding('tier-match', 'tier-match'), { data: { tier: 'silver' }, status: 422 });
  const r = await srv.request('POST', '/api/v1/namespaces/vap-ns/configmaps', { body: cm('t', 'vap-ns', { tier: 'silver' }) });
  assert.match(r.json().message, /denied request: tier silver does not match namespace tier gold$/);
  assert.equal((await srv.request('POST', '/api/v1/namespaces/vap-ns/configmaps', { body: cm('g', 'vap-ns', { tier: 'gold' }) })).status, 201);
});

void test('failurePolicy: a runtime error refuses under Fail and is ignored under Ignore', async () => {
  await namespace('vap-fail');
  await install('vap-fail', policy('needs-key', { validations: [{ expression: "object.data['must'] == 'x'" }] }), binding('needs-key', 'needs-key'),
    { data: {}, status: 422 });
  const r = await srv.request('POST', '/api/v1/namespaces/vap-fail/configmaps', { body: cm('f', 'vap-fail', { other: '1' }) });
  assert.equal(r.json().message, "configmaps \"f\" is forbidden: ValidatingAdmissionPolicy 'needs-key' with binding 'needs-key' denied request: expression 'object.data['must'] == 'x'' resulted in error: no such key: must");
  await namespace('vap-ignore');
  const p = policy('needs-key-ignored', { failurePolicy: 'Ignore', validations: [{ expression: "object.data['must'] == 'x'" }, { expression: "!has(object.data) || !('bad' in object.data)" }] });
  await install('vap-ignore', p, binding('needs-key-ignored', 'needs-key-ignored'), { data: { bad: '1' }, status: 422 });
  assert.equal((await srv.request('POST', '/api/v1/namespaces/vap-ignore/configmaps', { body: cm('i', 'vap-ignore', { other: '1' }) })).status, 201);
});

void test('status.typeChecking: warnings for expressions the ConfigMap schema refutes, observedGeneration', async () => {
  await create(`${AR}/validatingadmissionpolicies`, policy('typed', {
    validations: [{ expression: 'object.spec.replicas > 1' }, { expression: "has(object.data)", messageExpression: "'n=' + object.metadata.name" }],
  }));
  const status = await eventually('typeChecking', async () => {
    const r = await srv.request('GET', `${AR}/validatingadmissionpolicies/typed`);
    return r.json().status?.observedGeneration === 1 ? r.json().status : undefined;
  });
  assert.equal(status.typeChecking.expressionWarnings.length, 1);
  const w = status.typeChecking.expressionWarnings[0];
  assert.equal(w.fieldRef, 'spec.validations[0].expression');
  assert.equal(w.warning, "/v1, Kind=ConfigMap: compilation failed: ERROR: <input>:1:7: undefined field 'spec'\n | object.spec.replicas > 1\n | ......^\n");
});

void test('100 bindings of one policy: each is evaluated; the first denial wins', async () => {
  await namespace('vap-many', { many: 'yes' });
  await create(`${AR}/validatingadmissionpolicies`, policy('many', {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    validations: [{ expression: "!has(object.data) || !(params.data.forbidden in object.data)", messageExpression: "'key ' + params.data.forbidden + ' is forbidden'" }],
  }));
  for (let i = 0; i < 100; i++) {
    await create('/api/v1/namespaces/vap-many/configmaps', cm(`p${String(i).padStart(3, '0')}`, 'vap-many', { forbidden: `k${i}` }));
  }
  await Promise.all(Array.from({ length: 100 }, (_, i) => create(`${AR}/validatingadmissionpolicybindings`, binding(`many-${String(i).padStart(3, '0')}`, 'many', {
    paramRef: { name: `p${String(i).padStart(3, '0')}`, namespace: 'vap-many', parameterNotFoundAction: 'Deny' },
    matchResources: { namespaceSelector: { matchLabels: { many: 'yes' } } },
  }))));
  await eventually('last binding', async () => {
    const r = await srv.request('POST', '/api/v1/namespaces/vap-many/configmaps?dryRun=All', { body: cm('x', 'vap-many', { k99: '1' }) });
    return r.status === 422 && /binding 'many-099' denied request: key k99 is forbidden$/.test(r.json().message);
  });
  const both = await srv.request('POST', '/api/v1/namespaces/vap-many/configmaps', { body: cm('y', 'vap-many', { k42: '1', k7: '1' }) });
  assert.match(both.json().message, /binding 'many-007' denied request: key k7 is forbidden$/);
  assert.equal((await srv.request('POST', '/api/v1/namespaces/vap-many/configmaps', { body: cm('z', 'vap-many', { free: '1' }) })).status, 201);
});

void test('a paramKind that names no served kind: the policy fails to configure (failurePolicy Fail)', async () => {
  await namespace('vap-nokind');
  await install('vap-nokind', policy('ghost-params', { paramKind: { apiVersion: 'example.com/v1', kind: 'Ghost' }, validations: [{ expression: 'true' }] }),
    binding('ghost-params', 'ghost-params', { paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } }), { status: 422 });
  const r = await srv.request('POST', '/api/v1/namespaces/vap-nokind/configmaps', { body: cm('g', 'vap-nokind') });
  assert.equal(r.json().message, "configmaps \"g\" is forbidden: ValidatingAdmissionPolicy 'ghost-params' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Ghost'");
});

void test('writes of policies and bindings are validated (422 with kube\'s causes)', async () => {
  const bad = await srv.request('POST', `${AR}/validatingadmissionpolicies`, { body: policy('bad-cel', { validations: [{ expression: 'object.x +' }, { expression: "'s'" }] }) });
  assert.equal(bad.status, 422);
  const causes = bad.json().details.causes;
  assert.equal(causes[0].field, 'spec.validations[0].expression');
  assert.match(causes[0].message, /^Invalid value: "object.x \+": compilation failed: ERROR: <input>:1:/);
  assert.deepEqual(causes[1], { reason: 'FieldValueInvalid', message: 'Invalid value: "\'s\'": must evaluate to bool but got string', field: 'spec.validations[1].expression' });
  const b = await srv.request('POST', `${AR}/validatingadmissionpolicybindings`, { body: binding('bad-binding', 'p', { validationActions: ['Deny', 'Warn'] }) });
  assert.equal(b.status, 422);
  assert.match(b.json().message, /spec.validationActions: Invalid value: \[\]admissionregistration.ValidationAction\{"Deny", "Warn"\}: must not contain both Deny and Warn/);
  const none = await srv.request('POST', `${AR}/validatingadmissionpolicybindings`, { body: binding('no-actions', 'p', { validationActions: [] }) });
  assert.match(none.json().message, /spec.validationActions: Required value: at least one validation action is required/);
});

void test('matchConditions compile with params (when the policy has a paramKind) but without variables; binding paths as kube spells them', async () => {
  const withParams = policy('mc-params', {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    matchConditions: [{ name: 'enabled', expression: "params.data.enabled == 'true'" }],
    variables: [{ name: 'n', expression: 'object.metadata.name' }],
    validations: [{ expression: 'variables.n != ""' }],
  });
  assert.equal((await srv.request('POST', `${AR}/validatingadmissionpolicies`, { body: withParams })).status, 201);
  const noParams = policy('mc-no-params', {
    matchConditions: [{ name: 'p', expression: "params.data.enabled == 'true'" }, { name: 'v', expression: 'variables.n == ""' }, { name: 'p', expression: "'x'" }],
    variables: [{ name: 'n', expression: 'object.metadata.name' }],
    validations: [{ expression: 'true' }],
  });
  const r = await srv.request('POST', `${AR}/validatingadmissionpolicies`, { body: noParams });
  assert.equal(r.status, 422);
  const causes = r.json().details.causes as Array<{ field: string; reason: string; message: string }>;
  assert.deepEqual(causes.map((c) => [c.field, c.reason]), [
    ['spec.matchConditions[0].expression', 'FieldValueInvalid'],
    ['spec.matchConditions[1].expression', 'FieldValueInvalid'],
    ['spec.matchConditions[2].expression', 'FieldValueInvalid'],
    ['spec.matchConditions[2].name', 'FieldValueDuplicate'],
  ]);
  assert.match(causes[0]!.message, /undeclared reference to 'params'/);
  assert.match(causes[1]!.message, /undeclared reference to 'variables'/);
  assert.match(causes[2]!.message, /must evaluate to bool but got string/);
  const b = await srv.request('POST', `${AR}/validatingadmissionpolicybindings`, { body: binding('bad-mr', 'p', { matchResources: { matchPolicy: 'Sometimes' } }) });
  assert.equal(b.status, 422);
  assert.equal(b.json().details.causes[0].field, 'spec.matchResouces.matchPolicy');
});

void test('defaults are written as kube writes them: failurePolicy, matchPolicy, selectors, rule scope', async () => {
  const p = {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'defaulted' },
    spec: { matchConstraints: { resourceRules: rules(['configmaps']) }, validations: [{ expression: 'true' }] },
  };
  const r = await srv.request('POST', `${AR}/validatingadmissionpolicies`, { body: p });
  assert.equal(r.status, 201, r.text);
  const spec = r.json().spec;
  assert.equal(spec.failurePolicy, 'Fail');
  assert.deepEqual(spec.matchConstraints, {
    namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent',
    resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'], scope: '*' }],
  });
  const b = await srv.request('POST', `${AR}/validatingadmissionpolicybindings`, { body: binding('defaulted', 'defaulted', { matchResources: { resourceRules: rules(['configmaps']) } }) });
  assert.equal(b.status, 201, b.text);
  assert.equal(b.json().spec.matchResources.matchPolicy, 'Equivalent');
  assert.deepEqual(b.json().spec.matchResources.namespaceSelector, {});
  assert.equal(b.json().spec.matchResources.resourceRules[0].scope, '*');
});
