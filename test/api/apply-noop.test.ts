/**
 * Server-side apply that changes nothing, as kube-apiserver answers it: the live object comes back with its
 * resourceVersion and managedFields (times included) untouched and nothing is written. Keelson answers repeated
 * identical applies from a memo (src/apply/ssa/noop-memo.ts) and skips the update preparation it already did for
 * that revision; these tests pin down that every case that is not an exact no-op still takes the full path:
 * changed values, another manager, a field changed by someone else (conflict), dry-run, and admission, which
 * kube runs on a no-op apply too (a validating policy can deny it, a mutating one turns it into a write).
 * A no-op starts from the watch cache's current revision and answers its cached encoding: the answer must be
 * GET's bytes and never older than the latest write (another manager's, or a delete and re-create).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';
import { deployment } from './helpers.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ runtimeConfig: { 'admissionregistration.k8s.io/v1alpha1': 'true' }, featureGates: { MutatingAdmissionPolicy: true } });
});
after(async () => { await srv?.stop(); });

const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };
const AR = '/apis/admissionregistration.k8s.io';

async function namespace(name: string): Promise<void> {
  const r = await srv.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
  assert.equal(r.status, 201, r.text);
}

function cm(name: string, data: Record<string, string>, labels?: Record<string, string>): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(labels ? { labels } : {}) }, data });
}

async function apply(path: string, manager: string, body: string, query = ''): Promise<any> {
  const r = await srv.request('PATCH', `${path}?fieldManager=${manager}${query}`, { headers: APPLY, body });
  assert.ok(r.status === 200 || r.status === 201, `${r.status} ${r.text}`);
  return r.json();
}

void test('an identical apply returns the live object: same resourceVersion, same managedFields and times', async () => {
  const path = '/apis/apps/v1/namespaces/default/deployments/same';
  const d = deployment('same', 2);
  const body = JSON.stringify(d);
  const first = await apply(path, 'alice', body);
  // A changed managedFields time would show at the second: wait past one.
  await new Promise((r) => setTimeout(r, 1100));
  for (let i = 0; i < 3; i++) {
    const again = await apply(path, 'alice', body);
    assert.equal(again.metadata.resourceVersion, first.metadata.resourceVersion, `apply ${i + 2} wrote`);
    assert.deepEqual(again.metadata.managedFields, first.metadata.managedFields);
    assert.deepEqual(again, first);
  }
  const got = (await srv.request('GET', path)).json();
  assert.equal(got.metadata.resourceVersion, first.metadata.resourceVersion);
  // The same config with keys in another order is another body but the same apply: still no write.
  const reordered = JSON.stringify({ spec: d.spec, metadata: d.metadata, kind: d.kind, apiVersion: d.apiVersion });
  assert.equal((await apply(path, 'alice', reordered)).metadata.resourceVersion, first.metadata.resourceVersion);
});

void test('an apply that changes one value writes; applying the new config again is a no-op', async () => {
  const path = '/api/v1/namespaces/default/configmaps/change';
  const v1 = await apply(path, 'alice', cm('change', { a: '1', b: '1' }));
  await apply(path, 'alice', cm('change', { a: '1', b: '1' }));
  const v2 = await apply(path, 'alice', cm('change', { a: '1', b: '2' }));
  assert.notEqual(v2.metadata.resourceVersion, v1.metadata.resourceVersion);
  assert.deepEqual(v2.data, { a: '1', b: '2' });
  const v3 = await apply(path, 'alice', cm('change', { a: '1', b: '2' }));
  assert.equal(v3.metadata.resourceVersion, v2.metadata.resourceVersion);
  // Going back to the first config after the memo learned it is a change again.
  const v4 = await apply(path, 'alice', cm('change', { a: '1', b: '1' }));
  assert.notEqual(v4.metadata.resourceVersion, v3.metadata.resourceVersion);
  assert.deepEqual(v4.data, { a: '1', b: '1' });
  // Dropping a field the manager applied before removes it (prune), also right after a no-op.
  await apply(path, 'alice', cm('change', { a: '1', b: '1' }));
  const v5 = await apply(path, 'alice', cm('change', { a: '1' }));
  assert.deepEqual(v5.data, { a: '1' });
});

void test('another manager applying the same values takes shared ownership: a write', async () => {
  const path = '/api/v1/namespaces/default/configmaps/shared';
  const body = cm('shared', { a: '1' });
  const mine = await apply(path, 'alice', body);
  await apply(path, 'alice', body);
  const both = await apply(path, 'bob', body);
  assert.notEqual(both.metadata.resourceVersion, mine.metadata.resourceVersion, 'managedFields changed, so the object was written');
  assert.deepEqual(both.metadata.managedFields.map((e: any) => e.manager).sort(), ['alice', 'bob']);
  const bobEntry = both.metadata.managedFields.find((e: any) => e.manager === 'bob');
  assert.deepEqual(bobEntry.fieldsV1, { 'f:data': { 'f:a': {} } });
  // Each manager's repeat is a no-op now.
  assert.equal((await apply(path, 'bob', body)).metadata.resourceVersion, both.metadata.resourceVersion);
  assert.equal((await apply(path, 'alice', body)).metadata.resourceVersion, both.metadata.resourceVersion);
});

void test('a field the applier owns changed by another manager: 409 conflict, force takes it back', async () => {
  const path = '/api/v1/namespaces/default/configmaps/conflict';
  const body = cm('conflict', { a: '1' });
  await apply(path, 'alice', body);
  await apply(path, 'alice', body); // learned as a no-op for this revision
  const other = await srv.request('PATCH', `${path}?fieldManager=carol`, { headers: { 'Content-Type': 'application/merge-patch+json' }, body: { data: { a: '2' } } });
  assert.equal(other.status, 200, other.text);
  const r = await srv.request('PATCH', `${path}?fieldManager=alice`, { headers: APPLY, body });
  assert.equal(r.status, 409, r.text);
  assert.equal(r.json().reason, 'Conflict');
  assert.match(r.json().message, /conflict with "carol" using v1: \.data\.a/);
  const forced = await apply(path, 'alice', body, '&force=true');
  assert.deepEqual(forced.data, { a: '1' });
  assert.notEqual(forced.metadata.resourceVersion, other.json().metadata.resourceVersion);
  // carol lost the field to the forced apply; alice's next apply is a no-op again.
  assert.deepEqual(forced.metadata.managedFields.map((e: any) => e.manager), ['alice']);
  assert.equal((await apply(path, 'alice', body)).metadata.resourceVersion, forced.metadata.resourceVersion);
});

void test('dry-run: a changing dry-run apply stores nothing and a no-op dry-run answers the live object', async () => {
  const path = '/api/v1/namespaces/default/configmaps/dry';
  const body = cm('dry', { a: '1' });
  const live = await apply(path, 'alice', body);
  const dryNoop = await apply(path, 'alice', body, '&dryRun=All');
  assert.equal(dryNoop.metadata.resourceVersion, live.metadata.resourceVersion);
  assert.deepEqual(dryNoop, live);
  const dryChange = await apply(path, 'alice', cm('dry', { a: '2' }), '&dryRun=All');
  assert.deepEqual(dryChange.data, { a: '2' });
  const got = (await srv.request('GET', path)).json();
  assert.deepEqual(got.data, { a: '1' });
  assert.equal(got.metadata.resourceVersion, live.metadata.resourceVersion);
  assert.equal((await apply(path, 'alice', body)).metadata.resourceVersion, live.metadata.resourceVersion);
});

void test('a validating admission policy sees a no-op apply and can deny it', async () => {
  await namespace('noop-vap');
  const path = '/api/v1/namespaces/noop-vap/configmaps/held';
  const body = cm('held', { a: '1' }, { hold: 'yes' });
  await apply(path, 'alice', body);
  await apply(path, 'alice', body);
  const policy = {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'noop-hold' },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }] },
      validations: [{ expression: "!has(object.metadata.labels) || !('hold' in object.metadata.labels)", message: 'held' }],
    },
  };
  const binding = {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'noop-hold' },
    spec: { policyName: 'noop-hold', validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'noop-vap' } } } },
  };
  assert.equal((await srv.request('POST', `${AR}/v1/validatingadmissionpolicies`, { body: policy })).status, 201);
  assert.equal((await srv.request('POST', `${AR}/v1/validatingadmissionpolicybindings`, { body: binding })).status, 201);
  const denied = await eventually('the policy denies the no-op apply', async () => {
    const r = await srv.request('PATCH', `${path}?fieldManager=alice`, { headers: APPLY, body });
    return r.status === 422 ? r.json() : undefined;
  });
  assert.match(denied.message, /ValidatingAdmissionPolicy 'noop-hold' with binding 'noop-hold' denied request: held/);
});

void test('a mutating admission policy changes a no-op apply into a write', async () => {
  await namespace('noop-map');
  const path = '/api/v1/namespaces/noop-map/configmaps/stamped';
  const body = cm('stamped', { a: '1' });
  const before = await apply(path, 'alice', body);
  await apply(path, 'alice', body);
  const policy = {
    apiVersion: 'admissionregistration.k8s.io/v1alpha1', kind: 'MutatingAdmissionPolicy', metadata: { name: 'noop-stamp' },
    spec: {
      failurePolicy: 'Fail', reinvocationPolicy: 'Never',
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['configmaps'] }] },
      mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: "Object{metadata: Object.metadata{labels: {'stamped': 'yes'}}}" } }],
    },
  };
  const binding = {
    apiVersion: 'admissionregistration.k8s.io/v1alpha1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name: 'noop-stamp' },
    spec: { policyName: 'noop-stamp', matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'noop-map' } } } },
  };
  assert.equal((await srv.request('POST', `${AR}/v1alpha1/mutatingadmissionpolicies`, { body: policy })).status, 201);
  assert.equal((await srv.request('POST', `${AR}/v1alpha1/mutatingadmissionpolicybindings`, { body: binding })).status, 201);
  const stamped = await eventually('the policy mutates the no-op apply', async () => {
    const out = await apply(path, 'alice', body);
    return out.metadata.labels?.stamped === 'yes' ? out : undefined;
  });
  assert.notEqual(stamped.metadata.resourceVersion, before.metadata.resourceVersion);
  const got = (await srv.request('GET', path)).json();
  assert.equal(got.metadata.labels?.stamped, 'yes', 'the mutation was stored');
  assert.equal(got.metadata.resourceVersion, stamped.metadata.resourceVersion);
});

void test('a no-op apply answers the same bytes as a GET, and the latest revision after another manager\'s write', async () => {
  const path = '/apis/apps/v1/namespaces/default/deployments/bytes';
  const body = JSON.stringify(deployment('bytes', 1));
  await apply(path, 'alice', body);
  const noop = await srv.request('PATCH', `${path}?fieldManager=alice`, { headers: APPLY, body });
  assert.equal(noop.status, 200, noop.text);
  const got = await srv.request('GET', path);
  assert.equal(noop.text, got.text);
  // bob adds a label alice does not own: no conflict, and alice's next apply answers bob's revision (no write).
  const other = await srv.request('PATCH', `${path}?fieldManager=bob`, { headers: { 'Content-Type': 'application/merge-patch+json' }, body: { metadata: { labels: { extra: 'yes' } } } });
  assert.equal(other.status, 200, other.text);
  const after = await apply(path, 'alice', body);
  assert.equal(after.metadata.resourceVersion, other.json().metadata.resourceVersion);
  assert.equal(after.metadata.labels.extra, 'yes');
  assert.equal((await apply(path, 'alice', body)).metadata.resourceVersion, other.json().metadata.resourceVersion);
});

void test('after delete and re-create under the same name, the same apply writes to the new object', async () => {
  const path = '/api/v1/namespaces/default/configmaps/reborn';
  const body = cm('reborn', { a: '1' });
  const first = await apply(path, 'alice', body);
  await apply(path, 'alice', body); // learned as a no-op
  assert.equal((await srv.request('DELETE', path)).status, 200);
  const made = await srv.request('POST', '/api/v1/namespaces/default/configmaps', { body: JSON.parse(cm('reborn', { a: '1' })) });
  assert.equal(made.status, 201, made.text);
  const again = await apply(path, 'alice', body);
  assert.equal(again.metadata.uid, made.json().metadata.uid);
  assert.notEqual(again.metadata.uid, first.metadata.uid);
  // alice did not own anything in the new object: the apply takes ownership, so it is a write.
  assert.notEqual(again.metadata.resourceVersion, made.json().metadata.resourceVersion);
  assert.ok(again.metadata.managedFields.some((e: any) => e.manager === 'alice'));
  // Deleted again: the apply creates it (201), it does not answer the memo's past.
  assert.equal((await srv.request('DELETE', path)).status, 200);
  const created = await srv.request('PATCH', `${path}?fieldManager=alice`, { headers: APPLY, body });
  assert.equal(created.status, 201, created.text);
  assert.notEqual(created.json().metadata.uid, again.metadata.uid);
});

void test('a YAML body with a duplicate key: warned about on every apply, refused under Strict every time', async () => {
  const path = '/api/v1/namespaces/default/configmaps/dupkey';
  const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dupkey\ndata:\n  a: "1"\n  a: "1"\n';
  for (let i = 0; i < 3; i++) {
    const r = await srv.request('PATCH', `${path}?fieldManager=alice`, { headers: APPLY, body: yaml });
    assert.ok(r.status === 200 || r.status === 201, r.text);
    assert.match(String(r.headers['warning']), /key \\"a\\" already set in map/, `apply ${i + 1} warns`);
  }
  for (let i = 0; i < 2; i++) {
    const r = await srv.request('PATCH', `${path}?fieldManager=alice&fieldValidation=Strict`, { headers: APPLY, body: yaml });
    assert.equal(r.status, 400, r.text);
    assert.match(r.json().message, /error strict decoding YAML/);
  }
});
