// ValidateConfigMap(Update), ValidateSecret(Update), ValidateNamespace, ValidateReplicationController
// (pkg/apis/core/validation/validation.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  validateConfigMap, validateConfigMapUpdate, validateNamespace, validateReplicationController, validateSecret, validateSecretUpdate,
} from './core-config.ts';
import type { J } from './util.ts';

const KEY_MSG = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const b64 = (s: string) => Buffer.from(s).toString('base64');

test('configmap: keys, duplicates across data/binaryData, 1 MiB total', () => {
  assert.deepEqual(validateConfigMap({ data: { 'a b': 'x', ok: 'y', dup: 'z' }, binaryData: { dup: b64('z') } }).map(String), [
    `data[a b]: Invalid value: "a b": ${KEY_MSG}`,
    'data[dup]: Invalid value: "dup": duplicate of key present in binaryData',
  ]);
  assert.deepEqual(validateConfigMap({ data: { a: 'x'.repeat(1024 * 1024), b: 'y' } }).map(String), ['[]: Too long: may not be more than 1048576 bytes']);
  assert.deepEqual(validateConfigMap({ data: { a: 'x'.repeat(1024 * 1024) } }).map(String), []);
});

test('configmap update: immutable', () => {
  const old: J = { immutable: true, data: { a: '1' } };
  assert.deepEqual(validateConfigMapUpdate({ immutable: false, data: { a: '2' } }, old).map(String), [
    'immutable: Forbidden: field is immutable when `immutable` is set',
    'data: Forbidden: field is immutable when `immutable` is set',
  ]);
  assert.deepEqual(validateConfigMapUpdate({ immutable: true, data: { a: '1' } }, old).map(String), []);
});

test('secret: type-specific keys', () => {
  assert.deepEqual(validateSecret({ type: 'kubernetes.io/tls', data: { 'tls.crt': b64('x') } }).map(String), ['data[tls.key]: Required value']);
  assert.deepEqual(validateSecret({ type: 'kubernetes.io/dockerconfigjson', data: {} }).map(String), ['data[.dockerconfigjson]: Required value']);
  assert.deepEqual(validateSecret({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('xyz') } }).map(String), [
    `data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character 'x' looking for beginning of value`,
  ]);
  assert.deepEqual(validateSecret({ type: 'kubernetes.io/service-account-token', metadata: {} }).map(String), [
    'metadata.annotations[kubernetes.io/service-account.name]: Required value',
  ]);
  assert.deepEqual(validateSecret({ type: 'kubernetes.io/basic-auth', data: {} }).map(String), ['data[username]: Required value', 'data[password]: Required value']);
  assert.deepEqual(validateSecret({ stringData: { 'bad key': 'v' } }).map(String), [`data[bad key]: Invalid value: "bad key": ${KEY_MSG}`]);
  assert.deepEqual(validateSecret({ data: { a: b64('x'.repeat(1024 * 1024 + 1)) } }).map(String), ['data: Too long: may not be more than 1048576 bytes']);
});

test('secret update: type and immutable data', () => {
  const old: J = { type: 'Opaque', immutable: true, data: { a: b64('1') } };
  assert.deepEqual(validateSecretUpdate({ type: 'kubernetes.io/basic-auth', immutable: true, data: { a: b64('1'), username: '' } }, old).map(String), [
    'type: Invalid value: "kubernetes.io/basic-auth": field is immutable',
    'data: Forbidden: field is immutable when `immutable` is set',
  ]);
});

test('namespace: spec.finalizers', () => {
  assert.deepEqual(validateNamespace({ spec: { finalizers: ['kubernetes', 'example.com/x', 'custom', 'a/b/c'] } }).map(String), [
    'spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
    `spec.finalizers: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
  ]);
});

test('namespace /finalize: finalizer names per index', async () => {
  const { validateFor } = await import('./index.ts');
  const v = validateFor('', 'Namespace')!;
  const ns = { metadata: { name: 'n' }, spec: { finalizers: ['custom'] } };
  assert.deepEqual(v.validateUpdate!(ns, ns, { subresource: 'finalize' }).map(String), [
    'spec.finalizers[0]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
  ]);
  assert.deepEqual(v.validateUpdate!(ns, ns).map(String), []);
});

test('replication controller: selector required and matching, restartPolicy Always', () => {
  const rc: J = { spec: { replicas: -1, selector: { app: 'a' }, template: { metadata: { labels: { app: 'b' } }, spec: {
    containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Never' } } } };
  assert.deepEqual(validateReplicationController(rc).map(String), [
    'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    'spec.template.metadata.labels: Invalid value: map[string]string{"app":"b"}: `selector` does not match template `labels`',
    'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
  ]);
});
