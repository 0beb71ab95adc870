import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeJson, encodeYaml, goJsonStringify } from './encode.ts';

void test("JSON as Go's encoding/json writes it: HTML-significant characters and line separators escaped", () => {
  assert.equal(goJsonStringify({ a: '<b> & \u2028' }), '{"a":"\\u003cb\\u003e \\u0026 \\u2028"}');
  assert.equal(goJsonStringify({ plain: 'x' }), '{"plain":"x"}');
  assert.equal(encodeJson({ a: 1, b: [] }, true).toString(), '{\n  "a": 1,\n  "b": []\n}\n');
  assert.equal(encodeJson({ a: '&' }, false).toString(), '{"a":"\\u0026"}\n');
});

void test('YAML as sigs.k8s.io/yaml writes it: sorted keys, unindented sequences, YAML 1.1 quoting', () => {
  const y = encodeYaml({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x', finalizers: ['a', 'b'] }, data: { on: 'yes', n: '1' } }).toString();
  assert.equal(y, 'apiVersion: v1\ndata:\n  "n": "1"\n  "on": "yes"\nkind: ConfigMap\nmetadata:\n  finalizers:\n  - a\n  - b\n  name: x\n');
});
