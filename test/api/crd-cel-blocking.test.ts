/**
 * CEL rules are not run on an object that already failed blocking schema checks (review issue 7, item 7):
 * as kube's hasBlockingErr, a type, required, too long, too many or not-supported error replaces the rules'
 * results with one cause saying they were not checked. Other schema errors (minimum, pattern) let them run.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { waitFor } from './crd-support.ts';

type J = Record<string, any>;
let srv: TestServer;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const G = '/apis/celblock.example.com/v1/namespaces/default/gauges';
const SKIPPED = 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

before(async () => {
  srv = await startTestServer({ authorizationMode: ['AlwaysAllow'] });
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gauges.celblock.example.com' },
    spec: {
      group: 'celblock.example.com', scope: 'Namespaced', names: { plural: 'gauges', singular: 'gauge', kind: 'Gauge' },
      versions: [{
        name: 'v1', served: true, storage: true, subresources: { status: {} },
        schema: { openAPIV3Schema: { type: 'object', properties: {
          spec: {
            type: 'object', 'x-kubernetes-validations': [{ rule: 'self.min <= self.max', message: 'min must not exceed max' }],
            properties: { label: { type: 'string', maxLength: 3 }, min: { type: 'integer', minimum: 0 }, max: { type: 'integer' } },
          },
          status: {
            type: 'object', 'x-kubernetes-validations': [{ rule: 'self.level >= 0', message: 'level must not be negative' }],
            properties: { level: { type: 'integer' }, mode: { type: 'string', enum: ['a', 'b'] } },
          },
        } } },
      }],
    },
  };
  const r = await srv.request('POST', CRDS, { body: crd });
  assert.equal(r.status, 201, r.text);
  await waitFor(async () => (await srv.request('GET', G)).status === 200);
});

after(async () => {
  await srv.stop();
});

const post = (name: string, spec: J) => srv.request('POST', G, { body: { apiVersion: 'celblock.example.com/v1', kind: 'Gauge', metadata: { name }, spec } });
const causes = (r: { json(): J }) => (r.json().details?.causes ?? []).map((c: J) => `${c.reason} ${c.field}: ${c.message}`);

void test('a blocking schema error skips the rules, with kube\'s cause', async () => {
  const r = await post('long', { label: 'toolong', min: 5, max: 1 });
  assert.equal(r.status, 422, r.text);
  assert.deepEqual(causes(r), [
    'FieldValueTooLong spec.label: Too long: may not be more than 3 bytes',
    `FieldValueInvalid <nil>: Invalid value: "null": ${SKIPPED}`,
  ]);
  assert.match(r.json().message, /<nil>: Invalid value: "null": some validation rules were not checked/);
  const t = await post('typed', { min: 'five', max: 1 });
  assert.equal(t.status, 422, t.text);
  assert.deepEqual(causes(t).map((c: string) => c.split(':')[0]), ['FieldValueTypeInvalid spec.min', 'FieldValueInvalid <nil>']);
});

void test('non-blocking schema errors still run the rules', async () => {
  const r = await post('neg', { min: -1, max: -2 });
  assert.equal(r.status, 422, r.text);
  const got = causes(r);
  assert.equal(got.length, 2, got.join('\n'));
  assert.match(got[0]!, /^FieldValueInvalid spec.min: Invalid value: -1: spec.min in body should be greater than or equal to 0$/);
  assert.match(got[1]!, /^FieldValueInvalid spec: Invalid value: "object": min must not exceed max$/);
});

void test('the status sub-resource skips its rules after a blocking error too', async () => {
  const c = await post('st', { min: 1, max: 2 });
  assert.equal(c.status, 201, c.text);
  const obj = c.json();
  const r = await srv.request('PUT', `${G}/st/status`, { body: { ...obj, status: { level: -1, mode: 'c' } } });
  assert.equal(r.status, 422, r.text);
  assert.deepEqual(causes(r).map((x: string) => x.split(':')[0]), ['FieldValueNotSupported status.mode', 'FieldValueInvalid <nil>']);
});
