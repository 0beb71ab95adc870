import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import { StatusError } from '../../machinery/errors.ts';
import { checkMetaTypes } from './meta-types.ts';

const def = { kind: 'ConfigMap', version: 'v1' };
const prefix = 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal ';

void describe('metadata JSON types', () => {
  const cases: [string, unknown, string][] = [
    ['labels as a string', { labels: 'x' }, 'string into Go struct field ObjectMeta.metadata.labels of type map[string]string'],
    ['a label value as a number', { labels: { a: 1 } }, 'number into Go struct field ObjectMeta.metadata.labels of type string'],
    ['finalizers as an object', { finalizers: {} }, 'object into Go struct field ObjectMeta.metadata.finalizers of type []string'],
    ['generation as a string', { generation: '1' }, 'string into Go struct field ObjectMeta.metadata.generation of type int64'],
    ['generation as a fraction', { generation: 1.5 }, 'number 1.5 into Go struct field ObjectMeta.metadata.generation of type int64'],
    ['ownerReferences of strings', { ownerReferences: ['a'] }, 'string into Go struct field ObjectMeta.metadata.ownerReferences of type v1.OwnerReference'],
    ['name as a number', { name: 5 }, 'number into Go struct field ObjectMeta.metadata.name of type string'],
  ];
  for (const [title, meta, tail] of cases) {
    void it(title, () => {
      assert.throws(() => checkMetaTypes(def, { metadata: meta } as KObject), (e: unknown) => e instanceof StatusError && e.code === 400 && e.message === prefix + tail);
    });
  }
  void it('accepts well-typed metadata and nulls', () => {
    checkMetaTypes(def, { metadata: { name: 'a', labels: { a: 'b' }, finalizers: ['x'], generation: 2, deletionTimestamp: null } });
    assert.throws(() => checkMetaTypes(def, { metadata: 'x' } as unknown as KObject), /cannot unmarshal string into Go struct field ConfigMap.metadata of type v1.ObjectMeta/);
  });
});
