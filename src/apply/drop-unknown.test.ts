import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dropUnknownFields } from './drop-unknown.ts';
import { rootNodeFor, unstructuredRoot } from './schema-view.ts';

test('dropUnknownFields: unknown keys of built-in structs go, maps and schemaless parts stay', () => {
  const root = rootNodeFor('apps/v1', 'Deployment')!;
  const d = {
    apiVersion: 'apps/v1', kind: 'Deployment', bogus: 1,
    metadata: { name: 'x', labels: { 'any-key': 'v' }, notMeta: true },
    spec: {
      replicas: 1, extra: { a: 1 },
      template: { spec: { containers: [{ name: 'c', image: 'i', unknownInContainer: 'x', resources: { limits: { cpu: '1' } } }] } },
    },
  };
  dropUnknownFields(d, root);
  assert.deepEqual(d, {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name: 'x', labels: { 'any-key': 'v' } },
    spec: { replicas: 1, template: { spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: '1' } } }] } } },
  });
  const cr = { apiVersion: 'x.io/v1', kind: 'Foo', metadata: { name: 'f', odd: 1 }, spec: { anything: { goes: [1] } } };
  dropUnknownFields(cr, unstructuredRoot());
  assert.deepEqual(cr, { apiVersion: 'x.io/v1', kind: 'Foo', metadata: { name: 'f' }, spec: { anything: { goes: [1] } } });
});
