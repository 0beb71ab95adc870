/**
 * Protobuf responses through the resource endpoint, byte for byte against kube-apiserver's recorded answers
 * (reference protobuf/*.pb), plus the watch stream framing and Status errors.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import type { KObject } from '../../machinery/objects.ts';
import { decodeEnvelope, decodeMessage } from '../../api/protobuf/codec.ts';
import { messageSpec } from '../../api/protobuf/schema.ts';
import { createResourceEndpoint } from '../resource-endpoint.ts';
import { FakeRegistry, resourceDef, serveEndpoint, type FakeStorage, type TestServer } from '../handlers/testing/fake-storage.ts';
import type { CachedObject } from '../../storage/cacher/types.ts';
import { canEncodeProtobuf, encodeProtobufValue, protobufListChunks } from './protobuf.ts';
import { kubeReference, readKubeJson } from '../../../test/support/kube-reference.ts';

const REF = (f: string) => kubeReference('responses/protobuf', f);
const PB = 'application/vnd.kubernetes.protobuf';

let server: TestServer;
let cms: FakeStorage;

before(async () => {
  const reg = new FakeRegistry();
  cms = reg.add(resourceDef({ resource: 'configmaps', kind: 'ConfigMap' }));
  reg.add(resourceDef({ group: 'example.com', resource: 'widgets', kind: 'Widget' }));
  const cm1 = readKubeJson<KObject>('responses/protobuf/configmap-cm1.json');
  cms.rev = 332; // the fake assigns the next revision: 333, as in the recording
  cms.put(cm1);
  cms.rev = 340;
  server = await serveEndpoint(createResourceEndpoint({ registry: reg }));
});
after(async () => {
  await server.close();
});

function get(path: string, accept: string): Promise<{ status: number; type: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { headers: { Accept: accept } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

void test('GET and LIST in protobuf are the bytes kube-apiserver sends', async () => {
  const one = await get('/api/v1/namespaces/ref/configmaps/cm1', `${PB}, application/json`);
  assert.equal(one.status, 200);
  assert.equal(one.type, PB);
  assert.equal(one.body.toString('hex'), readFileSync(REF('configmap-cm1.pb')).toString('hex'));
  const again = await get('/api/v1/namespaces/ref/configmaps/cm1', PB);
  assert.ok(again.body.equals(one.body));
  assert.ok(cms.objects.get('ref/cm1')?.encoded.get(PB), 'cached per revision');

  const list = await get('/api/v1/namespaces/ref/configmaps', `${PB}, application/json`);
  assert.equal(list.type, PB);
  assert.equal(list.body.toString('hex'), readFileSync(REF('configmaplist-ref.pb')).toString('hex'));
});

void test('kinds without a protobuf schema fall back to JSON; errors are Status in protobuf', async () => {
  const w = await get('/apis/example.com/v1/namespaces/ref/widgets', `${PB}, application/json`);
  assert.equal(w.type, 'application/json');
  const only = await get('/apis/example.com/v1/namespaces/ref/widgets', PB);
  assert.equal(only.status, 406);

  const missing = await get('/api/v1/namespaces/ref/configmaps/nope', `${PB}, application/json`);
  assert.equal(missing.status, 404);
  assert.equal(missing.type, PB);
  const env = decodeEnvelope(missing.body);
  assert.equal(env.kind, 'Status');
  assert.equal(env.apiVersion, 'v1');
  const status = decodeMessage(env.raw, messageSpec('meta.Status')) as Record<string, unknown>;
  assert.equal(status['message'], 'configmaps "nope" not found');
  assert.equal(status['code'], 404);
});

void test('protobuf watch: length-delimited raw WatchEvents around enveloped objects', async () => {
  const ac = new AbortController();
  const r = await fetch(`${server.url}/api/v1/namespaces/ref/configmaps?watch=1`, { headers: { Accept: `${PB};stream=watch` }, signal: ac.signal });
  assert.equal(r.headers.get('content-type'), `${PB};stream=watch`);
  const reader = r.body?.getReader();
  assert.ok(reader);
  let buf = Buffer.alloc(0);
  while (buf.byteLength < 4 || buf.byteLength < 4 + buf.readUInt32BE(0)) {
    const { value, done } = await reader.read();
    if (done) break;
    buf = Buffer.concat([buf, Buffer.from(value)]);
  }
  ac.abort();
  await reader.cancel().catch(() => undefined);
  const len = buf.readUInt32BE(0);
  const ev = buf.subarray(4, 4 + len);
  // field 1 (type), string "ADDED"
  assert.equal(ev[0], 0x0a);
  assert.equal(ev.subarray(2, 2 + (ev[1] ?? 0)).toString(), 'ADDED');
  // field 2 (RawExtension) → field 1 (raw) → the enveloped object
  const rest = ev.subarray(2 + (ev[1] ?? 0));
  assert.equal(rest[0], 0x12);
  const enveloped = Buffer.from(readFileSync(REF('configmap-cm1.pb')));
  assert.ok(rest.includes(enveloped), 'the embedded object is the same bytes as a GET');
});

void test('canEncodeProtobuf / encodeProtobufValue', () => {
  assert.equal(canEncodeProtobuf({ kind: 'ConfigMap', apiVersion: 'v1' }), true);
  assert.equal(canEncodeProtobuf({ kind: 'Status', apiVersion: 'v1' }), true);
  assert.equal(canEncodeProtobuf({ kind: 'Widget', apiVersion: 'example.com/v1' }), false);
  assert.equal(canEncodeProtobuf({ paths: [] }), false);
  assert.equal(canEncodeProtobuf({ kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1' }), true);
  assert.ok(encodeProtobufValue({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'x' } }).byteLength > 4);
  assert.throws(() => encodeProtobufValue({ kind: 'Widget', apiVersion: 'example.com/v1' }));
});

void test('list chunks equal the whole-list encoding of the codec (empty metadata, several items)', () => {
  const mk = (name: string): CachedObject => ({
    key: name, kv: {} as CachedObject['kv'], attrs: { name, namespace: 'n', labels: {}, fields: {} }, encoded: new Map(),
    object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name, namespace: 'n', resourceVersion: '5' }, data: { k: name.repeat(100) } },
  });
  const items = [mk('a'), mk('b'), mk('c')];
  for (const meta of [{}, { resourceVersion: '9', continue: 'tok', remainingItemCount: 2 }]) {
    const chunks = protobufListChunks('v1', 'ConfigMap', 'ConfigMapList', meta, items);
    assert.ok(chunks);
    const whole = encodeProtobufValue({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: meta, items: items.map((i) => i.object) });
    assert.equal(Buffer.concat(chunks).toString('hex'), whole.toString('hex'));
  }
  assert.equal(protobufListChunks('example.com/v1', 'Widget', 'WidgetList', {}, []), undefined);
});
