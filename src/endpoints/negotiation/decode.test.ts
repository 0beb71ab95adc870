import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceDef } from '../../api/types.ts';
import { StatusError } from '../../machinery/errors.ts';
import { decodeObject, parseBody, type DecodeObjectOptions } from './decode.ts';
import { kubeReference, readKubeJson } from '../../../test/support/kube-reference.ts';

const def = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', listKind: 'ConfigMapList', namespaced: true } as ResourceDef;
const base = (o: Partial<DecodeObjectOptions> = {}): DecodeObjectOptions => ({
  def, kind: 'ConfigMap', apiVersion: 'v1', fieldValidation: 'Warn', warnings: [],
  isKnownKind: (av, k) => (av === 'v1' && (k === 'ConfigMap' || k === 'Secret')) || (av === 'apps/v1' && k === 'Deployment'),
  ...o,
});
function bad(text: string, o: Partial<DecodeObjectOptions> = {}, type: 'application/json' | 'application/yaml' | 'application/vnd.kubernetes.protobuf' = 'application/json'): StatusError {
  try {
    decodeObject(Buffer.from(text), type, base(o));
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    return e;
  }
  assert.fail('expected an error');
}

void test('missing apiVersion/kind default to the endpoint; kind, apiVersion, metadata come first', () => {
  const obj = decodeObject(Buffer.from('{"data":{"a":"b"},"metadata":{"name":"x"}}'), 'application/json', base());
  assert.deepEqual(Object.keys(obj), ['kind', 'apiVersion', 'metadata', 'data']);
  assert.equal(obj.kind, 'ConfigMap');
  assert.equal(obj.apiVersion, 'v1');
});

void test('malformed JSON: kube wording with summary', () => {
  const e = bad('{"metadata": nope}');
  assert.equal(e.code, 400);
  assert.equal(e.message, "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character 'o' in literal null (expecting 'u') ({\"metadata\": nope})");
  assert.match(bad('').message, /unexpected end of JSON input \(<empty>\)$/);
  assert.match(bad('[1,2]').message, /cannot unmarshal array into Go value of type struct/);
});

void test('wrong kind or version for the path', () => {
  assert.equal(bad('{"apiVersion":"v1","kind":"Secret"}').message,
    'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion');
  assert.match(bad('{"apiVersion":"v1","kind":"Bogus"}').message, /^Bogus in version "v1" cannot be handled as a ConfigMap: no kind "Bogus" is registered for version "v1"/);
  assert.equal(bad('{"apiVersion":"apps/v1","kind":"ConfigMap"}', { isKnownKind: () => true }).message,
    'the API version in the data (apps/v1) does not match the expected API version (v1)');
  assert.equal(bad('{"metadata":[]}').message, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal array into Go struct field ConfigMap.metadata of type v1.ObjectMeta');
});

void test('fieldValidation: Strict fails, Warn warns, Ignore is silent', () => {
  const text = '{"metadata":{"name":"x","bogus":1},"data":{"a":"1","a":"2"}}';
  const s = bad(text, { fieldValidation: 'Strict' });
  assert.equal(s.code, 400);
  assert.equal(s.message, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.bogus", duplicate field "data.a"');
  const warnings: string[] = [];
  const obj = decodeObject(Buffer.from(text), 'application/json', base({ warnings }));
  assert.deepEqual(warnings, ['unknown field "metadata.bogus"', 'duplicate field "data.a"']);
  assert.deepEqual(obj['data'], { a: '2' }, 'last duplicate wins, as in Go');
  const none: string[] = [];
  decodeObject(Buffer.from(text), 'application/json', base({ warnings: none, fieldValidation: 'Ignore' }));
  assert.deepEqual(none, []);
});

void test('YAML bodies: 1.1 scalars, duplicate keys with lines, several documents refused', () => {
  const obj = decodeObject(Buffer.from('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yy\ndata:\n  on: "yes"\n  n: "1"\n'), 'application/yaml', base());
  assert.equal(obj.metadata.name, 'yy');
  const warnings: string[] = [];
  decodeObject(Buffer.from('metadata:\n  name: y\ndata:\n  a: "1"\n  a: "2"\n'), 'application/yaml', base({ warnings }));
  assert.deepEqual(warnings, ['line 5: key "a" already set in map']);
  assert.match(bad('a: 1\n---\nb: 2\n', {}, 'application/yaml').message, /multiple documents/);
  assert.match(bad('a: [1\n', {}, 'application/yaml').message, /^the object provided is unrecognized \(must be of type ConfigMap\): error converting YAML to JSON: yaml: /);
  assert.deepEqual(parseBody(Buffer.from('x: yes\n'), 'application/yaml').value, { x: true });
});

void test('with the kind\'s top-level fields known, Strict answers exactly as kube (errors/400-strict.json)', async () => {
  const want = readKubeJson('responses/errors/400-strict.json') as unknown;
  const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"strict"},"bogus":1,"data":{"a":"1","a":"2"}}';
  const fields = new Set(['data', 'binaryData', 'immutable']);
  try {
    decodeObject(Buffer.from(body), 'application/json', base({ fieldValidation: 'Strict', topLevelFields: fields }));
    assert.fail('expected 400');
  } catch (e) {
    assert.ok(e instanceof StatusError);
    assert.deepEqual(e.toStatus(), want);
  }
  const warnings: string[] = [];
  decodeObject(Buffer.from('metadata:\n  name: y1\nbogus: 1\n'), 'application/yaml', base({ warnings, topLevelFields: fields }));
  assert.deepEqual(warnings, ['unknown field "bogus"']);
});

void test('protobuf bodies (typed clients): decoded through the catalog codec; garbage is a 400', async () => {
  const { readFileSync } = await import('node:fs');
  const pb = readFileSync(kubeReference('responses/protobuf/configmap-cm1.pb'));
  const obj = decodeObject(pb, 'application/vnd.kubernetes.protobuf', base());
  assert.equal(obj.kind, 'ConfigMap');
  assert.equal(obj.metadata.name, 'cm1');
  assert.deepEqual(obj['data'], { a: 'b' });
  const e = bad('not protobuf', {}, 'application/vnd.kubernetes.protobuf');
  assert.equal(e.code, 400);
  assert.match(e.message, /^the object provided is unrecognized \(must be of type ConfigMap\): provided data does not appear to be a protobuf message, expected prefix \[107 56 115 0\] \(6e6f74/);
});

void test('pathologically deep bodies are 400s, not crashes', () => {
  const deepJson = `{"metadata":{"name":"x"},"data":${'['.repeat(6000)}${']'.repeat(6000)}}`;
  assert.match(bad(deepJson).message, /exceeded max depth/);
  const deepYaml = `metadata:\n  name: x\ndata: ${'['.repeat(20000)}${']'.repeat(20000)}\n`;
  const e = bad(deepYaml, {}, 'application/yaml');
  assert.equal(e.code, 400);
});

void test('with the catalog schema, Strict answers exactly as kube (errors/400-strict.json)', async () => {
  const { schemaForKind } = await import('./field-schema.ts');
  const want = readKubeJson('responses/errors/400-strict.json') as unknown;
  const schema = schemaForKind('v1', 'ConfigMap');
  assert.ok(schema);
  const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"strict"},"bogus":1,"data":{"a":"1","a":"2"}}';
  try {
    decodeObject(Buffer.from(body), 'application/json', base({ fieldValidation: 'Strict', schema }));
    assert.fail('expected 400');
  } catch (e) {
    assert.ok(e instanceof StatusError);
    assert.deepEqual(e.toStatus(), want);
  }
});
