/**
 * CRD lifecycle: validation errors worded as kube's, name conflicts reported in conditions (not crashes),
 * updates that add/remove versions, and deletion (cleanup finalizer, Terminating, instances removed, 405 on
 * create while terminating, the API gone from discovery afterwards).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { crdManifest, waitFor } from './crd-support.ts';

let srv: TestServer;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

before(async () => {
  srv = await startTestServer({ authorizationMode: ['AlwaysAllow'] });
});

after(async () => {
  await srv.stop();
});

const condition = async (name: string, type: string) =>
  ((await srv.request('GET', `${CRDS}/${name}`)).json().status?.conditions ?? []).find((c: any) => c.type === type);

async function established(name: string): Promise<void> {
  await waitFor(async () => (await condition(name, 'Established'))?.status === 'True');
}

function causes(r: { json(): any }): string[] {
  return (r.json().details?.causes ?? []).map((c: any) => `${c.field}: ${c.message}`);
}

void test('invalid CRDs are refused with kube messages', async () => {
  const m = crdManifest({ group: 'nodot', plural: 'things', kind: 'Thing' });
  const r = await srv.request('POST', CRDS, { body: m });
  assert.equal(r.status, 422);
  assert.deepEqual(causes(r), ['spec.group: Invalid value: "nodot": should be a domain with at least one dot']);
  assert.match(r.json().message, /^CustomResourceDefinition.apiextensions.k8s.io "things.nodot" is invalid: /);

  const wrongName = crdManifest({ group: 'a.example.com', plural: 'things', kind: 'Thing' });
  (wrongName['metadata'] as any).name = 'other.a.example.com';
  assert.deepEqual(causes(await srv.request('POST', CRDS, { body: wrongName })),
    ['metadata.name: Invalid value: "other.a.example.com": must be spec.names.plural+"."+spec.group']);

  const noStorage = crdManifest({ group: 'b.example.com', plural: 'things', kind: 'Thing' });
  (noStorage['spec'] as any).versions[0].storage = false;
  const ns = causes(await srv.request('POST', CRDS, { body: noStorage }));
  assert.ok(ns.some((c) => c.startsWith('spec.versions: Invalid value: ') && c.endsWith('must have exactly one version marked as storage version')), ns.join('\n'));
  assert.ok(ns.includes('status.storedVersions: Invalid value: []string{}: must have at least one stored version'), ns.join('\n'));

  const badScope = crdManifest({ group: 'c.example.com', plural: 'things', kind: 'Thing', scope: 'Galaxy' });
  assert.deepEqual(causes(await srv.request('POST', CRDS, { body: badScope })), ['spec.scope: Unsupported value: "Galaxy": supported values: "Cluster", "Namespaced"']);

  const badNames = crdManifest({ group: 'd.example.com', plural: 'Things', kind: 'Thing' });
  (badNames['metadata'] as any).name = 'Things.d.example.com';
  const bn = causes(await srv.request('POST', CRDS, { body: badNames }));
  assert.ok(bn.includes(`spec.names.plural: Invalid value: "Things": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`), bn.join('\n'));

  const noSchema = crdManifest({ group: 'e.example.com', plural: 'things', kind: 'Thing' });
  delete (noSchema['spec'] as any).versions[0].schema;
  delete (noSchema['spec'] as any).versions[0].selectableFields;
  assert.deepEqual(causes(await srv.request('POST', CRDS, { body: noSchema })), ['spec.versions[0].schema.openAPIV3Schema: Required value']);

  const badColumn = crdManifest({ group: 'f.example.com', plural: 'things', kind: 'Thing' });
  (badColumn['spec'] as any).versions[0].additionalPrinterColumns = [{ name: 'X', type: 'text', jsonPath: 'spec.x' }];
  assert.deepEqual(causes(await srv.request('POST', CRDS, { body: badColumn })), [
    'spec.additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string',
    'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.x": must be a simple json path starting with .',
  ]);

  const badScale = crdManifest({ group: 'g.example.com', plural: 'things', kind: 'Thing' });
  (badScale['spec'] as any).versions[0].subresources.scale.specReplicasPath = '.status.replicas';
  assert.deepEqual(causes(await srv.request('POST', CRDS, { body: badScale })), ['spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec']);

  const protectedGroup = crdManifest({ group: 'x.k8s.io', plural: 'things', kind: 'Thing' });
  assert.deepEqual(causes(await srv.request('POST', CRDS, { body: protectedGroup })), [
    'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
  ]);
});

void test('a name conflict is reported in NamesAccepted, and resolved once the holder goes', async () => {
  const first = crdManifest({ group: 'conflict.example.com', plural: 'alphas', kind: 'Alpha', shortNames: ['al'] });
  assert.equal((await srv.request('POST', CRDS, { body: first })).status, 201);
  await established('alphas.conflict.example.com');
  // Another CRD in the same group wanting the same kind.
  const second = crdManifest({ group: 'conflict.example.com', plural: 'betas', kind: 'Alpha', shortNames: ['be'] });
  assert.equal((await srv.request('POST', CRDS, { body: second })).status, 201);
  await waitFor(async () => (await condition('betas.conflict.example.com', 'NamesAccepted'))?.status === 'False');
  const c = await condition('betas.conflict.example.com', 'NamesAccepted');
  // kube checks kind then listKind; the last conflict found is the one reported.
  assert.equal(c.reason, 'ListKindConflict');
  assert.equal(c.message, '"AlphaList" is already in use');
  const est = await condition('betas.conflict.example.com', 'Established');
  assert.equal(est.status, 'False');
  assert.equal(est.reason, 'NotAccepted');
  assert.equal((await srv.request('GET', '/apis/conflict.example.com/v1/namespaces/default/betas')).status, 404);
  // The first goes away: the second gets its names.
  assert.equal((await srv.request('DELETE', `${CRDS}/alphas.conflict.example.com`)).status, 200);
  await established('betas.conflict.example.com');
  assert.equal((await srv.request('GET', '/apis/conflict.example.com/v1/namespaces/default/betas')).status, 200);
});

void test('deleting a CRD removes its instances, then the CRD and its API', async () => {
  const m = crdManifest({ group: 'gone.example.com', plural: 'gadgets', kind: 'Gadget', shortNames: ['gd'] });
  assert.equal((await srv.request('POST', CRDS, { body: m })).status, 201);
  await established('gadgets.gone.example.com');
  assert.ok((await srv.request('GET', '/openapi/v3')).json().paths['apis/gone.example.com/v1']);
  const base = '/apis/gone.example.com/v1/namespaces/default/gadgets';
  for (const n of ['a', 'b']) {
    const r = await srv.request('POST', base, { body: { apiVersion: 'gone.example.com/v1', kind: 'Gadget', metadata: { name: n, ...(n === 'b' ? { finalizers: ['example.com/hold'] } : {}) }, spec: {} } });
    assert.equal(r.status, 201, r.text);
  }
  const d = await srv.request('DELETE', `${CRDS}/gadgets.gone.example.com`);
  assert.equal(d.status, 200, d.text);
  assert.ok(d.json().metadata.deletionTimestamp);
  assert.ok(d.json().metadata.finalizers.includes('customresourcecleanup.apiextensions.k8s.io'));
  const t = d.json().status.conditions.find((c: any) => c.type === 'Terminating');
  assert.equal(t.reason, 'InstanceDeletionPending');
  // `b` holds a finalizer: the CRD waits, and creates are refused meanwhile.
  await waitFor(async () => (await condition('gadgets.gone.example.com', 'Terminating'))?.reason === 'InstanceDeletionInProgress');
  const c = await srv.request('POST', base, { body: { apiVersion: 'gone.example.com/v1', kind: 'Gadget', metadata: { name: 'late' } } });
  assert.equal(c.status, 405, c.text);
  assert.equal(c.json().message, 'create not allowed while custom resource definition is terminating');
  assert.equal((await srv.request('GET', `${base}/a`)).status, 404);
  assert.equal((await srv.request('GET', `${CRDS}/gadgets.gone.example.com`)).status, 200);
  // Release `b`: everything goes.
  const rel = await srv.request('PATCH', `${base}/b`, { body: { metadata: { finalizers: null } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
  assert.equal(rel.status, 200, rel.text);
  await waitFor(async () => (await srv.request('GET', `${CRDS}/gadgets.gone.example.com`)).status === 404, 10_000);
  await waitFor(async () => (await srv.request('GET', '/apis/gone.example.com/v1')).status === 404);
  assert.equal((await srv.request('GET', base)).status, 404);
  assert.ok(!(await srv.request('GET', '/apis')).json().groups.some((g: any) => g.name === 'gone.example.com'));
  assert.equal((await srv.request('GET', '/openapi/v3')).json().paths['apis/gone.example.com/v1'], undefined);
  assert.equal((await srv.request('GET', '/openapi/v3/apis/gone.example.com/v1')).status, 404);
});

void test('updates: a new served version appears, an unserved one disappears, storedVersions grows', async () => {
  const m = crdManifest({ group: 'multi.example.com', plural: 'things', kind: 'Thing', shortNames: [] });
  assert.equal((await srv.request('POST', CRDS, { body: m })).status, 201);
  await established('things.multi.example.com');
  const crd = (await srv.request('GET', `${CRDS}/things.multi.example.com`)).json();
  const v1 = crd.spec.versions[0];
  crd.spec.versions = [{ ...v1, storage: false }, { ...v1, name: 'v2', storage: true }];
  const u = await srv.request('PUT', `${CRDS}/things.multi.example.com`, { body: crd });
  assert.equal(u.status, 200, u.text);
  assert.deepEqual(u.json().status.storedVersions, ['v1', 'v2']);
  await waitFor(async () => (await srv.request('GET', '/apis/multi.example.com/v2/namespaces/default/things')).status === 200);
  const obj = await srv.request('POST', '/apis/multi.example.com/v2/namespaces/default/things', { body: { apiVersion: 'multi.example.com/v2', kind: 'Thing', metadata: { name: 'x' }, spec: { color: 'red' } } });
  assert.equal(obj.status, 201, obj.text);
  const asV1 = await srv.request('GET', '/apis/multi.example.com/v1/namespaces/default/things/x');
  assert.equal(asV1.json().apiVersion, 'multi.example.com/v1');
  const group = (await srv.request('GET', '/apis/multi.example.com')).json();
  assert.equal(group.preferredVersion.version, 'v2');
  const again = (await srv.request('GET', `${CRDS}/things.multi.example.com`)).json();
  again.spec.versions[0].served = false;
  assert.equal((await srv.request('PUT', `${CRDS}/things.multi.example.com`, { body: again })).status, 200);
  await waitFor(async () => (await srv.request('GET', '/apis/multi.example.com/v1/namespaces/default/things')).status === 404);
});

void test('a CRD overlapping a built-in resource never replaces it, and its deletion leaves the built-ins alone', async () => {
  const cm = await srv.request('POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'keep' } } });
  assert.equal(cm.status, 201);
  const ing = await srv.request('POST', '/apis/networking.k8s.io/v1/namespaces/default/ingresses', { body: { metadata: { name: 'keep' }, spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } } } } });
  assert.equal(ing.status, 201, ing.text);
  const m = crdManifest({ group: 'networking.k8s.io', plural: 'ingresses', kind: 'Ingress', shortNames: [] }) as any;
  m.metadata.annotations = { 'api-approved.kubernetes.io': 'unapproved, testing overlap' };
  delete m.spec.versions[0].subresources.scale;
  const r = await srv.request('POST', CRDS, { body: m });
  assert.equal(r.status, 201, r.text);
  await established('ingresses.networking.k8s.io');
  const approval = await condition('ingresses.networking.k8s.io', 'KubernetesAPIApprovalPolicyConformant');
  assert.equal(approval.status, 'False');
  assert.equal(approval.reason, 'UnapprovedAnnotation');
  // Still the built-in: its validation applies and the object is there.
  assert.equal((await srv.request('GET', '/apis/networking.k8s.io/v1/namespaces/default/ingresses/keep')).status, 200);
  assert.equal((await srv.request('DELETE', `${CRDS}/ingresses.networking.k8s.io`)).status, 200);
  await waitFor(async () => (await srv.request('GET', `${CRDS}/ingresses.networking.k8s.io`)).status === 404, 10_000);
  assert.equal((await srv.request('GET', '/apis/networking.k8s.io/v1/namespaces/default/ingresses/keep')).status, 200);
  assert.equal((await srv.request('GET', '/apis/networking.k8s.io/v1/namespaces/default/ingresses')).status, 200);
});

void test('changing selectableFields takes effect for field selectors', async () => {
  const m = crdManifest({ group: 'sel.example.com', plural: 'things', kind: 'Thing', shortNames: [] });
  assert.equal((await srv.request('POST', CRDS, { body: m })).status, 201);
  await established('things.sel.example.com');
  const base = '/apis/sel.example.com/v1/namespaces/default/things';
  await srv.request('POST', base, { body: { apiVersion: 'sel.example.com/v1', kind: 'Thing', metadata: { name: 'a' }, spec: { color: 'red', size: 1 } } });
  await srv.request('POST', base, { body: { apiVersion: 'sel.example.com/v1', kind: 'Thing', metadata: { name: 'b' }, spec: { color: 'red', size: 2 } } });
  assert.equal((await srv.request('GET', `${base}?fieldSelector=spec.size%3D2`)).status, 400);
  const crd = (await srv.request('GET', `${CRDS}/things.sel.example.com`)).json();
  crd.spec.versions[0].selectableFields = [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }];
  assert.equal((await srv.request('PUT', `${CRDS}/things.sel.example.com`, { body: crd })).status, 200);
  await waitFor(async () => (await srv.request('GET', `${base}?fieldSelector=spec.size%3D2`)).status === 200);
  const l = (await srv.request('GET', `${base}?fieldSelector=spec.size%3D2`)).json();
  assert.deepEqual(l.items.map((i: any) => i.metadata.name), ['b']);
});

void test('deleting CRDs as a collection still removes their instances first', async () => {
  const m = crdManifest({ group: 'coll.example.com', plural: 'items', kind: 'Item', shortNames: [] }) as any;
  m.metadata.labels = { batch: 'x' };
  assert.equal((await srv.request('POST', CRDS, { body: m })).status, 201);
  await established('items.coll.example.com');
  const base = '/apis/coll.example.com/v1/namespaces/default/items';
  assert.equal((await srv.request('POST', base, { body: { apiVersion: 'coll.example.com/v1', kind: 'Item', metadata: { name: 'i' } } })).status, 201);
  const d = await srv.request('DELETE', `${CRDS}?labelSelector=batch%3Dx`);
  assert.equal(d.status, 200, d.text);
  await waitFor(async () => (await srv.request('GET', `${CRDS}/items.coll.example.com`)).status === 404, 10_000);
  // Recreated, the CRD starts empty: the old instances were deleted, not left behind in storage.
  delete m.metadata.resourceVersion;
  assert.equal((await srv.request('POST', CRDS, { body: m })).status, 201);
  await established('items.coll.example.com');
  await waitFor(async () => (await srv.request('GET', base)).status === 200);
  assert.deepEqual((await srv.request('GET', base)).json().items, []);
});

void test('a non-structural schema is refused with kube messages at spec.validation paths', async () => {
  const m = crdManifest({ group: 'ns.example.com', plural: 'things', kind: 'Thing', shortNames: [] }) as any;
  delete m.spec.versions[0].selectableFields;
  m.spec.versions[0].schema.openAPIV3Schema.properties.spec = { properties: { a: { type: 'string' } } };
  const r = await srv.request('POST', CRDS, { body: m });
  assert.equal(r.status, 422, r.text);
  assert.ok(causes(r).includes('spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields'), causes(r).join('\n'));
});
