/**
 * Strategic merge patch and server-side apply through HTTP: list merging by key and SMP directives, apply
 * create/update with field ownership (conflicts, force, shared ownership, removal of dropped fields), the
 * managedFields kube-apiserver records (operation, manager, apiVersion, time, subresource, fieldsV1), reset
 * rules, dry-run, field validation, and ownership through the status and scale sub-resources.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { assertMatchesReference, assertStatus, configMap, deployment, reference } from './helpers.ts';

let srv: TestServer;
before(async () => { srv = await startTestServer(); });
after(async () => { await srv?.stop(); });

const CM = '/api/v1/namespaces/default/configmaps';
const DEP = '/apis/apps/v1/namespaces/default/deployments';
const SMP = { 'Content-Type': 'application/strategic-merge-patch+json' };
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

type Entry = { manager: string; operation: string; apiVersion: string; time?: string; fieldsType: string; fieldsV1: unknown; subresource?: string };
/**
 * managedFields as [manager, operation, subresource, fieldsV1], sorted by manager (kube orders entries by
 * operation and time to the second, which a fast test cannot pin down).
 */
const owners = (obj: any) => [...(obj.metadata.managedFields ?? [])]
  .sort((a: Entry, b: Entry) => (a.manager < b.manager ? -1 : a.manager > b.manager ? 1 : 0))
  .map((e: Entry) => [e.manager, e.operation, e.subresource ?? '', e.fieldsV1]);

function applyCm(name: string, data: Record<string, string>, extra: Record<string, unknown> = {}) {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data });
}

void test('strategic merge patch: containers merge by name, $patch: delete, $setElementOrder, bad types', async () => {
  const d = deployment('smp');
  d.spec.template.spec.containers.push({ name: 'side', image: 'busybox:1' });
  assert.equal((await srv.request('POST', DEP, { body: d })).status, 201);
  let r = await srv.request('PATCH', `${DEP}/smp`, { headers: SMP, body: { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:2' }] } } } } });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json().spec.template.spec.containers.map((c: any) => [c.name, c.image]), [['web', 'nginx:2'], ['side', 'busybox:1']]);
  r = await srv.request('PATCH', `${DEP}/smp`, { headers: SMP, body: { spec: { template: { spec: {
    '$setElementOrder/containers': [{ name: 'side' }, { name: 'web' }], containers: [{ name: 'side', image: 'busybox:2' }],
  } } } } });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json().spec.template.spec.containers.map((c: any) => [c.name, c.image]), [['side', 'busybox:2'], ['web', 'nginx:2']]);
  r = await srv.request('PATCH', `${DEP}/smp`, { headers: SMP, body: { spec: { template: { spec: { containers: [{ name: 'side', $patch: 'delete' }] } } } } });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json().spec.template.spec.containers.map((c: any) => c.name), ['web']);
  // The SMP writer owns what it changed (an Update entry named after the User-Agent when no fieldManager).
  r = await srv.request('PATCH', `${DEP}/smp?fieldManager=smp-writer`, { headers: SMP, body: { metadata: { labels: { extra: 'x' } } } });
  const mine = r.json().metadata.managedFields.find((e: Entry) => e.manager === 'smp-writer');
  assert.deepEqual(mine.fieldsV1, { 'f:metadata': { 'f:labels': { 'f:extra': {} } } });
  assert.equal(mine.operation, 'Update');

  assert.equal((await srv.request('POST', CM, { body: configMap('smp-cm') })).status, 201);
  r = await srv.request('PATCH', `${CM}/smp-cm`, { headers: SMP, body: { data: 5 } });
  assertMatchesReference(r, '422-smp-bad-type.json');
  r = await srv.request('PATCH', `${CM}/smp-cm?fieldValidation=Strict`, { headers: SMP, body: { data: { x: 'y' }, bogus: 1 } });
  assertStatus(r, 422, 'Invalid', ' "" is invalid: patch: Invalid value: "map[bogus:1 data:map[x:y]]": strict decoding error: unknown field "bogus"');
  r = await srv.request('PATCH', `${CM}/smp-cm`, { headers: SMP, body: { data: { x: 'y' }, bogus: 1 } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.headers['warning'], '299 - "unknown field \\"bogus\\""');
  assert.equal('bogus' in r.json(), false, 'unknown fields are dropped, as decoding into Go types does');
  assert.deepEqual(r.json().data, { a: 'b', x: 'y' });
  r = await srv.request('PATCH', `${CM}/smp-cm`, { headers: SMP, body: '{"data":' });
  assertStatus(r, 400, 'BadRequest', 'unexpected end of JSON input');
  r = await srv.request('PATCH', `${CM}/smp-cm`, { headers: SMP, body: [1] });
  assertStatus(r, 400, 'BadRequest', 'json: cannot unmarshal array into Go value of type map[string]interface {}');
});

void test('apply: create-on-apply, fieldManager required, managedFields of an Apply', async () => {
  let r = await srv.request('PATCH', `${CM}/ap1`, { headers: APPLY, body: applyCm('ap1', { a: '1' }) });
  assertMatchesReference(r, '422-apply-without-fieldmanager.json');
  r = await srv.request('PATCH', `${CM}/ap1?fieldManager=alice`, { headers: APPLY, body: applyCm('ap1', { a: '1' }, { labels: { team: 'x' } }) });
  assert.equal(r.status, 201, r.text);
  const obj = r.json();
  assert.equal(obj.metadata.namespace, 'default');
  assert.deepEqual(obj.data, { a: '1' });
  const [e] = obj.metadata.managedFields as Entry[];
  assert.deepEqual(Object.keys(e!), ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
  assert.equal(e!.manager, 'alice');
  assert.equal(e!.operation, 'Apply');
  assert.equal(e!.apiVersion, 'v1');
  assert.match(e!.time!, TIME);
  assert.deepEqual(e!.fieldsV1, { 'f:data': { 'f:a': {} }, 'f:metadata': { 'f:labels': { 'f:team': {} } } });
  // Applying the same config again changes nothing: same resourceVersion.
  const again = await srv.request('PATCH', `${CM}/ap1?fieldManager=alice`, { headers: APPLY, body: applyCm('ap1', { a: '1' }, { labels: { team: 'x' } }) });
  assert.equal(again.status, 200, again.text);
  assert.equal(again.json().metadata.resourceVersion, obj.metadata.resourceVersion);
  // YAML bodies work as well as JSON.
  r = await srv.request('PATCH', `${CM}/ap-yaml?fieldManager=alice`, { headers: APPLY, body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ap-yaml\ndata:\n  k: v\n' });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json().data, { k: 'v' });
});

void test('apply: conflicts (exact message), force, shared ownership, removal of dropped fields', async () => {
  assert.equal((await srv.request('PATCH', `${CM}/ap2?fieldManager=alice`, { headers: APPLY, body: applyCm('ap2', { a: '1', b: '2', c: '3' }) })).status, 201);
  let r = await srv.request('PATCH', `${CM}/ap2?fieldManager=bob`, { headers: APPLY, body: applyCm('ap2', { a: 'x' }) });
  let s = assertStatus(r, 409, 'Conflict', 'Apply failed with 1 conflict: conflict with "alice": .data.a');
  assert.deepEqual(s.details, { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.a' }] });
  r = await srv.request('PATCH', `${CM}/ap2?fieldManager=bob`, { headers: APPLY, body: applyCm('ap2', { a: 'x', b: 'y' }) });
  s = assertStatus(r, 409, 'Conflict', 'Apply failed with 2 conflicts: conflicts with "alice":\n- .data.a\n- .data.b');
  assert.equal(s.details.causes.length, 2);
  // Same value: shared, no conflict.
  r = await srv.request('PATCH', `${CM}/ap2?fieldManager=carol`, { headers: APPLY, body: applyCm('ap2', { c: '3' }) });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(owners(r.json()).map((o: unknown[]) => [o[0], o[3]]), [
    ['alice', { 'f:data': { 'f:a': {}, 'f:b': {}, 'f:c': {} } }],
    ['carol', { 'f:data': { 'f:c': {} } }],
  ]);
  // force takes the field over.
  r = await srv.request('PATCH', `${CM}/ap2?fieldManager=bob&force=true`, { headers: APPLY, body: applyCm('ap2', { a: 'x' }) });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json().data.a, 'x');
  assert.deepEqual(owners(r.json()).map((o: unknown[]) => [o[0], o[3]]), [
    ['alice', { 'f:data': { 'f:b': {}, 'f:c': {} } }],
    ['bob', { 'f:data': { 'f:a': {} } }],
    ['carol', { 'f:data': { 'f:c': {} } }],
  ]);
  // alice stops applying b (hers alone: removed) and c (carol still owns it: kept).
  r = await srv.request('PATCH', `${CM}/ap2?fieldManager=alice`, { headers: APPLY, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ap2' } }) });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json().data, { a: 'x', c: '3' });
  assert.deepEqual(owners(r.json()).map((o: unknown[]) => o[0]), ['bob', 'carol']);
  // force is for apply only.
  r = await srv.request('PATCH', `${CM}/ap2?force=true`, { headers: MERGE, body: { data: { z: '1' } } });
  assertStatus(r, 422, 'Invalid', 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
});

void test('apply then update: Update entries move fields away from the applier; reset rules', async () => {
  assert.equal((await srv.request('PATCH', `${CM}/ap3?fieldManager=alice`, { headers: APPLY, body: applyCm('ap3', { a: '1', b: '2' }) })).status, 201);
  let r = await srv.request('PATCH', `${CM}/ap3?fieldManager=editor`, { headers: MERGE, body: { data: { a: 'changed', n: 'new' } } });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(owners(r.json()), [
    ['alice', 'Apply', '', { 'f:data': { 'f:b': {} } }],
    ['editor', 'Update', '', { 'f:data': { 'f:a': {}, 'f:n': {} } }],
  ]);
  // Now alice conflicts with the editor, whose Update entry names its apiVersion.
  r = await srv.request('PATCH', `${CM}/ap3?fieldManager=alice`, { headers: APPLY, body: applyCm('ap3', { a: '1', b: '2' }) });
  assertStatus(r, 409, 'Conflict', 'Apply failed with 1 conflict: conflict with "editor" using v1: .data.a');
  // Without a fieldManager, the User-Agent names the manager.
  r = await srv.request('PATCH', `${CM}/ap3`, { headers: { ...MERGE, 'User-Agent': 'my-tool/1.2 (linux)' }, body: { data: { u: '1' } } });
  assert.ok(r.json().metadata.managedFields.some((e: Entry) => e.manager === 'my-tool' && e.operation === 'Update'));
  // An empty list keeps managedFields; a list with one empty entry strips them.
  r = await srv.request('PATCH', `${CM}/ap3?fieldManager=x`, { headers: MERGE, body: { metadata: { managedFields: [] }, data: { e: '1' } } });
  assert.equal(r.json().metadata.managedFields.length, 4);
  r = await srv.request('PATCH', `${CM}/ap3?fieldManager=x`, { headers: MERGE, body: { metadata: { managedFields: [{}] } } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json().metadata.managedFields, undefined);
  // Managed fields in an apply body are refused.
  r = await srv.request('PATCH', `${CM}/ap3?fieldManager=alice`, { headers: APPLY, body: applyCm('ap3', { a: '1' }, { managedFields: [{ manager: 'x' }] }) });
  assertStatus(r, 400, 'BadRequest', 'metadata.managedFields must be nil');
  // An untracked object gets a before-first-apply owner for what was there.
  r = await srv.request('PATCH', `${CM}/ap3?fieldManager=alice&force=true`, { headers: APPLY, body: applyCm('ap3', { a: '1' }) });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(owners(r.json()).map((o: unknown[]) => [o[0], o[1]]), [['alice', 'Apply'], ['before-first-apply', 'Update']]);
});

void test('apply: dry-run writes nothing, field validation of duplicate keys, name checks', async () => {
  let r = await srv.request('PATCH', `${CM}/ap-dry?fieldManager=alice&dryRun=All`, { headers: APPLY, body: applyCm('ap-dry', { a: '1' }) });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.json().metadata.managedFields[0].operation, 'Apply');
  assert.equal((await srv.request('GET', `${CM}/ap-dry`)).status, 404);

  const dup = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ap-dup\ndata:\n  a: "1"\n  a: "2"\n';
  r = await srv.request('PATCH', `${CM}/ap-dup?fieldManager=alice&fieldValidation=Strict`, { headers: APPLY, body: dup });
  assertStatus(r, 400, 'BadRequest', 'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "a" already set in map');
  r = await srv.request('PATCH', `${CM}/ap-dup?fieldManager=alice`, { headers: APPLY, body: dup });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.headers['warning'], '299 - "line 7: key \\"a\\" already set in map"');

  r = await srv.request('PATCH', `${CM}/other?fieldManager=alice`, { headers: APPLY, body: applyCm('ap-name', { a: '1' }) });
  assertStatus(r, 400, 'BadRequest', 'the name of the object (ap-name) does not match the name on the URL (other)');
  r = await srv.request('PATCH', `${CM}/ap-kind?fieldManager=alice`, { headers: APPLY, body: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'ap-kind' } }) });
  assertStatus(r, 400, 'BadRequest', 'invalid object type: /v1, Kind=Secret');
  // CBOR apply bodies need a feature gate kube 1.33 leaves off.
  r = await srv.request('PATCH', `${CM}/ap-cbor?fieldManager=alice`, { headers: { 'Content-Type': 'application/apply-patch+cbor' }, body: Buffer.from([0xa0]) });
  assertStatus(r, 415, 'UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml');
  r = await srv.request('PATCH', `${CM}/ap-bad?fieldManager=alice`, { headers: APPLY, body: 'a: [' });
  assertStatus(r, 400, 'BadRequest', /^error decoding YAML: /);
  // Fields the schema does not declare: kube answers a bare 500 from the typed conversion (kubernetes#122480).
  r = await srv.request('PATCH', `${CM}/ap-unknown?fieldManager=alice`, { headers: APPLY, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ap-unknown', namespace: 'default' }, spec: { x: 1 } }) });
  assert.equal(r.status, 500, r.text);
  assert.equal(r.json().message, 'failed to create typed patch object (default/ap-unknown; /v1, Kind=ConfigMap): .spec: field not declared in schema');
});

void test('sub-resources: status and scale writes own their fields with their subresource', async () => {
  const d = deployment('own');
  let r = await srv.request('PATCH', `${DEP}/own?fieldManager=deployer`, { headers: APPLY, body: JSON.stringify(d) });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(owners(r.json()).map((o: unknown[]) => [o[0], o[1]]), [['deployer', 'Apply']]);
  const applied = r.json().metadata.managedFields[0].fieldsV1;
  assert.deepEqual(applied['f:spec']['f:replicas'], {});
  assert.deepEqual(applied['f:spec']['f:template']['f:spec']['f:containers'], { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} } });

  // Apply through /status: owned with subresource status.
  r = await srv.request('PATCH', `${DEP}/own/status?fieldManager=ctrl`, { headers: APPLY, body: JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'own' }, status: { replicas: 1 } }) });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json().status.replicas, 1);
  const st = r.json().metadata.managedFields.find((e: Entry) => e.manager === 'ctrl');
  assert.deepEqual([st.operation, st.subresource, st.fieldsV1], ['Apply', 'status', { 'f:status': { 'f:replicas': {} } }]);

  // Scale: the scaler takes spec.replicas from the deployer (an Update through the scale sub-resource).
  r = await srv.request('PATCH', `/apis/apps/v1/namespaces/default/deployments/own/scale?fieldManager=scaler`, { headers: MERGE, body: { spec: { replicas: 3 } } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json().kind, 'Scale');
  r = await srv.request('GET', `${DEP}/own`);
  const dep = r.json();
  assert.equal(dep.spec.replicas, 3);
  const sc = dep.metadata.managedFields.find((e: Entry) => e.manager === 'scaler');
  assert.deepEqual([sc.operation, sc.apiVersion, sc.subresource, sc.fieldsV1], ['Update', 'apps/v1', 'scale', { 'f:spec': { 'f:replicas': {} } }]);
  const deployer = dep.metadata.managedFields.find((e: Entry) => e.manager === 'deployer');
  assert.equal(deployer.fieldsV1['f:spec']['f:replicas'], undefined, 'the deployer lost spec.replicas');
  // Re-applying the old replicas now conflicts with the scaler.
  r = await srv.request('PATCH', `${DEP}/own?fieldManager=deployer`, { headers: APPLY, body: JSON.stringify(d) });
  assertStatus(r, 409, 'Conflict', 'Apply failed with 1 conflict: conflict with "scaler" with subresource "scale" using apps/v1: .spec.replicas');
  // Apply through /scale: an Apply entry with subresource scale; the Scale served has no managedFields.
  const scaleBody = JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'own' }, spec: { replicas: 5 } });
  r = await srv.request('PATCH', `${DEP}/own/scale?fieldManager=hpa`, { headers: APPLY, body: scaleBody });
  assertStatus(r, 409, 'Conflict', 'Apply failed with 1 conflict: conflict with "scaler" with subresource "scale" using autoscaling/v1: .spec.replicas');
  r = await srv.request('PATCH', `${DEP}/own/scale?fieldManager=hpa&force=true`, { headers: APPLY, body: scaleBody });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual([r.json().kind, r.json().spec.replicas, r.json().metadata.managedFields], ['Scale', 5, undefined]);
  const after = (await srv.request('GET', `${DEP}/own`)).json();
  assert.equal(after.spec.replicas, 5);
  assert.deepEqual(owners(after).filter((o: unknown[]) => o[2] === 'scale'), [['hpa', 'Apply', 'scale', { 'f:spec': { 'f:replicas': {} } }]]);
});

void test('creates record the managedFields kube-apiserver records (kubectl create bodies, defaulted)', async () => {
  // Bodies as kubectl create sends them; the reference objects carry what kube recorded for them.
  const cases: Array<[string, string, unknown]> = [
    ['/api/v1/namespaces/default/configmaps', 'api_v1_namespaces_ref_configmaps_cm1.json',
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ref-cm1' }, data: { a: 'b' } }],
    ['/apis/apps/v1/namespaces/default/deployments', 'apis_apps_v1_namespaces_ref_deployments_web.json',
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ref-web', labels: { app: 'web' } }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { creationTimestamp: null, labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1', resources: {} }] } }, strategy: {} }, status: {} }],
    ['/api/v1/namespaces/default/pods', 'api_v1_namespaces_ref_pods_pod1.json',
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'ref-pod1', labels: { run: 'pod1' } }, spec: { containers: [{ name: 'pod1', image: 'busybox', resources: {} }], restartPolicy: 'Never', dnsPolicy: 'ClusterFirst' }, status: {} }],
    ['/api/v1/namespaces/default/services', 'api_v1_namespaces_ref_services_svc1.json',
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ref-svc1', labels: { app: 'svc1' } }, spec: { ports: [{ name: '80-80', protocol: 'TCP', port: 80, targetPort: 80 }], selector: { app: 'svc1' }, type: 'ClusterIP' }, status: { loadBalancer: {} } }],
  ];
  for (const [url, file, body] of cases) {
    const want = reference(`objects/${file}`);
    assert.ok(want, `reference objects/${file} is missing`);
    const r = await srv.request('POST', `${url}?fieldManager=${want.metadata.managedFields[0].manager}`, { body });
    assert.equal(r.status, 201, r.text);
    const got = r.json().metadata.managedFields as Entry[];
    assert.deepEqual(got.map((e) => [e.manager, e.operation, e.apiVersion, e.fieldsType, e.fieldsV1]),
      want.metadata.managedFields.map((e: Entry) => [e.manager, e.operation, e.apiVersion, e.fieldsType, e.fieldsV1]), file);
  }
});
