/**
 * Values of the wrong type for a built-in kind are refused as kube-apiserver refuses them (its Go decoder
 * fails), and nothing is stored: create/update bodies (JSON and YAML) → 400 BadRequest; JSON merge and JSON
 * patches whose result has a wrong type → 422 Invalid on `patch`. Custom resources have no schema: untouched.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { assertStatus, configMap, deployment, namespace } from './helpers.ts';

let srv: TestServer;
const NS = 'types';
const DEP = `/apis/apps/v1/namespaces/${NS}/deployments`;
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const REPLICAS_ERR = 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32';

before(async () => {
  srv = await startTestServer();
  assert.equal((await srv.request('POST', '/api/v1/namespaces', { body: namespace(NS) })).status, 201);
  assert.equal((await srv.request('POST', DEP, { body: deployment('kept', 2) })).status, 201);
});
after(async () => { await srv?.stop(); });

function badDeployment(name: string): unknown {
  const d = deployment(name) as any;
  d.spec.replicas = 'three';
  return d;
}

void test('create with a string replicas is 400 with kube\'s message and stores nothing', async () => {
  const r = await srv.request('POST', DEP, { body: badDeployment('bad') });
  const s = assertStatus(r, 400, 'BadRequest', `Deployment in version "v1" cannot be handled as a Deployment: ${REPLICAS_ERR}`);
  assert.deepEqual(s.metadata, {});
  assert.equal(s.details, undefined);
  assert.equal((await srv.request('GET', `${DEP}/bad`)).status, 404);
});

void test('a ConfigMap with a number value is 400 and stores nothing (JSON and YAML)', async () => {
  const json = await srv.request('POST', CM, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'num' }, data: { a: 5 } } });
  assertStatus(json, 400, 'BadRequest', 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string');
  const yaml = await srv.request('POST', CM, {
    body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: num\ndata:\n  a: 5\n', headers: { 'Content-Type': 'application/yaml' },
  });
  assertStatus(yaml, 400, 'BadRequest', 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string');
  assert.equal((await srv.request('GET', `${CM}/num`)).status, 404);
});

void test('fractions and out-of-range integers name the number', async () => {
  const d = deployment('frac') as any;
  d.spec.replicas = 1.5;
  assertStatus(await srv.request('POST', DEP, { body: d }), 400, 'BadRequest',
    'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32');
  d.spec.replicas = 4294967296;
  assertStatus(await srv.request('POST', DEP, { body: d }), 400, 'BadRequest',
    'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number 4294967296 into Go struct field DeploymentSpec.spec.replicas of type int32');
  // Go reads the literal: 1.0 is not an integer in a JSON body.
  const text = JSON.stringify(deployment('frac')).replace('"replicas":1', '"replicas":1.0');
  assertStatus(await srv.request('POST', DEP, { body: text, headers: { 'Content-Type': 'application/json' } }), 400, 'BadRequest',
    'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number 1.0 into Go struct field DeploymentSpec.spec.replicas of type int32');
  assert.equal((await srv.request('GET', `${DEP}/frac`)).status, 404);
});

void test('the type error wins over strict decoding findings', async () => {
  const d = badDeployment('strict') as any;
  d.spec.bogus = 1;
  assertStatus(await srv.request('POST', `${DEP}?fieldValidation=Strict`, { body: d }), 400, 'BadRequest',
    `Deployment in version "v1" cannot be handled as a Deployment: ${REPLICAS_ERR}`);
});

void test('update with a wrong type is 400 and leaves the object unchanged', async () => {
  const before = (await srv.request('GET', `${DEP}/kept`)).json();
  const d = badDeployment('kept') as any;
  d.metadata.resourceVersion = before.metadata.resourceVersion;
  assertStatus(await srv.request('PUT', `${DEP}/kept`, { body: d }), 400, 'BadRequest',
    `Deployment in version "v1" cannot be handled as a Deployment: ${REPLICAS_ERR}`);
  const yaml = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: kept\nspec:\n  replicas: three\n`;
  assertStatus(await srv.request('PUT', `${DEP}/kept`, { body: yaml, headers: { 'Content-Type': 'application/yaml' } }), 400, 'BadRequest',
    `Deployment in version "v1" cannot be handled as a Deployment: ${REPLICAS_ERR}`);
  const now = (await srv.request('GET', `${DEP}/kept`)).json();
  assert.equal(now.metadata.resourceVersion, before.metadata.resourceVersion);
  assert.equal(now.spec.replicas, 2);
});

void test('merge and JSON patches producing a wrong type are 422 Invalid on patch and change nothing', async () => {
  const before = (await srv.request('GET', `${DEP}/kept`)).json();
  const patches: Array<[string, unknown]> = [
    ['application/merge-patch+json', { spec: { replicas: 'three' } }],
    ['application/json-patch+json', [{ op: 'replace', path: '/spec/replicas', value: 'three' }]],
  ];
  for (const [type, body] of patches) {
    const r = await srv.request('PATCH', `${DEP}/kept`, { body: JSON.stringify(body), headers: { 'Content-Type': type } });
    const s = assertStatus(r, 422, 'Invalid');
    assert.match(s.message, /^ "" is invalid: patch: Invalid value: "\{.*\}": json: cannot unmarshal string into Go struct field DeploymentSpec\.spec\.replicas of type int32$/s);
    assert.equal(s.details.causes.length, 1);
    assert.equal(s.details.causes[0].reason, 'FieldValueInvalid');
    assert.equal(s.details.causes[0].field, 'patch');
    assert.match(s.details.causes[0].message, new RegExp(`: ${REPLICAS_ERR}$`));
  }
  const now = (await srv.request('GET', `${DEP}/kept`)).json();
  assert.equal(now.metadata.resourceVersion, before.metadata.resourceVersion);
  assert.equal(now.spec.replicas, 2);
});

void test('well-typed bodies still work (null means zero, numbers as quantities)', async () => {
  const ok = configMap('fine', { a: 'b' }) as any;
  ok.immutable = null;
  assert.equal((await srv.request('POST', CM, { body: ok })).status, 201);
  const r = await srv.request('PATCH', `${DEP}/kept`, { body: JSON.stringify({ spec: { replicas: 3 } }), headers: { 'Content-Type': 'application/merge-patch+json' } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json().spec.replicas, 3);
});
