/**
 * Namespace lifecycle with the in-process controllers: built-in namespaces, default ServiceAccount and
 * kube-root-ca.crt in new namespaces, Terminating refuses creates, the controller empties and removes.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';
import { assertStatus, configMap, deployment, namespace } from './helpers.ts';

let srv: TestServer;
before(async () => { srv = await startTestServer(); });
after(async () => { await srv?.stop(); });

const MERGE = { 'Content-Type': 'application/merge-patch+json' };

void test('the built-in namespaces exist and are Active', async () => {
  const list = (await srv.request('GET', '/api/v1/namespaces')).json();
  const names = list.items.map((n: any) => n.metadata.name);
  for (const n of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    assert.ok(names.includes(n), `${n} in ${names}`);
    const ns = list.items.find((i: any) => i.metadata.name === n);
    assert.equal(ns.status.phase, 'Active');
    assert.deepEqual(ns.spec.finalizers, ['kubernetes']);
    assert.equal(ns.metadata.labels['kubernetes.io/metadata.name'], n);
  }
});

void test('the kubernetes service exists in default', async () => {
  const r = await srv.request('GET', '/api/v1/namespaces/default/services/kubernetes');
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json().spec.clusterIP, '10.96.0.1');
  assert.equal(r.json().spec.ports[0].port, 443);
});

void test('a new namespace gets the default ServiceAccount and kube-root-ca.crt', async () => {
  assert.equal((await srv.request('POST', '/api/v1/namespaces', { body: namespace('fresh') })).status, 201);
  const sa = await eventually('default SA', async () => {
    const r = await srv.request('GET', '/api/v1/namespaces/fresh/serviceaccounts/default');
    return r.status === 200 ? r.json() : undefined;
  });
  assert.equal(sa.kind, 'ServiceAccount');
  const cm = await eventually('kube-root-ca.crt', async () => {
    const r = await srv.request('GET', '/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt');
    return r.status === 200 ? r.json() : undefined;
  });
  assert.equal(cm.data['ca.crt'], srv.caPem);
  assert.match(cm.metadata.annotations['kubernetes.io/description'], /^Contains a CA bundle/);

  // Deleted or altered, they come back.
  await srv.request('DELETE', '/api/v1/namespaces/fresh/serviceaccounts/default');
  await eventually('default SA recreated', async () => {
    const r = await srv.request('GET', '/api/v1/namespaces/fresh/serviceaccounts/default');
    return r.status === 200 && r.json().metadata.uid !== sa.metadata.uid;
  });
  await srv.request('PATCH', '/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt', { body: { data: { 'ca.crt': 'tampered' } }, headers: MERGE });
  await eventually('kube-root-ca.crt restored', async () => {
    const r = await srv.request('GET', '/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt');
    return r.status === 200 && r.json().data['ca.crt'] === srv.caPem;
  });
});

void test('creation in a missing namespace is 404', async () => {
  assertStatus(await srv.request('POST', '/api/v1/namespaces/missing/configmaps', { body: configMap('x') }), 404, 'NotFound', 'namespaces "missing" not found');
});

void test('deleting a namespace: Terminating, creates refused, content removed, then the namespace', async () => {
  const NS = 'doomed';
  await srv.request('POST', '/api/v1/namespaces', { body: namespace(NS) });
  await srv.request('POST', `/api/v1/namespaces/${NS}/configmaps`, { body: configMap('c1') });
  await srv.request('POST', `/api/v1/namespaces/${NS}/configmaps`, { body: configMap('held', {}, { finalizers: ['example.com/hold'] }) });
  await srv.request('POST', `/apis/apps/v1/namespaces/${NS}/deployments`, { body: deployment('d1') });
  await srv.request('POST', `/api/v1/namespaces/${NS}/secrets`, { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' } } });

  const d = await srv.request('DELETE', `/api/v1/namespaces/${NS}`);
  assert.equal(d.status, 200, d.text);
  assert.equal(d.json().kind, 'Namespace');
  assert.equal(d.json().status.phase, 'Terminating');
  assert.ok(d.json().metadata.deletionTimestamp);

  const refused = assertStatus(await srv.request('POST', `/api/v1/namespaces/${NS}/configmaps`, { body: configMap('late') }), 403, 'Forbidden',
    `configmaps "late" is forbidden: unable to create new content in namespace ${NS} because it is being terminated`);
  assert.deepEqual(refused.details.causes, [{ reason: 'NamespaceTerminating', message: `namespace ${NS} is being terminated`, field: 'metadata.namespace' }]);

  // Everything but the held object goes; the namespace reports why it waits.
  await eventually('content removed', async () => {
    const cms = (await srv.request('GET', `/api/v1/namespaces/${NS}/configmaps`)).json().items.map((i: any) => i.metadata.name);
    const deps = (await srv.request('GET', `/apis/apps/v1/namespaces/${NS}/deployments`)).json().items;
    const secrets = (await srv.request('GET', `/api/v1/namespaces/${NS}/secrets`)).json().items;
    return cms.length === 1 && cms[0] === 'held' && deps.length === 0 && secrets.length === 0;
  });
  const waiting = await eventually('finalizer condition', async () => {
    const ns = (await srv.request('GET', `/api/v1/namespaces/${NS}`)).json();
    return ns.status?.conditions?.find((c: any) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True') ? ns : undefined;
  });
  assert.equal(waiting.status.phase, 'Terminating');
  assert.equal(waiting.status.conditions.find((c: any) => c.type === 'NamespaceFinalizersRemaining').message,
    'Some finalizers are remaining: example.com/hold in 1 resource instances');

  await srv.request('PATCH', `/api/v1/namespaces/${NS}/configmaps/held`, { body: { metadata: { finalizers: null } }, headers: MERGE });
  await eventually('namespace removed', async () => (await srv.request('GET', `/api/v1/namespaces/${NS}`)).status === 404);

  // The name can be used again at once, and the new namespace is Active and gets its defaults.
  assert.equal((await srv.request('POST', '/api/v1/namespaces', { body: namespace(NS) })).status, 201);
  await eventually('default SA in the new incarnation', async () => (await srv.request('GET', `/api/v1/namespaces/${NS}/serviceaccounts/default`)).status === 200);
});

void test('namespace names must be DNS-1123 labels', async () => {
  const dot = await srv.request('POST', '/api/v1/namespaces', { body: namespace('has.dot') });
  assertStatus(dot, 422, 'Invalid', 'Namespace "has.dot" is invalid: metadata.name: Invalid value: "has.dot": must not contain dots');
  const r = await srv.request('POST', '/api/v1/namespaces', { body: namespace('Has_Under') });
  assertStatus(r, 422, 'Invalid', /^Namespace "Has_Under" is invalid: metadata\.name: Invalid value: "Has_Under": a lowercase RFC 1123 label must consist of/);
});
