/**
 * The PATCH handler's choice of mechanism by content type: custom resources (no built-in schema) never take
 * strategic merge patches (415 listing their three types, as kube's CRD handler), but do take apply patches;
 * apply needs a fieldManager, and `force` is for apply only.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createResourceEndpoint } from '../resource-endpoint.ts';
import { FakeRegistry, resourceDef, serveEndpoint, type FakeStorage, type TestServer } from './testing/fake-storage.ts';

let server: TestServer;
let widgets: FakeStorage;
const W = '/apis/example.com/v1/namespaces/ns/widgets';

before(async () => {
  const reg = new FakeRegistry();
  widgets = reg.add(resourceDef({ group: 'example.com', resource: 'widgets', kind: 'Widget' }));
  server = await serveEndpoint(createResourceEndpoint({
    registry: reg,
    catalog: { lookupKind: (g, v, k) => (g === 'example.com' && v === 'v1' && k === 'Widget' ? widgets.def : undefined) },
  }));
});
after(async () => {
  await server.close();
});

async function patch(path: string, type: string, body: string) {
  const r = await fetch(server.url + path, { method: 'PATCH', headers: { 'Content-Type': type }, body });
  const text = await r.text();
  return { status: r.status, json: () => JSON.parse(text) as Record<string, unknown>, text };
}

void test('custom resources: strategic merge patch is 415 with the three types they accept', async () => {
  const r = await patch(`${W}/w1`, 'application/strategic-merge-patch+json', '{}');
  assert.equal(r.status, 415);
  assert.deepEqual(r.json(), {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    reason: 'UnsupportedMediaType', code: 415,
  });
});

void test('custom resources: apply creates with an Apply entry; schemaless fields owned as they are', async () => {
  const body = JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 3, tags: ['a'] } });
  let r = await patch(`${W}/w1`, 'application/apply-patch+yaml', body);
  assert.equal(r.status, 422, r.text);
  r = await patch(`${W}/w1?fieldManager=me`, 'application/apply-patch+yaml', body);
  assert.equal(r.status, 201, r.text);
  const obj = r.json() as { metadata: { namespace: string; managedFields: Array<Record<string, unknown>> }; spec: unknown };
  assert.equal(obj.metadata.namespace, 'ns');
  assert.deepEqual(obj.spec, { size: 3, tags: ['a'] });
  assert.equal(obj.metadata.managedFields[0]!['operation'], 'Apply');
  assert.deepEqual(obj.metadata.managedFields[0]!['fieldsV1'], { 'f:spec': { 'f:size': {}, 'f:tags': {} } });
  const call = widgets.calls.find((c) => c.method === 'guaranteedUpdate')!;
  assert.equal(call.ctx.fieldManager, 'me');
});
