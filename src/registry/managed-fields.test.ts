import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../machinery/objects.ts';
import { managedFieldsFor } from './managed-fields.ts';

const now = new Date('2026-01-02T03:04:05.678Z');
const base = { apiVersion: 'v1', kind: 'ConfigMap', subresource: '', hasStatus: false, now };
const cm = (data: Record<string, string>, managedFields?: KObject['metadata']['managedFields']): KObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'd', ...(managedFields ? { managedFields } : {}) }, data });

void describe('managedFieldsFor', () => {
  void it('records a create as an Update entry of the manager (kube time format, sorted fieldsV1)', () => {
    const mf = managedFieldsFor({ ...base, manager: 'kubectl-create', old: undefined, requested: cm({ b: '1', a: '2' }) });
    assert.deepEqual(mf, [{
      manager: 'kubectl-create', operation: 'Update', apiVersion: 'v1', time: '2026-01-02T03:04:05Z', fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} } },
    }]);
  });

  void it('moves changed fields to the writer, keeps the rest with their owner', () => {
    const old = cm({ a: '1', b: '2' }, managedFieldsFor({ ...base, manager: 'one', old: undefined, requested: cm({ a: '1', b: '2' }) }));
    const mf = managedFieldsFor({ ...base, manager: 'two', old, requested: cm({ a: '9', b: '2' }) });
    assert.deepEqual(mf!.map((e) => [e.manager, e.fieldsV1]), [
      ['one', { 'f:data': { '.': {}, 'f:b': {} } }],
      ['two', { 'f:data': { 'f:a': {} } }],
    ]);
  });

  void it('system callers (no manager) record nothing; [{}] resets', () => {
    const entries = managedFieldsFor({ ...base, manager: 'one', old: undefined, requested: cm({ a: '1' }) });
    const old = cm({ a: '1' }, entries);
    assert.deepEqual(managedFieldsFor({ ...base, manager: undefined, old, requested: cm({ a: '2' }) }), entries);
    assert.equal(managedFieldsFor({ ...base, manager: undefined, old, requested: cm({ a: '2' }, [{}]) }), undefined);
  });

  void it('status is not owned through the main resource of a kind with a status sub-resource', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { nodeName: 'n' }, status: { phase: 'Running' } } as KObject;
    const mf = managedFieldsFor({ ...base, kind: 'Pod', hasStatus: true, manager: 'm', old: undefined, requested: pod });
    assert.deepEqual(mf![0]!.fieldsV1, { 'f:spec': { 'f:nodeName': {} } });
  });
});
