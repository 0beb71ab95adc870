import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { KObject } from '../api/types.ts';
import { changedSet, fieldSetOf, recordWrite } from './managed-fields.ts';

const deployment = JSON.parse(readFileSync('/work/shared/reference/v1.32-responses/objects/apis_apps_v1_namespaces_ref_deployments_web.json', 'utf8')) as KObject;

void describe('managedFields placeholder', () => {
  void it('matches kube for maps of scalars and structs (deployment reference, spec minus lists)', () => {
    const set = fieldSetOf(deployment);
    const want = deployment.metadata.managedFields![0]!.fieldsV1 as Record<string, Record<string, unknown>>;
    assert.deepEqual(set['f:metadata'], want['f:metadata']);
    const spec = set['f:spec'] as Record<string, unknown>;
    assert.deepEqual(spec['f:strategy'], (want['f:spec'] as Record<string, unknown>)['f:strategy']);
    assert.deepEqual(spec['f:replicas'], {});
    assert.equal('.' in spec, false, 'spec is a struct');
  });

  void it('records the writer, moves changed fields away from other managers, resets with [{}]', () => {
    const old: KObject = { metadata: { name: 'x', managedFields: [{ manager: 'a', operation: 'Update', apiVersion: 'v1', time: 't0', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:k': {}, 'f:j': {} } } }] }, data: { k: '1', j: '2' } };
    const next: KObject = { metadata: { name: 'x', managedFields: old.metadata.managedFields! }, data: { k: '9', j: '2' } };
    recordWrite(next, { manager: 'b', apiVersion: 'v1', subresource: '', time: 't1', old });
    assert.deepEqual(next.metadata.managedFields!.map((m) => [m.manager, m.fieldsV1]), [
      ['a', { 'f:data': { '.': {}, 'f:j': {} } }],
      ['b', { 'f:data': { 'f:k': {} } }],
    ]);
    const reset: KObject = { metadata: { name: 'x', managedFields: [{}] }, data: { k: '9', j: '2' } };
    recordWrite(reset, { manager: 'c', apiVersion: 'v1', subresource: '', time: 't2', old: next });
    assert.deepEqual(reset.metadata.managedFields, undefined, 'reset and nothing changed: no entry');
    assert.deepEqual(changedSet(next, undefined), { 'f:data': { '.': {}, 'f:k': {}, 'f:j': {} } });
  });

  void it('without a manager nothing is recorded', () => {
    const o: KObject = { metadata: { name: 'x' }, data: { a: 'b' } };
    recordWrite(o, { manager: undefined, apiVersion: 'v1', subresource: '', time: 't', old: undefined });
    assert.equal(o.metadata.managedFields, undefined);
  });
});

void describe('managedFields removals', () => {
  void it('a removed field leaves every manager', () => {
    const old: KObject = { metadata: { name: 'x', managedFields: [
      { manager: 'a', operation: 'Update', apiVersion: 'v1', time: 't0', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:k': {} } } },
      { manager: 'b', operation: 'Update', apiVersion: 'v1', time: 't0', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:j': {} } } },
    ] }, data: { k: '1', j: '2' } };
    const next: KObject = { metadata: { name: 'x' }, data: { k: '1' } };
    recordWrite(next, { manager: 'b', apiVersion: 'v1', subresource: '', time: 't1', old });
    assert.deepEqual(next.metadata.managedFields!.map((m) => [m.manager, m.fieldsV1]), [['a', { 'f:data': { '.': {}, 'f:k': {} } }]]);
  });
});
