import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import type { TableColumn } from '../../api/types.ts';
import { listToTable, objectToTable } from './table.ts';
import { partialObjectMetadata, partialObjectMetadataList } from './partial.ts';
import { readKubeJson } from '../../../test/support/kube-reference.ts';

const ref = (name: string) => readKubeJson<{
  metadata: { resourceVersion: string };
  columnDefinitions: Array<{ name: string; type: string; format: string; description: string; priority: number }>;
  rows: Array<{ cells: unknown[]; object: { metadata: KObject['metadata'] } }> | null;
}>('responses/table', name);

void test('default table matches kube (CRD list, empty: rows null)', () => {
  const want = ref('apis_apiextensions.k8s.io_v1_customresourcedefinitions.json');
  const got = listToTable({}, [], { resourceVersion: want.metadata.resourceVersion }, { version: 'v1', includeObject: 'Metadata' });
  // Column descriptions are our own words on purpose (we never copy Kubernetes' docs, and the fixtures carry none):
  // ours must be there; the rest is kube's.
  for (const c of (got as typeof want).columnDefinitions) assert.ok(c.description, `${c.name} has a description`);
  const withoutDescriptions = (t: typeof want) => ({ ...t, columnDefinitions: t.columnDefinitions.map((c) => ({ ...c, description: '' })) });
  assert.deepEqual(withoutDescriptions(got as typeof want), withoutDescriptions(want));
});

void test('default cells: name and RFC 3339 creation time; one-object tables carry the object RV', () => {
  const obj: KObject = { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'a', namespace: 'ns', resourceVersion: '7', creationTimestamp: '2026-11-21T23:53:02Z' } };
  const t = objectToTable({}, obj, { version: 'v1', includeObject: 'Metadata' });
  assert.deepEqual(t.metadata, { resourceVersion: '7' });
  assert.deepEqual(t.rows?.[0]?.cells, ['a', '2026-11-21T23:53:02Z']);
  assert.deepEqual(t.rows?.[0]?.object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata });
  const noTs = objectToTable({}, { metadata: { name: 'b' } }, { version: 'v1beta1', includeObject: 'None', noHeaders: true });
  assert.equal(noTs.apiVersion, 'meta.k8s.io/v1beta1');
  assert.equal(noTs.columnDefinitions, null);
  assert.deepEqual(noTs.rows, [{ cells: ['b', '0001-01-01T00:00:00Z'], object: null }]);
  assert.equal(objectToTable({}, obj, { version: 'v1', includeObject: 'Object' }).rows?.[0]?.object, obj);
});

void test('printer columns: definitions as given, rows [] when empty, continue and remainingItemCount kept', () => {
  const want = ref('api_v1_namespaces_ref_configmaps.json');
  const cols: TableColumn[] = want.columnDefinitions.map((c) => ({
    name: c.name, type: c.type as TableColumn['type'], ...(c.format ? { format: c.format } : {}), description: c.description, priority: c.priority,
    cell: (o: KObject) => (c.name === 'Name' ? o.metadata.name : c.name === 'Data' ? Object.keys((o['data'] as object | undefined) ?? {}).length : '2s'),
  }));
  const row = want.rows?.[0];
  assert.ok(row);
  const obj: KObject = { kind: 'ConfigMap', apiVersion: 'v1', metadata: row.object.metadata, data: { a: 'b' } };
  const got = listToTable({ tableColumns: cols }, [obj], { resourceVersion: want.metadata.resourceVersion }, { version: 'v1', includeObject: 'Metadata' });
  assert.deepEqual(got, want);
  const empty = listToTable({ tableColumns: cols }, [], { resourceVersion: '1', continue: 'abc', remainingItemCount: 3 }, { version: 'v1', includeObject: 'Metadata' });
  assert.deepEqual(empty.rows, []);
  assert.deepEqual(empty.metadata, { resourceVersion: '1', continue: 'abc', remainingItemCount: 3 });
});

void test('PartialObjectMetadata and its list', () => {
  const obj: KObject = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', labels: { x: 'y' } }, data: { k: 'v' } };
  assert.deepEqual(partialObjectMetadata(obj, 'v1'), { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata });
  assert.deepEqual(partialObjectMetadataList([obj], { resourceVersion: '9' }, 'v1beta1'), {
    kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1beta1', metadata: { resourceVersion: '9' },
    items: [{ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1', metadata: obj.metadata }],
  });
});

void test('a column that throws prints <unknown> instead of failing the table', () => {
  const cols: TableColumn[] = [
    { name: 'Name', type: 'string', format: 'name', description: 'n', priority: 0, cell: (o) => o.metadata.name },
    { name: 'Boom', type: 'string', description: 'b', priority: 0, cell: () => { throw new Error('no status'); } },
  ];
  const t = objectToTable({ tableColumns: cols }, { metadata: { name: 'a' } }, { version: 'v1', includeObject: 'None' });
  assert.deepEqual(t.rows?.[0]?.cells, ['a', '<unknown>']);
});
