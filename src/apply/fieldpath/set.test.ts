import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rootNodeFor, unstructuredRoot } from '../schema-view.ts';
import { fieldElement, indexElement, keyElement, parseElement, pathString, valueElement } from './element.ts';
import { ensureNamedFieldsAreMembers } from './named.ts';
import { fieldSetOf } from './from-value.ts';
import { FieldSet } from './set.ts';

const f = fieldElement;
const set = (o: object): FieldSet => FieldSet.fromFieldsV1(o);
const json = (s: FieldSet): string => JSON.stringify(s.toFieldsV1());

test('fieldsV1 round trip keeps "." for members with children and SMD order', () => {
  const raw = { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:data': { 'f:b': {}, 'f:a': {} } };
  const s = set(raw);
  assert.equal(json(s), '{"f:data":{"f:a":{},"f:b":{}},"f:metadata":{"f:labels":{".":{},"f:app":{}}}}');
  assert.ok(s.has([f('metadata'), f('labels')]));
  assert.ok(s.has([f('metadata'), f('labels'), f('app')]));
  assert.ok(!s.has([f('metadata')]));
  assert.equal(s.size(), 4);
});

test('element order: fields < keys < values < indexes; keys by name then value; values numbers < strings', () => {
  const s = FieldSet.of([indexElement(2)], [valueElement('b')], [valueElement(3)], [keyElement([['name', 'x']])], [f('z')], [f('a')]);
  assert.deepEqual(Object.keys(s.toFieldsV1()), ['f:a', 'f:z', 'k:{"name":"x"}', 'v:3', 'v:"b"', 'i:2']);
});

test('keys are canonical: sorted fields, Go escaping', () => {
  const k = keyElement([['protocol', 'TCP'], ['containerPort', 80]]);
  assert.equal(k.id, 'k:{"containerPort":80,"protocol":"TCP"}');
  assert.equal(pathString([f('spec'), f('ports'), k]), '.spec.ports[containerPort=80,protocol="TCP"]');
  assert.equal(valueElement('a<b').id, 'v:"a\\u003cb"');
  assert.equal(parseElement('k:{"protocol":"TCP","containerPort":80}')!.id, k.id);
  assert.equal(pathString([f('finalizers'), valueElement('x')]), '.finalizers[="x"]');
  assert.equal(pathString([f('args'), indexElement(1)]), '.args[1]');
  assert.equal(parseElement('z:whatever'), undefined);
  assert.throws(() => parseElement('fx'));
});

test('union, intersection, difference, recursive difference', () => {
  const a = set({ 'f:a': { '.': {}, 'f:b': {} }, 'f:c': {} });
  const b = set({ 'f:a': {}, 'f:d': {} });
  assert.equal(json(a.union(b)), '{"f:a":{".":{},"f:b":{}},"f:c":{},"f:d":{}}');
  assert.equal(json(a.intersection(b)), '{"f:a":{}}');
  // A member of the other set does not remove what is below it ...
  assert.equal(json(a.difference(b)), '{"f:a":{"f:b":{}},"f:c":{}}');
  // ... unless the difference is recursive.
  assert.equal(json(a.recursiveDifference(b)), '{"f:c":{}}');
  assert.ok(a.difference(a).isEmpty());
  assert.ok(a.union(b).equals(b.union(a)));
  assert.equal(json(a.leaves()), '{"f:a":{"f:b":{}},"f:c":{}}');
});

test('paths iterate members before children, sorted', () => {
  const s = set({ 'f:data': { 'f:b': {}, 'f:a': {} }, 'f:z': {} });
  assert.deepEqual(s.paths().map(pathString), ['.z', '.data.a', '.data.b']);
});

test('fieldSetOf: struct fields leaves, map entries members, map lists keyed with "." and defaults', () => {
  const root = rootNodeFor('apps/v1', 'Deployment')!;
  const obj = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'n', labels: { app: 'n' } },
    spec: {
      replicas: 2, selector: { matchLabels: { app: 'n' } },
      template: { spec: { containers: [{ name: 'c', image: 'i', args: ['a'], ports: [{ containerPort: 80 }], resources: {} }] } },
    },
  };
  assert.deepEqual(fieldSetOf(obj, root).toFieldsV1(), {
    'f:apiVersion': {}, 'f:kind': {},
    'f:metadata': { 'f:labels': { 'f:app': {} }, 'f:name': {} },
    'f:spec': {
      'f:replicas': {}, 'f:selector': {},
      'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': {
        '.': {}, 'f:args': {}, 'f:image': {}, 'f:name': {},
        'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
        'f:resources': {},
      } } } },
    },
  });
});

test('fieldSetOf: sets by value, duplicates owned whole, untyped data all fields with atomic lists', () => {
  const root = rootNodeFor('v1', 'ConfigMap')!;
  const s = fieldSetOf({ metadata: { finalizers: ['a', 'b'], ownerReferences: [{ uid: 'u', name: 'x' }, { uid: 'u', name: 'y' }] } }, root);
  assert.deepEqual(s.toFieldsV1(), { 'f:metadata': { 'f:finalizers': { 'v:"a"': {}, 'v:"b"': {} }, 'f:ownerReferences': { 'k:{"uid":"u"}': {} } } });
  const u = fieldSetOf({ apiVersion: 'x/v1', kind: 'Foo', spec: { a: { b: 1 }, list: [{ x: 1 }], empty: {} } }, unstructuredRoot());
  assert.deepEqual(u.toFieldsV1(), { 'f:apiVersion': {}, 'f:kind': {}, 'f:spec': { 'f:a': { 'f:b': {} }, 'f:empty': {}, 'f:list': {} } });
});

test('ensureNamedFieldsAreMembers adds struct fields, not map keys', () => {
  const root = rootNodeFor('v1', 'ConfigMap')!;
  const s = set({ 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:data': { 'f:x': {} } });
  assert.equal(json(ensureNamedFieldsAreMembers(s, root)), '{"f:data":{".":{},"f:x":{}},"f:metadata":{".":{},"f:labels":{".":{},"f:app":{}}}}');
  const m = FieldSet.of([f('metadata'), f('labels'), f('a')]);
  assert.ok(ensureNamedFieldsAreMembers(m, root).has([f('metadata'), f('labels')]));
});

test('malformed fieldsV1 throws', () => {
  assert.throws(() => FieldSet.fromFieldsV1({ 'f:a': 5 }));
  assert.throws(() => FieldSet.fromFieldsV1({ 'k:{bad': {} }));
  assert.ok(FieldSet.fromFieldsV1({}).isEmpty());
});
