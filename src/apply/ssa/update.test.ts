import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apply, updateManagedFields } from './index.ts';
import { readKubeJson } from '../../../test/support/kube-reference.ts';

type Obj = Record<string, any>;
interface Result { object: Obj; managedFields: Obj[] | undefined; changed?: boolean }
const applyT = (o: Parameters<typeof apply>[0]): Result => apply(o) as Result;
const updateT = (o: Parameters<typeof updateManagedFields>[0]): Result => updateManagedFields(o) as Result;
const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T00:01:00Z';
const T2 = '2026-01-01T00:02:00Z';

const cm = (data: Record<string, string>, meta: Obj = {}): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', ...meta }, data });
const byManager = (o: Obj): Record<string, unknown> => Object.fromEntries((o.metadata.managedFields ?? []).map((e: Obj) => [`${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ''}`, e.fieldsV1]));

function applied(): Obj {
  return applyT({ live: undefined, applied: cm({ a: '1', b: '1' }), manager: 'mgr', force: false, apiVersion: 'v1', now: T0 }).object;
}

test('an update moves ownership of the fields it changes to the updater', () => {
  const live = applied();
  const edited = { ...live, data: { a: '2', b: '1', c: '3' } };
  const r = updateT({ old: live, updated: edited, manager: 'kubectl-edit', apiVersion: 'v1', now: T1 });
  assert.deepEqual(byManager(r.object), {
    'mgr/Apply': { 'f:data': { 'f:b': {} } },
    'kubectl-edit/Update': { 'f:data': { 'f:a': {}, 'f:c': {} } },
  });
  const e = r.managedFields!.find((x) => x.manager === 'kubectl-edit')!;
  assert.equal(e.time, T1);
});

test('removed fields leave every manager; empty managers disappear', () => {
  const live = applied();
  const r = updateT({ old: live, updated: { ...live, data: undefined }, manager: 'editor', apiVersion: 'v1', now: T1 });
  assert.equal(r.object.metadata.managedFields, undefined);
  assert.equal(r.managedFields, undefined);
});

test('an update that changes nothing keeps entries and times', () => {
  const live = applied();
  const r = updateT({ old: live, updated: structuredClone(live), manager: 'editor', apiVersion: 'v1', now: T2 });
  assert.deepEqual(r.managedFields, live.metadata.managedFields);
});

test('reset rules: [{}] strips managedFields, [] keeps the live ones, absent keeps the live ones', () => {
  const live = applied();
  const reset = updateT({ old: live, updated: { ...live, metadata: { ...live.metadata, managedFields: [{}] }, data: { a: '9', b: '1' } }, manager: 'x', apiVersion: 'v1', now: T1 });
  assert.equal(reset.object.metadata.managedFields, undefined, 'an existing object with no managers stays untracked');
  const empty = updateT({ old: live, updated: { ...live, metadata: { ...live.metadata, managedFields: [] } }, manager: 'x', apiVersion: 'v1', now: T1 });
  assert.deepEqual(empty.managedFields, live.metadata.managedFields);
  const absent = updateT({ old: live, updated: { ...live, metadata: { name: 'cm' } }, manager: 'x', apiVersion: 'v1', now: T1 });
  assert.deepEqual(absent.managedFields, live.metadata.managedFields);
});

test('a reset on create still records the creator', () => {
  const r = updateT({ old: undefined, updated: cm({ a: '1' }, { managedFields: [{}] }), manager: 'creator', apiVersion: 'v1', now: T0 });
  assert.deepEqual(byManager(r.object), { 'creator/Update': { 'f:data': { '.': {}, 'f:a': {} } } });
});

test('managedFields written by the client replace the live ones (kube lets Update set them)', () => {
  const live = applied();
  const mine = [{ manager: 'someone', operation: 'Update', apiVersion: 'v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {}, 'f:b': {} } } }];
  const r = updateT({ old: live, updated: { ...live, metadata: { ...live.metadata, managedFields: mine } }, manager: 'x', apiVersion: 'v1', now: T1 });
  assert.deepEqual(r.managedFields, mine);
  // Unreadable entries fall back to the live object's.
  const junk = updateT({ old: live, updated: { ...live, metadata: { ...live.metadata, managedFields: [{ manager: 'x', operation: 'Bogus' }] } }, manager: 'x', apiVersion: 'v1', now: T1 });
  assert.deepEqual(junk.managedFields, live.metadata.managedFields);
});

test('writes through a subresource get their own entry and ignore managedFields in the body', () => {
  const dep: Obj = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 1 } };
  const live = updateT({ old: undefined, updated: dep, manager: 'kubectl-create', apiVersion: 'apps/v1', now: T0 }).object;
  const withStatus = { ...live, metadata: { ...live.metadata, managedFields: [{}] }, status: { replicas: 1, readyReplicas: 1 } };
  const r = updateT({ old: live, updated: withStatus, manager: 'kube-controller-manager', apiVersion: 'apps/v1', subresource: 'status', now: T1 });
  assert.deepEqual(byManager(r.object), {
    'kubectl-create/Update': { 'f:spec': { 'f:replicas': {} } },
    'kube-controller-manager/Update/status': { 'f:status': { 'f:readyReplicas': {}, 'f:replicas': {} } },
  });
});

test('non-pointer structs and required lists read as present in the zero object (no "." on them)', () => {
  const pod: Obj = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { run: 'p' } }, spec: { containers: [{ name: 'p', image: 'nginx', resources: {} }], securityContext: {} } };
  const r = updateT({ old: undefined, updated: pod, manager: 'kubectl-run', apiVersion: 'v1', now: T0 });
  assert.deepEqual(byManager(r.object)['kubectl-run/Update'], {
    'f:metadata': { 'f:labels': { '.': {}, 'f:run': {} } },
    'f:spec': { 'f:containers': { 'k:{"name":"p"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:resources': {} } }, 'f:securityContext': {} },
  });
});

test('an existing object nobody manages stays untracked on update', () => {
  const r = updateT({ old: cm({ a: '1' }), updated: cm({ a: '2' }), manager: 'x', apiVersion: 'v1', now: T1 });
  assert.equal(r.managedFields, undefined);
});

test('more than ten updaters fold the oldest into ancient-changes', () => {
  let live: Obj = cm({ k0: 'v' });
  live = updateT({ old: undefined, updated: live, manager: 'm0', apiVersion: 'v1', now: T0 }).object;
  for (let i = 1; i <= 11; i++) {
    const next = { ...live, data: { ...(live.data ?? {}), [`k${i}`]: 'v' } };
    live = updateT({ old: live, updated: next, manager: `m${i}`, apiVersion: 'v1', now: new Date(Date.parse(T0) + i * 1000) }).object;
  }
  const names = (live.metadata.managedFields as Obj[]).map((e) => e.manager);
  assert.equal(names.length, 10);
  assert.equal(names[0], 'ancient-changes');
  assert.deepEqual(live.metadata.managedFields[0].fieldsV1, { 'f:data': { '.': {}, 'f:k0': {}, 'f:k1': {}, 'f:k2': {} } });
});

test('creates record exactly what kube-apiserver recorded for the reference objects', async () => {
  for (const file of ['api_v1_namespaces_ref_configmaps_cm1.json', 'apis_apps_v1_namespaces_ref_deployments_web.json', 'api_v1_namespaces_ref_services_svc1.json', 'api_v1_namespaces_ref_pods_pod1.json']) {
    const ref = readKubeJson<Obj>('responses/objects', file);
    const want = ref.metadata.managedFields[0];
    const { managedFields: _drop, ...meta } = ref.metadata;
    void _drop;
    // The object as it was created: the stored form without what the server filled in after the field manager ran.
    const updated: Obj = { ...ref, metadata: meta };
    delete updated.status;
    // Service IPs and families are allocated by the service storage after the field manager ran.
    if (ref.kind === 'Service') for (const k of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy']) delete updated.spec[k];
    // Pod admission (service account, priority, default tolerations) and scheduling come after it too.
    if (ref.kind === 'Pod') {
      for (const k of ['volumes', 'serviceAccount', 'serviceAccountName', 'priority', 'preemptionPolicy', 'tolerations', 'nodeName']) delete updated.spec[k];
      for (const c of updated.spec.containers) delete c.volumeMounts;
    }
    const r = updateT({ old: undefined, updated, manager: want.manager, apiVersion: want.apiVersion, now: want.time });
    assert.deepEqual(r.managedFields, [want], file);
  }
});

test('manager from fieldManager, else the User-Agent prefix', async () => {
  const { managerOrUserAgent, fieldManagerProblems } = await import('./manager-name.ts');
  assert.equal(managerOrUserAgent('mine', 'kubectl/v1.33.0'), 'mine');
  assert.equal(managerOrUserAgent('', 'kubectl/v1.33.0 (linux/amd64) kubernetes/abc'), 'kubectl');
  assert.equal(managerOrUserAgent(undefined, 'Go-http-client/2.0'), 'Go-http-client');
  assert.equal(managerOrUserAgent(undefined, `a\u0001b${'x'.repeat(200)}`).length, 128);
  assert.equal(managerOrUserAgent(undefined, undefined), '');
  assert.deepEqual(fieldManagerProblems('ok'), []);
  assert.deepEqual(fieldManagerProblems('a\tb'), [{ type: 'Invalid', detail: 'invalid character U+0009 (at position 1)' }]);
});

test('kubectl scale: ownership of replicas moves through the Scale to a scale entry on the parent', async () => {
  const { toScale, toParent } = await import('./scale.ts');
  const deploy: Obj = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 1, minReadySeconds: 5 } };
  const parent = updateT({ old: undefined, updated: deploy, manager: 'kubectl-create', apiVersion: 'apps/v1', now: T0 }).object;
  const scaleEntries = toScale({ parentEntries: parent.metadata.managedFields, parentApiVersion: 'apps/v1' });
  assert.deepEqual(scaleEntries, [{ manager: 'kubectl-create', operation: 'Update', apiVersion: 'autoscaling/v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } }]);
  const oldScale = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'd', managedFields: scaleEntries }, spec: { replicas: 1 } };
  const newScale = { ...oldScale, spec: { replicas: 3 } };
  const r = updateT({ old: oldScale, updated: newScale, manager: 'kubectl', apiVersion: 'autoscaling/v1', subresource: 'scale', now: T1 });
  const entries = toParent({ parentEntries: parent.metadata.managedFields, parentApiVersion: 'apps/v1', scaleEntries: r.managedFields as never });
  assert.deepEqual(entries, [
    { manager: 'kubectl', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' },
    { manager: 'kubectl-create', operation: 'Update', apiVersion: 'apps/v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:minReadySeconds': {} } } },
  ]);
});
