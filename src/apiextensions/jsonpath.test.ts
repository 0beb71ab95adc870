import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileJsonPath, jsonPathText, JsonPathError } from './jsonpath.ts';

const obj = {
  metadata: { name: 'x', labels: { 'app.kubernetes.io/name': 'web' } },
  spec: { replicas: 3, items: [{ n: 1 }, { n: 2 }, { n: 3 }] },
  status: { conditions: [{ type: 'Ready', status: 'True' }, { type: 'Synced', status: 'False' }] },
};

void test('fields, indexes, wildcards', () => {
  assert.deepEqual(compileJsonPath('.spec.replicas').find(obj), [3]);
  assert.deepEqual(compileJsonPath('{.spec.replicas}').find(obj), [3]);
  assert.deepEqual(compileJsonPath('.spec.items[1].n').find(obj), [2]);
  assert.deepEqual(compileJsonPath('.spec.items[-1].n').find(obj), [3]);
  assert.deepEqual(compileJsonPath('.spec.items[*].n').find(obj), [1, 2, 3]);
  assert.deepEqual(compileJsonPath(".metadata.labels['app.kubernetes.io/name']").find(obj), ['web']);
  assert.deepEqual(compileJsonPath('..n').find(obj), [1, 2, 3]);
});

void test('missing fields find nothing', () => {
  assert.deepEqual(compileJsonPath('.spec.missing.deeper').find(obj), []);
  assert.deepEqual(compileJsonPath('.spec.items[7]').find(obj), []);
});

void test('filters', () => {
  assert.deepEqual(compileJsonPath('.status.conditions[?(@.type=="Ready")].status').find(obj), ['True']);
  assert.deepEqual(compileJsonPath(".status.conditions[?(@.type!='Ready')].type").find(obj), ['Synced']);
  assert.deepEqual(compileJsonPath('.spec.items[?(@.n > 1)].n').find(obj), [2, 3]);
  assert.deepEqual(compileJsonPath('.spec.items[?(@.n)].n').find(obj), [1, 2, 3]);
});

void test('syntax errors are JsonPathErrors', () => {
  assert.throws(() => compileJsonPath('.spec.items[1:2'), JsonPathError);
  assert.throws(() => compileJsonPath('.a[?(@.b =~ "x")]'), JsonPathError);
});

void test('text rendering as jsonpath prints values', () => {
  assert.equal(jsonPathText('s'), 's');
  assert.equal(jsonPathText(1.5), '1.5');
  assert.equal(jsonPathText({ b: 1, a: 'x' }), 'map[a:x b:1]');
  assert.equal(jsonPathText([1, 'a']), '[1 a]');
});
