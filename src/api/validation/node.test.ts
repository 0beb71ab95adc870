// ValidateRuntimeClass / ValidateRuntimeClassUpdate (pkg/apis/node/validation/validation.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateRuntimeClass, validateRuntimeClassUpdate } from './node.ts';
import type { J } from './util.ts';

const rc = (o: J): J => ({ metadata: { name: 'gvisor' }, handler: 'runsc', ...o });

test('runtimeclass: handler is a DNS label; overhead and scheduling checked', () => {
  assert.deepEqual(validateRuntimeClass(rc({ overhead: { podFixed: { cpu: '250m' } }, scheduling: { nodeSelector: { a: 'b' }, tolerations: [{ key: 'k', operator: 'Exists' }] } })).map(String), []);
  assert.deepEqual(validateRuntimeClass(rc({ handler: 'Run_SC', scheduling: { tolerations: [{ key: 'k', operator: 'Exists' }, { key: 'k', operator: 'Exists' }] } })).map(String), [
    `handler: Invalid value: "Run_SC": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    'scheduling.tolerations[1]: Duplicate value: core.Toleration{Key:"k", Operator:"Exists", Value:"", Effect:"", TolerationSeconds:(*int64)(nil)}',
  ]);
});

test('runtimeclass update: the handler is immutable', () => {
  assert.deepEqual(validateRuntimeClassUpdate(rc({ handler: 'kata' }), rc({})).map(String), ['handler: Invalid value: "kata": field is immutable']);
});
