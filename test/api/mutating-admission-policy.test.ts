// MutatingAdmissionPolicy (admissionregistration.k8s.io/v1alpha1, alpha in kube v1.33): served only with
// --runtime-config, applied only with the MutatingAdmissionPolicy feature gate; ApplyConfiguration and JSONPatch
// mutations, params, and failurePolicy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';

const AR = '/apis/admissionregistration.k8s.io/v1alpha1';
const RUNTIME = { 'admissionregistration.k8s.io/v1alpha1': 'true' };

const policy = (name: string, mutations: unknown[], extra: Record<string, unknown> = {}) => ({
  apiVersion: 'admissionregistration.k8s.io/v1alpha1', kind: 'MutatingAdmissionPolicy', metadata: { name },
  spec: {
    failurePolicy: 'Fail', reinvocationPolicy: 'Never',
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
    mutations, ...extra,
  },
});
const binding = (name: string, policyName: string, ns: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'admissionregistration.k8s.io/v1alpha1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name },
  spec: { policyName, matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } } }, ...extra },
});
const cm = (name: string, ns: string, data: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data });

let on: TestServer;
before(async () => {
  on = await startTestServer({ runtimeConfig: RUNTIME, featureGates: { MutatingAdmissionPolicy: true } });
});
after(async () => {
  await on?.stop();
});

async function create(srv: TestServer, path: string, body: unknown): Promise<void> {
  const r = await srv.request('POST', path, { body });
  assert.equal(r.status, 201, r.text);
}

void test('v1alpha1 is served only with --runtime-config', async () => {
  const off = await startTestServer();
  try {
    assert.equal((await off.request('GET', `${AR}/mutatingadmissionpolicies`)).status, 404);
    const disc = (await off.request('GET', '/apis/admissionregistration.k8s.io')).json();
    assert.deepEqual(disc.versions.map((v: { version: string }) => v.version), ['v1']);
  } finally {
    await off.stop();
  }
  const disc = (await on.request('GET', '/apis/admissionregistration.k8s.io/v1alpha1')).json();
  assert.deepEqual(disc.resources.map((r: { name: string }) => r.name).sort(), ['mutatingadmissionpolicies', 'mutatingadmissionpolicybindings']);
});

void test('ApplyConfiguration merges an object into the request; JSONPatch patches it', async () => {
  await create(on, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'map-a' } });
  await create(on, `${AR}/mutatingadmissionpolicies`, policy('add-label', [{
    patchType: 'ApplyConfiguration',
    applyConfiguration: { expression: "Object{metadata: Object.metadata{labels: {'mutated-by': 'map', 'name': object.metadata.name}}, data: {'added': 'yes'}}" },
  }, {
    patchType: 'JSONPatch',
    jsonPatch: { expression: "[JSONPatch{op: 'add', path: '/metadata/annotations', value: {}}, JSONPatch{op: 'add', path: '/metadata/annotations/' + jsonpatch.escapeKey('example.com/patched'), value: 'true'}]" },
  }]));
  await create(on, `${AR}/mutatingadmissionpolicybindings`, binding('add-label', 'add-label', 'map-a'));
  const out = await eventually('mutation applied', async () => {
    const r = await on.request('POST', '/api/v1/namespaces/map-a/configmaps?dryRun=All', { body: cm('probe', 'map-a', { own: '1' }) });
    if (r.status !== 201) throw new Error(r.text);
    return r.json().metadata?.labels?.['mutated-by'] === 'map' ? r.json() : undefined;
  });
  assert.deepEqual(out.metadata.labels, { 'mutated-by': 'map', name: 'probe' });
  assert.deepEqual(out.metadata.annotations, { 'example.com/patched': 'true' });
  assert.deepEqual(out.data, { own: '1', added: 'yes' });
  const stored = await on.request('POST', '/api/v1/namespaces/map-a/configmaps', { body: cm('real', 'map-a') });
  assert.equal(stored.json().metadata.labels.name, 'real');
});

void test('params and failurePolicy: a runtime error refuses under Fail with kube\'s policy error', async () => {
  await create(on, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'map-b' } });
  await create(on, '/api/v1/namespaces/map-b/configmaps', cm('defaults', 'map-b', { team: 'blue' }));
  await create(on, `${AR}/mutatingadmissionpolicies`, policy('team', [{
    patchType: 'ApplyConfiguration',
    applyConfiguration: { expression: "Object{metadata: Object.metadata{labels: {'team': params.data.team}}}" },
  }, {
    patchType: 'ApplyConfiguration',
    applyConfiguration: { expression: "Object{data: {'size': string(object.data['required'].size())}}" },
  }], { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }));
  await create(on, `${AR}/mutatingadmissionpolicybindings`, binding('team', 'team', 'map-b', { paramRef: { name: 'defaults', parameterNotFoundAction: 'Deny' } }));
  const ok = await eventually('team label', async () => {
    const r = await on.request('POST', '/api/v1/namespaces/map-b/configmaps?dryRun=All', { body: cm('x', 'map-b', { required: 'abc' }) });
    return r.status === 201 && r.json().metadata?.labels?.team === 'blue' ? r.json() : undefined;
  });
  assert.equal(ok.data.size, '3');
  const r = await on.request('POST', '/api/v1/namespaces/map-b/configmaps', { body: cm('y', 'map-b', {}) });
  assert.equal(r.status, 403);
  assert.equal(r.json().reason, 'Invalid');
  assert.equal(r.json().message, "policy 'team' with binding 'team' denied request: expression 'Object{data: {'size': string(object.data['required'].size())}}' resulted in error: no such key: required");
});

void test('with the feature gate off the plugin does nothing, even with the API served', async () => {
  const srv = await startTestServer({ runtimeConfig: RUNTIME });
  try {
    await create(srv, `${AR}/mutatingadmissionpolicies`, policy('noop', [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: "Object{data: {'added': 'yes'}}" } }]));
    await create(srv, `${AR}/mutatingadmissionpolicybindings`, binding('noop', 'noop', 'default'));
    await new Promise((r) => setTimeout(r, 300));
    const r = await srv.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('plain', 'default', { own: '1' }) });
    assert.deepEqual(r.json().data, { own: '1' });
  } finally {
    await srv.stop();
  }
});

void test('writes are validated: a mutation expression that does not compile is a 422 naming its field', async () => {
  const r = await on.request('POST', `${AR}/mutatingadmissionpolicies`, { body: policy('bad-mutation', [
    { patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: object.nope(}}' } },
    { patchType: 'JSONPatch', jsonPatch: { expression: "[JSONPatch{op: 'add', path: '/data/x', value: undefinedThing}]" } },
  ]) });
  assert.equal(r.status, 422, r.text);
  const causes = r.json().details.causes as Array<{ field: string; reason: string; message: string }>;
  assert.deepEqual(causes.map((c) => [c.field, c.reason]), [
    ['spec.mutations[0].applyConfiguration.expression', 'FieldValueInvalid'],
    ['spec.mutations[1].jsonPatch.expression', 'FieldValueInvalid'],
  ]);
  assert.match(causes[1]!.message, /undeclared reference to 'undefinedThing'/);
  // Object construction in variables compiles as it will at admission.
  const ok = await on.request('POST', `${AR}/mutatingadmissionpolicies`, { body: policy('object-variable', [
    { patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'variables.patch' } },
  ], { variables: [{ name: 'patch', expression: "Object{data: {'v': 'yes'}}" }] }) });
  assert.equal(ok.status, 201, ok.text);
});
