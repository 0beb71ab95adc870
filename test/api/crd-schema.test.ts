/**
 * Custom resources through the CRD schema (engine: src/apiextensions/schema): pruning of unknown fields,
 * defaulting on write and on read, value validation, fieldValidation Strict/Warn/Ignore, CEL rules.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { waitFor } from './crd-support.ts';

let srv: TestServer;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const B = '/apis/schema.example.com/v1/namespaces/default/boxes';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'boxes.schema.example.com' },
  spec: {
    group: 'schema.example.com', scope: 'Namespaced', names: { plural: 'boxes', singular: 'box', kind: 'Box' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: {
        type: 'object',
        'x-kubernetes-validations': [{ rule: 'self.min <= self.max', message: 'min must not exceed max' }],
        properties: {
          size: { type: 'string', enum: ['small', 'large'], default: 'small' },
          min: { type: 'integer', minimum: 0 },
          max: { type: 'integer' },
          free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          ports: {
            type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
          },
        },
      } } } },
    }],
  },
};

before(async () => {
  srv = await startTestServer({ authorizationMode: ['AlwaysAllow'] });
  const r = await srv.request('POST', CRDS, { body: crd });
  assert.equal(r.status, 201, r.text);
  await waitFor(async () => (await srv.request('GET', B)).status === 200);
});

after(async () => {
  await srv.stop();
});

const box = (name: string, spec: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ apiVersion: 'schema.example.com/v1', kind: 'Box', metadata: { name }, spec, ...extra });

void test('unknown fields are pruned with a warning (Warn), refused (Strict), silently dropped (Ignore)', async () => {
  const warn = await srv.request('POST', B, { body: box('p1', { min: 1, max: 2, bogus: 1, free: { any: 'thing' } }, { extraTop: true }) });
  assert.equal(warn.status, 201, warn.text);
  assert.equal(warn.json().spec.bogus, undefined);
  assert.equal(warn.json().extraTop, undefined);
  assert.deepEqual(warn.json().spec.free, { any: 'thing' });
  assert.equal(String(warn.headers['warning']), '299 - "unknown field \\"spec.bogus\\"", 299 - "unknown field \\"extraTop\\""');
  const strict = await srv.request('POST', `${B}?fieldValidation=Strict`, { body: box('p2', { min: 1, max: 2, bogus: 1 }) });
  assert.equal(strict.status, 400, strict.text);
  assert.match(strict.json().message, /strict decoding error: unknown field "spec.bogus"/);
  const ignore = await srv.request('POST', `${B}?fieldValidation=Ignore`, { body: box('p3', { min: 1, max: 2, bogus: 1 }) });
  assert.equal(ignore.status, 201);
  assert.equal(ignore.headers['warning'], undefined);
  assert.equal(ignore.json().spec.bogus, undefined);
});

void test('defaults apply on write', async () => {
  const r = await srv.request('POST', B, { body: box('d1', { min: 0, max: 1 }) });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.json().spec.size, 'small');
});

void test('value validation and CEL rules answer 422 with kube messages', async () => {
  const bad = await srv.request('POST', B, { body: box('v1', { size: 'huge', min: -1, max: 1 }) });
  assert.equal(bad.status, 422, bad.text);
  const causes = bad.json().details.causes.map((c: any) => `${c.field}: ${c.message}`);
  assert.ok(causes.includes('spec.size: Unsupported value: "huge": supported values: "small", "large"'), causes.join('\n'));
  assert.ok(causes.includes('spec.min: Invalid value: -1: spec.min in body should be greater than or equal to 0'), causes.join('\n'));
  const rule = await srv.request('POST', B, { body: box('v2', { min: 3, max: 1 }) });
  assert.equal(rule.status, 422, rule.text);
  assert.match(rule.json().message, /min must not exceed max/);
});

void test('defaults apply on read after the schema gains one', async () => {
  assert.equal((await srv.request('POST', B, { body: box('r1', { min: 0, max: 1 }) })).status, 201);
  const cur = (await srv.request('GET', `${CRDS}/boxes.schema.example.com`)).json();
  cur.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.color = { type: 'string', default: 'blue' };
  const u = await srv.request('PUT', `${CRDS}/boxes.schema.example.com`, { body: cur });
  assert.equal(u.status, 200, u.text);
  await waitFor(async () => (await srv.request('GET', `${B}/r1`)).json().spec.color === 'blue');
  const list = (await srv.request('GET', B)).json();
  assert.ok(list.items.every((i: any) => i.spec.color === 'blue'));
});

void test('pruned fields are never recorded in managedFields', async () => {
  const r = await srv.request('POST', `${B}?fieldManager=mgr`, { body: box('mf', { min: 0, max: 1, bogus: true }) });
  assert.equal(r.status, 201, r.text);
  const fields = JSON.stringify(r.json().metadata.managedFields);
  assert.ok(!fields.includes('bogus'), fields);
  assert.ok(fields.includes('f:min'), fields);
});

void test('server-side apply merges list-map items owned by different managers (x-kubernetes-list-type: map)', async () => {
  const apply = (manager: string, ports: unknown[]) => srv.request('PATCH', `${B}/ssa?fieldManager=${manager}`, {
    body: JSON.stringify({ apiVersion: 'schema.example.com/v1', kind: 'Box', metadata: { name: 'ssa' }, spec: { min: 0, max: 1, ports } }),
    headers: { 'Content-Type': 'application/apply-patch+yaml' },
  });
  assert.equal((await apply('a', [{ name: 'http', port: 80 }])).status, 201);
  // Same values for min/max: shared ownership, no conflict; the ports are merged by their `name` key.
  const second = await apply('b', [{ name: 'https', port: 443 }]);
  assert.equal(second.status, 200, second.text);
  assert.deepEqual(second.json().spec.ports.map((p: { name: string }) => p.name), ['http', 'https']);
  const owned = second.json().metadata.managedFields.find((m: { manager: string }) => m.manager === 'b').fieldsV1['f:spec'];
  assert.deepEqual(Object.keys(owned['f:ports']), ['k:{"name":"https"}']);
  const conflict = await apply('c', [{ name: 'http', port: 8080 }]);
  assert.equal(conflict.status, 409, conflict.text);
});
