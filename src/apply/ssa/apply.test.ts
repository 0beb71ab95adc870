import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../machinery/errors.ts';
import { apply, ConflictError, updateManagedFields } from './index.ts';
import { readKubeJson } from '../../../test/support/kube-reference.ts';

type Obj = Record<string, any>;
interface Result { object: Obj; managedFields: Obj[] | undefined; changed?: boolean }
const applyT = (o: Parameters<typeof apply>[0]): Result => apply(o) as Result;
const updateT = (o: Parameters<typeof updateManagedFields>[0]): Result => updateManagedFields(o) as Result;
const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T00:01:00Z';
const T2 = '2026-01-01T00:02:00Z';

const cm = (data: Record<string, string>, extra: Obj = {}): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns', ...extra }, data });
const entry = (o: Obj, manager: string): Obj | undefined => (o.metadata.managedFields as Obj[] | undefined)?.find((e) => e.manager === manager);
const fields = (o: Obj, manager: string): unknown => entry(o, manager)?.fieldsV1;

function created(): Obj {
  return updateT({ old: undefined, updated: cm({ a: '1' }), manager: 'kubectl-create', apiVersion: 'v1', now: T0 }).object;
}

test('create records an Update entry owning what the object sets (new maps marked with ".")', () => {
  const o = created();
  assert.deepEqual(o.metadata.managedFields, [{
    manager: 'kubectl-create', operation: 'Update', apiVersion: 'v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } },
  }]);
});

test('apply changing a field another manager owns: 409 exactly as kube-apiserver', () => {
  const ref = readKubeJson('responses/errors/409-apply-conflict.json') as unknown;
  try {
    applyT({ live: created(), applied: cm({ a: '2' }), manager: 'mgr', force: false, apiVersion: 'v1', now: T1 });
    assert.fail('expected a conflict');
  } catch (e) {
    assert.ok(e instanceof ConflictError);
    assert.ok(e instanceof StatusError);
    assert.deepEqual(e.toStatus(), ref);
  }
});

test('several conflicts: one cause each, grouped by manager in the message', () => {
  let live = updateT({ old: undefined, updated: cm({ a: '1', b: '1' }), manager: 'one', apiVersion: 'v1', now: T0 }).object;
  live = applyT({ live, applied: cm({ c: '1' }), manager: 'two', force: false, apiVersion: 'v1', now: T0 }).object;
  try {
    applyT({ live, applied: cm({ a: '2', b: '2', c: '2' }), manager: 'three', force: false, apiVersion: 'v1', now: T1 });
    assert.fail('expected a conflict');
  } catch (e) {
    assert.ok(e instanceof ConflictError);
    const s = e.toStatus();
    assert.equal(s.message, 'Apply failed with 3 conflicts: conflicts with "one" using v1:\n- .data.a\n- .data.b\nconflicts with "two":\n- .data.c');
    assert.deepEqual(s.details?.causes, [
      { reason: 'FieldManagerConflict', message: 'conflict with "one" using v1', field: '.data.a' },
      { reason: 'FieldManagerConflict', message: 'conflict with "one" using v1', field: '.data.b' },
      { reason: 'FieldManagerConflict', message: 'conflict with "two"', field: '.data.c' },
    ]);
  }
});

test('same value: shared ownership, no conflict, object unchanged, time of the applier set only on change', () => {
  const r = applyT({ live: created(), applied: cm({ a: '1' }), manager: 'mgr', force: false, apiVersion: 'v1', now: T1 });
  assert.equal(r.changed, false);
  assert.deepEqual(fields(r.object, 'mgr'), { 'f:data': { 'f:a': {} } });
  assert.equal(entry(r.object, 'mgr')!.time, undefined);
  assert.deepEqual(fields(r.object, 'kubectl-create'), { 'f:data': { '.': {}, 'f:a': {} } });
  // Apply entries sort before Update entries.
  assert.deepEqual(r.object.metadata.managedFields.map((e: Obj) => e.operation), ['Apply', 'Update']);
});

test('force takes the field over', () => {
  const r = applyT({ live: created(), applied: cm({ a: '2' }), manager: 'mgr', force: true, apiVersion: 'v1', now: T1 });
  assert.equal(r.object.data.a, '2');
  assert.deepEqual(fields(r.object, 'mgr'), { 'f:data': { 'f:a': {} } });
  assert.equal(entry(r.object, 'mgr')!.time, T1);
  assert.deepEqual(fields(r.object, 'kubectl-create'), { 'f:data': {} });
});

test('fields an applier stops applying are removed unless someone else owns them', () => {
  let live = applyT({ live: undefined, applied: cm({ a: '1', b: '1', c: '1' }), manager: 'one', force: false, apiVersion: 'v1', now: T0 }).object;
  live = applyT({ live, applied: cm({ b: '1' }), manager: 'two', force: false, apiVersion: 'v1', now: T0 }).object; // shares b
  live = updateT({ old: live, updated: { ...live, data: { ...live.data, c: '9' } }, manager: 'editor', apiVersion: 'v1', now: T1 }).object; // takes c
  const r = applyT({ live, applied: cm({}), manager: 'one', force: false, apiVersion: 'v1', now: T2 });
  assert.deepEqual(r.object.data, { b: '1', c: '9' }, 'a removed; b kept (two applies it); c kept (editor updated it)');
  // Applying `data: {}` owns the (now empty, hence omitted) map itself, as SMD records empty maps.
  assert.deepEqual(fields(r.object, 'one'), { 'f:data': {} });
});

test('apply creates: managedFields on the new object, defaults of list keys in k: elements', () => {
  const deployment = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web' } },
    spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }] }] } } },
  };
  const r = applyT({ live: undefined, applied: deployment, manager: 'kubectl', force: false, apiVersion: 'apps/v1', kind: 'Deployment', now: T0 });
  assert.equal(r.changed, true);
  assert.deepEqual(r.managedFields, [{
    manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', time: T0, fieldsType: 'FieldsV1',
    fieldsV1: {
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': {
        'f:replicas': {}, 'f:selector': {},
        'f:template': {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } } } } },
        },
      },
    },
  }]);
  assert.equal(r.object.spec.template.spec.containers[0].image, 'nginx');
  // Re-applying the same config is a no-op for the object and its managedFields.
  const again = applyT({ live: r.object, applied: deployment, manager: 'kubectl', force: false, apiVersion: 'apps/v1', now: T1 });
  assert.equal(again.changed, false);
  assert.deepEqual(again.managedFields, r.managedFields);
});

const dep = (containers: Obj[]): Obj => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { template: { spec: { containers } } } });

test('map lists merge by key across managers; each applier removes only its own items', () => {
  let live = applyT({ live: undefined, applied: dep([{ name: 'app', image: 'app:1' }]), manager: 'one', force: false, apiVersion: 'apps/v1', now: T0 }).object;
  live = applyT({ live, applied: dep([{ name: 'proxy', image: 'envoy' }]), manager: 'two', force: false, apiVersion: 'apps/v1', now: T0 }).object;
  assert.deepEqual(live.spec.template.spec.containers.map((c: Obj) => c.name), ['app', 'proxy']);
  live = applyT({ live, applied: dep([{ name: 'app', image: 'app:2' }]), manager: 'one', force: false, apiVersion: 'apps/v1', now: T1 }).object;
  assert.deepEqual(live.spec.template.spec.containers.map((c: Obj) => `${c.name}=${c.image}`), ['app=app:2', 'proxy=envoy']);
  const r = applyT({ live, applied: dep([]), manager: 'two', force: false, apiVersion: 'apps/v1', now: T2 });
  assert.deepEqual(r.object.spec.template.spec.containers.map((c: Obj) => c.name), ['app']);
  // Changing another manager's container field conflicts with a keyed path.
  assert.throws(() => applyT({ live, applied: dep([{ name: 'proxy', image: 'nginx' }]), manager: 'one', force: false, apiVersion: 'apps/v1', now: T2 }),
    (e: unknown) => e instanceof ConflictError && e.message === 'Apply failed with 1 conflict: conflict with "two": .spec.template.spec.containers[name="proxy"].image');
});

test('atomic lists are owned and replaced whole', () => {
  let live = applyT({ live: undefined, applied: dep([{ name: 'c', args: ['a', 'b'] }]), manager: 'one', force: false, apiVersion: 'apps/v1', now: T0 }).object;
  assert.deepEqual(fields(live, 'one'), { 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:args': {}, 'f:name': {} } } } } } });
  assert.throws(() => applyT({ live, applied: dep([{ name: 'c', args: ['a'] }]), manager: 'two', force: false, apiVersion: 'apps/v1', now: T1 }),
    /conflict with "one": \.spec\.template\.spec\.containers\[name="c"\]\.args$/);
  live = applyT({ live, applied: dep([{ name: 'c', args: ['z'] }]), manager: 'two', force: true, apiVersion: 'apps/v1', now: T1 }).object;
  assert.deepEqual(live.spec.template.spec.containers[0].args, ['z']);
});

test('sets (finalizers) merge by value and conflict per value', () => {
  const withFin = (f: string[]): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', finalizers: f } });
  let live = applyT({ live: undefined, applied: withFin(['a/x']), manager: 'one', force: false, apiVersion: 'v1', now: T0 }).object;
  live = applyT({ live, applied: withFin(['b/y']), manager: 'two', force: false, apiVersion: 'v1', now: T0 }).object;
  assert.deepEqual(live.metadata.finalizers, ['a/x', 'b/y']);
  assert.deepEqual(fields(live, 'two'), { 'f:metadata': { 'f:finalizers': { 'v:"b/y"': {} } } });
  live = applyT({ live, applied: withFin([]), manager: 'one', force: false, apiVersion: 'v1', now: T1 }).object;
  assert.deepEqual(live.metadata.finalizers, ['b/y']);
});

test('unstructured objects: every key a field, lists atomic', () => {
  const widget = (spec: Obj): Obj => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec });
  let live = applyT({ live: undefined, applied: widget({ size: 1, tags: ['a'], nested: { x: 1 } }), manager: 'one', force: false, apiVersion: 'example.com/v1', now: T0 }).object;
  assert.deepEqual(fields(live, 'one'), { 'f:spec': { 'f:nested': { 'f:x': {} }, 'f:size': {}, 'f:tags': {} } });
  live = applyT({ live, applied: widget({ nested: { y: 2 } }), manager: 'two', force: false, apiVersion: 'example.com/v1', now: T0 }).object;
  assert.deepEqual(live.spec, { size: 1, tags: ['a'], nested: { x: 1, y: 2 } });
  assert.throws(() => applyT({ live, applied: widget({ tags: ['b'] }), manager: 'two', force: false, apiVersion: 'example.com/v1', now: T1 }), /conflict with "one": \.spec\.tags/);
  const r = applyT({ live, applied: widget({ size: 1 }), manager: 'one', force: false, apiVersion: 'example.com/v1', now: T1 });
  assert.deepEqual(r.object.spec, { size: 1, nested: { y: 2 } });
});

test('a live object without managers is first attributed to before-first-apply', () => {
  const live = cm({ a: '1' });
  assert.throws(() => applyT({ live, applied: cm({ a: '2' }), manager: 'mgr', force: false, apiVersion: 'v1', now: T1 }),
    (e: unknown) => e instanceof ConflictError && e.message === 'Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.a');
  const r = applyT({ live, applied: cm({ b: '2' }), manager: 'mgr', force: false, apiVersion: 'v1', now: T1 });
  assert.deepEqual(r.object.data, { a: '1', b: '2' });
  assert.deepEqual(fields(r.object, 'before-first-apply'), { 'f:data': { '.': {}, 'f:a': {} } });
});

test('apply body checks: managedFields must be nil, object type must match', () => {
  const bad = (applied: Obj): StatusError => {
    try {
      applyT({ live: created(), applied, manager: 'm', force: false, apiVersion: 'v1', now: T1 });
    } catch (e) {
      assert.ok(e instanceof StatusError);
      return e;
    }
    assert.fail('expected an error');
  };
  const e1 = bad({ ...cm({}), metadata: { name: 'cm', managedFields: [] } });
  assert.deepEqual([e1.code, e1.reason, e1.message], [400, 'BadRequest', 'metadata.managedFields must be nil']);
  const e2 = bad({ ...cm({}), apiVersion: 'apps/v1' });
  assert.deepEqual([e2.code, e2.message], [400, 'invalid object type: apps/v1, Kind=ConfigMap']);
  const e3 = bad({ ...cm({}), kind: 'Secret' });
  assert.equal(e3.message, 'invalid object type: /v1, Kind=Secret');
  // null managedFields is accepted, as kube reads it as absent.
  assert.doesNotThrow(() => applyT({ live: created(), applied: { ...cm({ a: '1' }), metadata: { name: 'cm', managedFields: null } }, manager: 'm', force: false, apiVersion: 'v1', now: T1 }));
});

test('reset fields (status on the main resource) are neither owned nor conflicting', async () => {
  const { resetFields } = await import('./reset-fields.ts');
  const applied = { ...dep([{ name: 'c', image: 'i' }]), status: { replicas: 3 } };
  const r = applyT({ live: undefined, applied, manager: 'm', force: false, apiVersion: 'apps/v1', now: T0, ignoredFields: resetFields({ hasStatus: true }) });
  assert.equal((fields(r.object, 'm') as Obj)['f:status'], undefined);
});

test('apply bodies that do not fit the schema: the 500 kube answers, with SMD messages', () => {
  const err = (applied: Obj): string => {
    try {
      applyT({ live: undefined, applied, manager: 'm', force: false, apiVersion: applied.apiVersion, now: T0 });
    } catch (e) {
      assert.ok(e instanceof StatusError);
      assert.equal(e.code, 500);
      return e.message;
    }
    assert.fail('expected an error');
  };
  assert.equal(err({ ...dep([]), metadata: { name: 'd', namespace: 'ns' }, spec: { replicas: 'two' } }),
    'failed to create typed patch object (ns/d; apps/v1, Kind=Deployment): .spec.replicas: expected numeric (int or float), got string');
  assert.equal(err({ ...cm({}), foo: 1 }), 'failed to create typed patch object (ns/cm; /v1, Kind=ConfigMap): .foo: field not declared in schema');
  assert.equal(err(dep([{ name: 'a' }, { name: 'a' }])),
    'failed to create typed patch object (/d; apps/v1, Kind=Deployment): .spec.template.spec.containers: duplicate entries for key [name="a"]');
  assert.match(err({ ...cm({}), data: { a: 1 }, immutable: 'no' }), /: errors:\n  \.data\.a: expected string, got .*\n  \.immutable: expected boolean, got &\{no\}$/);
});

test('kubectl server-side apply takes over what its client-side last-applied annotation still describes', () => {
  const lastApplied = JSON.stringify(cm({ a: '1', b: '1' }));
  const csa = (data: Record<string, string>): Obj => updateT({ old: undefined, updated: cm(data, { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied } }), manager: 'kubectl-client-side-apply', apiVersion: 'v1', now: T0 }).object;
  const r = applyT({ live: csa({ a: '1', b: '1' }), applied: cm({ a: '2', b: '1' }), manager: 'kubectl', force: false, apiVersion: 'v1', now: T1 });
  assert.equal(r.object.data.a, '2');
  // The annotation is kept in sync with what kubectl applied.
  assert.equal(JSON.parse(r.object.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).data.a, '2');
  // A field changed since the last client-side apply still conflicts.
  assert.throws(() => applyT({ live: csa({ a: '9', b: '1' }), applied: cm({ a: '2', b: '1' }), manager: 'kubectl', force: false, apiVersion: 'v1', now: T1 }),
    (e: unknown) => e instanceof ConflictError && e.message === 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.a');
  // Other managers get no such leniency.
  assert.throws(() => applyT({ live: csa({ a: '1', b: '1' }), applied: cm({ a: '2' }), manager: 'other', force: false, apiVersion: 'v1', now: T1 }), ConflictError);
});
