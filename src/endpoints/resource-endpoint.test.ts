/**
 * HTTP-level tests of the resource endpoint over a fake RestStorage: status codes, bodies (against kube's
 * recorded answers where the shapes are the handler's), headers, representations and watch streams.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { request } from 'node:http';
import { createResourceEndpoint } from './resource-endpoint.ts';
import { StatusError } from '../machinery/errors.ts';
import { FakeRegistry, resourceDef, serveEndpoint, type FakeStorage, type TestServer } from './handlers/testing/fake-storage.ts';
import { readKubeJson } from '../../test/support/kube-reference.ts';

const ref = (name: string) => readKubeJson<Record<string, unknown>>('responses/errors', name);

let server: TestServer;
let cms: FakeStorage;
let nodes: FakeStorage;
let readonlyThings: FakeStorage;
const NS = '/api/v1/namespaces/ref/configmaps';

before(async () => {
  const reg = new FakeRegistry();
  cms = reg.add(resourceDef({ resource: 'configmaps', kind: 'ConfigMap' }));
  nodes = reg.add(resourceDef({ resource: 'nodes', kind: 'Node', namespaced: false }));
  readonlyThings = reg.add(resourceDef({ group: 'example.com', resource: 'things', kind: 'Thing', verbs: ['get', 'list'] }));
  reg.add(resourceDef({ group: 'apps', resource: 'deployments', kind: 'Deployment', subresources: [{ name: 'status', verbs: ['get', 'update', 'patch'] }] }));
  server = await serveEndpoint(createResourceEndpoint({
    registry: reg,
    catalog: { lookupKind: (g, v, k) => (g === '' && v === 'v1' && ['ConfigMap', 'Secret', 'Node'].includes(k) ? resourceDef({ resource: 'x', kind: k }) : undefined) },
  }));
});
after(async () => {
  await server.close();
});

interface Res { status: number; headers: Headers; text: string; json: () => Record<string, unknown> }
async function call(method: string, path: string, opts: { body?: string; headers?: Record<string, string> } = {}): Promise<Res> {
  const r = await fetch(server.url + path, {
    method,
    headers: { ...(opts.body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...opts.headers },
    ...(opts.body !== undefined ? { body: opts.body } : {}),
  });
  const text = await r.text();
  return { status: r.status, headers: r.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
}
const cm = (name: string, extra: Record<string, unknown> = {}) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' }, ...extra });

void test('unknown resources and paths outside a resource: 404 with kube body', async () => {
  for (const path of ['/api/v1/namespaces/ref/bogus', '/api/v1/configmaps/cm1', '/api/v1/namespaces/ref/nodes', `${NS}/cm1/bogus`, '/apis/apps/v1/namespaces/ref/deployments']) {
    const r = await call('GET', path);
    if (path.endsWith('/deployments')) {
      assert.equal(r.status, 200, path);
      continue;
    }
    assert.equal(r.status, 404, path);
    assert.deepEqual(r.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404,
    });
  }
});

void test('methods without a route: 405; watch on a resource without watch names the verb', async () => {
  const post = await call('POST', '/api/v1/configmaps', { body: cm('x') });
  assert.equal(post.status, 405);
  assert.equal(post.json()['message'], 'the server does not allow this method on the requested resource');
  assert.equal((await call('PUT', NS, { body: cm('x') })).status, 405);
  assert.equal((await call('DELETE', '/apis/example.com/v1/namespaces/ref/things/a')).status, 405);
  const w = await call('GET', '/apis/example.com/v1/namespaces/ref/things?watch=1');
  assert.equal(w.status, 405);
  assert.deepEqual(w.json(), {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: 'watch is not supported on resources of kind "things.example.com"', reason: 'MethodNotAllowed',
    details: { group: 'example.com', kind: 'things' }, code: 405,
  });
  assert.equal(readonlyThings.calls.length, 0);
});

void test('create → 201, duplicate → 409 as kube, get and 404 as kube', async () => {
  const r = await call('POST', NS, { body: cm('cm1'), headers: { 'User-Agent': 'kubectl-create/v1.33.0 (linux/amd64)' } });
  assert.equal(r.status, 201);
  assert.equal(r.headers.get('content-type'), 'application/json');
  assert.equal(r.headers.get('audit-id'), 'audit-1');
  const created = r.json() as { metadata: { namespace: string; name: string } };
  assert.equal(created.metadata.namespace, 'ref', 'the request namespace fills an empty one');
  const createCall = cms.calls.find((c) => c.method === 'create');
  assert.equal(createCall?.ctx.fieldManager, 'kubectl-create', 'inferred from the User-Agent');
  assert.equal(createCall?.ctx.namespace, 'ref');

  const dup = await call('POST', NS, { body: cm('cm1') });
  assert.equal(dup.status, 409);
  assert.deepEqual(dup.json(), ref('409-create-exists.json'));

  const g = await call('GET', `${NS}/cm1`);
  assert.equal(g.status, 200);
  assert.equal(g.text.endsWith('}\n'), true);
  assert.deepEqual((g.json() as { data: unknown }).data, { a: 'b' });
  const missing = await call('GET', `${NS}/nope`);
  assert.deepEqual(missing.json(), ref('404-get-missing.json'));
});

void test('bad bodies: 415, 400 namespace mismatch, 400 malformed, 413 too large, 422 options', async () => {
  const u = await call('POST', NS, { body: cm('x'), headers: { 'Content-Type': 'text/plain' } });
  assert.equal(u.status, 415);
  assert.deepEqual(u.json(), {
    ...ref('415-content-type.json'),
  });
  const ns = await call('POST', NS, { body: JSON.stringify({ metadata: { name: 'x', namespace: 'other' } }) });
  assert.equal(ns.status, 400);
  assert.equal(ns.json()['message'], 'the namespace of the provided object does not match the namespace sent on the request');
  const mal = await call('POST', NS, { body: '{"metadata":' });
  assert.equal(mal.status, 400);
  assert.match(String(mal.json()['message']), /couldn't get version\/kind; json parse error: unexpected end of JSON input/);
  const big = await call('POST', NS, { body: JSON.stringify({ metadata: { name: 'big' }, data: { a: 'x'.repeat(3 * 1024 * 1024) } }) });
  assert.equal(big.status, 413);
  assert.equal(big.json()['message'], 'Request entity too large: limit is 3145728');
  const dry = await call('POST', `${NS}?dryRun=Yes`, { body: cm('d') });
  assert.equal(dry.status, 422);
  assert.equal(dry.json()['message'], 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Yes"}: supported values: "All"');
  assert.equal(cms.objects.has('ref/x') || cms.objects.has('ref/big') || cms.objects.has('ref/d'), false, 'nothing stored');
});

void test('fieldValidation: Warn adds Warning headers, Strict fails with 400', async () => {
  const body = '{"metadata":{"name":"w1"},"data":{"a":"1","a":"2"}}';
  const w = await call('POST', NS, { body });
  assert.equal(w.status, 201);
  assert.equal(w.headers.get('warning'), '299 - "duplicate field \\"data.a\\""');
  const s = await call('POST', `${NS}?fieldValidation=Strict`, { body: body.replace('w1', 'w2') });
  assert.equal(s.status, 400);
  assert.equal(s.json()['message'], 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "data.a"');
  const dryCreate = await call('POST', `${NS}?dryRun=All`, { body: cm('dry') });
  assert.equal(dryCreate.status, 201);
  assert.equal(cms.objects.has('ref/dry'), false);
});

void test('update: 409 as kube on a stale RV, 400 on a name mismatch, 201 when it creates', async () => {
  await call('POST', NS, { body: cm('u1') });
  const stale = await call('PUT', `${NS}/u1`, { body: JSON.stringify({ metadata: { name: 'u1', resourceVersion: '1' } }) });
  assert.deepEqual(stale.json(), { ...ref('409-update-stale.json'), message: 'Operation cannot be fulfilled on configmaps "u1": the object has been modified; please apply your changes to the latest version and try again', details: { name: 'u1', kind: 'configmaps' } });
  const wrong = await call('PUT', `${NS}/u1`, { body: cm('other') });
  assert.equal(wrong.status, 400);
  assert.equal(wrong.json()['message'], 'the name of the object (other) does not match the name on the URL (u1)');
  const ok = await call('PUT', `${NS}/u1`, { body: cm('u1', { data: { z: '1' } }) });
  assert.equal(ok.status, 200);
  const created = await call('PUT', `${NS}/u2`, { body: cm('u2') });
  assert.equal(created.status, 201);
});

void test('patch: merge, JSON and strategic patches apply; failures as kube', async () => {
  await call('POST', NS, { body: cm('p1') });
  const mp = await call('PATCH', `${NS}/p1`, { body: '{"data":{"a":null,"c":"d"},"metadata":{"labels":{"x":"y"}}}', headers: { 'Content-Type': 'application/merge-patch+json' } });
  assert.equal(mp.status, 200);
  const obj = mp.json() as { data: unknown; metadata: { labels: unknown } };
  assert.deepEqual(obj.data, { c: 'd' });
  assert.deepEqual(obj.metadata.labels, { x: 'y' });

  cms.conflicts = 1;
  const jp = await call('PATCH', `${NS}/p1`, { body: '[{"op":"add","path":"/data/e","value":"f"}]', headers: { 'Content-Type': 'application/json-patch+json' } });
  assert.equal(jp.status, 200, jp.text);
  assert.deepEqual((jp.json() as { data: unknown }).data, { c: 'd', e: 'f' });

  const testFail = await call('PATCH', `${NS}/p1`, { body: '[{"op":"test","path":"/data/c","value":"zzz"}]', headers: { 'Content-Type': 'application/json-patch+json' } });
  assert.equal(testFail.status, 422);
  assert.deepEqual(testFail.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server rejected our request due to an error in our request', reason: 'Invalid', details: {}, code: 422 });

  const rename = await call('PATCH', `${NS}/p1`, { body: '{"metadata":{"name":"p2"}}', headers: { 'Content-Type': 'application/merge-patch+json' } });
  assert.equal(rename.status, 400);
  assert.equal(rename.json()['message'], 'the name of the object (p2) does not match the name on the URL (p1)');

  const malformed = await call('PATCH', `${NS}/p1`, { body: '{"data":', headers: { 'Content-Type': 'application/merge-patch+json' } });
  assert.equal(malformed.status, 400);
  assert.equal(malformed.json()['message'], 'error decoding patch: unexpected end of JSON input');

  // Strategic merge patches apply to built-in kinds (custom resources: src/endpoints/handlers/patch.test.ts).
  const smp = await call('PATCH', `${NS}/p1`, { body: '{"data":{"g":"h"}}', headers: { 'Content-Type': 'application/strategic-merge-patch+json' } });
  assert.equal(smp.status, 200, smp.text);
  assert.deepEqual((smp.json() as { data: unknown }).data, { c: 'd', e: 'f', g: 'h' });
  const unknown = await call('PATCH', `${NS}/p1`, { body: '{}', headers: { 'Content-Type': 'application/json' } });
  assert.equal(unknown.status, 415);
  assert.equal(unknown.json()['message'], 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml');

  const missing = await call('PATCH', `${NS}/none`, { body: '{}', headers: { 'Content-Type': 'application/merge-patch+json' } });
  assert.equal(missing.status, 404);
  assert.equal(missing.json()['message'], 'configmaps "none" not found');
});

void test('delete: Status with details when gone, the object while finalizers hold it; deletecollection lists', async () => {
  await call('POST', NS, { body: cm('d1') });
  const r = await call('DELETE', `${NS}/d1`);
  assert.equal(r.status, 200);
  const st = r.json() as { details: { uid: string } };
  assert.deepEqual(st, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'd1', kind: 'configmaps', uid: st.details.uid } });
  await call('POST', NS, { body: cm('d2', { metadata: { name: 'd2', finalizers: ['x/y'] } }) });
  const held = await call('DELETE', `${NS}/d2`, { body: '{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Foreground"}' });
  assert.equal(held.status, 200);
  assert.equal((held.json() as { metadata: { deletionTimestamp: string } }).metadata.deletionTimestamp, '2026-11-22T00:00:01Z');
  assert.deepEqual(cms.calls.at(-1)?.args[1], { propagationPolicy: 'Foreground' });

  await call('POST', '/api/v1/namespaces/dc/configmaps', { body: cm('a') });
  await call('POST', '/api/v1/namespaces/dc/configmaps', { body: cm('b') });
  const dc = await call('DELETE', '/api/v1/namespaces/dc/configmaps');
  assert.equal(dc.status, 200);
  const list = dc.json() as { kind: string; metadata: unknown; items: Array<{ metadata: { name: string } }> };
  assert.equal(list.kind, 'ConfigMapList');
  assert.deepEqual(list.metadata, {});
  assert.deepEqual(list.items.map((i) => i.metadata.name), ['a', 'b']);
});

void test('lists: JSON, paging fields, Table, PartialObjectMetadataList, YAML, pretty, gzip', async () => {
  for (const n of ['l1', 'l2', 'l3']) await call('POST', '/api/v1/namespaces/lists/configmaps', { body: cm(n) });
  const path = '/api/v1/namespaces/lists/configmaps';
  const l = (await call('GET', path)).json() as { kind: string; apiVersion: string; metadata: { resourceVersion: string }; items: unknown[] };
  assert.equal(l.kind, 'ConfigMapList');
  assert.equal(l.apiVersion, 'v1');
  assert.equal(l.items.length, 3);
  const page = (await call('GET', `${path}?limit=2`)).json() as { metadata: Record<string, unknown>; items: unknown[] };
  assert.equal(page.items.length, 2);
  assert.deepEqual(Object.keys(page.metadata), ['resourceVersion', 'continue', 'remainingItemCount']);
  assert.equal(page.metadata['remainingItemCount'], 1);
  assert.deepEqual((await call('GET', `${path}?limit=abc`)).json()['message'], 'strconv.ParseInt: parsing "abc": invalid syntax');

  const table = (await call('GET', path, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' } })).json() as {
    kind: string; columnDefinitions: Array<{ name: string }>; rows: Array<{ cells: unknown[]; object: { kind: string } }>;
  };
  assert.equal(table.kind, 'Table');
  assert.deepEqual(table.columnDefinitions.map((c) => c.name), ['Name', 'Created At']);
  assert.deepEqual(table.rows.map((r) => r.cells[0]), ['l1', 'l2', 'l3']);
  assert.equal(table.rows[0]?.object.kind, 'PartialObjectMetadata');

  const pom = (await call('GET', path, { headers: { Accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' } })).json() as { kind: string; items: Array<{ kind: string }> };
  assert.equal(pom.kind, 'PartialObjectMetadataList');
  assert.equal(pom.items[0]?.kind, 'PartialObjectMetadata');
  const wrongForm = await call('GET', path, { headers: { Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' } });
  assert.equal(wrongForm.status, 406);
  assert.equal(wrongForm.json()['message'], 'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)');

  const yaml = await call('GET', `${path}/l1`, { headers: { Accept: 'application/yaml' } });
  assert.equal(yaml.headers.get('content-type'), 'application/yaml');
  assert.match(yaml.text, /^apiVersion: v1\ndata:\n {2}a: b\nkind: ConfigMap\nmetadata:\n/);
  const pretty = await call('GET', `${path}/l1?pretty=true`);
  assert.match(pretty.text, /^\{\n {2}"kind": "ConfigMap",\n/);

  const na = await call('GET', path, { headers: { Accept: 'text/html' } });
  assert.equal(na.status, 406);
  assert.deepEqual(na.json(), ref('406.json'));
  const yamlErr = await call('GET', `${path}/nope`, { headers: { Accept: 'application/yaml' } });
  assert.equal(yamlErr.headers.get('content-type'), 'application/yaml');
  assert.match(yamlErr.text, /reason: NotFound/);
});

void test('gzip above 128 KiB only, when accepted', async () => {
  const path = '/api/v1/namespaces/big/configmaps';
  for (let i = 0; i < 4; i++) await call('POST', path, { body: cm(`b${i}`, { data: { v: 'x'.repeat(40 * 1024) } }) });
  const raw = await new Promise<{ enc: string | undefined; body: Buffer }>((resolve, reject) => {
    const req = request(`${server.url}${path}`, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ enc: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
  assert.equal(raw.enc, 'gzip');
  const list = JSON.parse(gunzipSync(raw.body).toString()) as { items: unknown[] };
  assert.equal(list.items.length, 4);
  const small = await new Promise<string | undefined>((resolve, reject) => {
    const req = request(`${server.url}${path}/b0`, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers['content-encoding']));
    });
    req.on('error', reject);
    req.end();
  });
  assert.equal(small, undefined);
});

/** Reads watch frames until `count` arrived (or the stream ended), then cancels. */
async function watchFrames(path: string, count: number, headers: Record<string, string> = {}, during?: () => Promise<void>): Promise<{ status: number; contentType: string | null; frames: Array<Record<string, unknown>>; ended: boolean }> {
  const ac = new AbortController();
  const r = await fetch(server.url + path, { headers, signal: ac.signal });
  const frames: Array<Record<string, unknown>> = [];
  if (r.status !== 200 || !r.body) return { status: r.status, contentType: r.headers.get('content-type'), frames: [{ text: await r.text() }], ended: true };
  const reader = r.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  let ended = false;
  let triggered = false;
  while (frames.length < count) {
    if (!triggered && during && frames.length > 0) {
      triggered = true;
      await during();
    }
    const { value, done } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    buf += dec.decode(value, { stream: true });
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      frames.push(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
      buf = buf.slice(nl + 1);
    }
  }
  ac.abort();
  await reader.cancel().catch(() => undefined);
  return { status: r.status, contentType: r.headers.get('content-type'), frames, ended };
}

void test('watch: initial ADDED, then changes; the watch is disposed when the client leaves', async () => {
  const path = '/api/v1/namespaces/w/configmaps';
  await call('POST', path, { body: cm('w1') });
  const before = cms.watchers.size;
  const got = await watchFrames(`${path}?watch=true`, 2, {}, async () => {
    await call('PUT', `${path}/w1`, { body: cm('w1', { data: { n: '2' } }) });
  });
  assert.equal(got.contentType, 'application/json');
  assert.deepEqual(got.frames.map((f) => f['type']), ['ADDED', 'MODIFIED']);
  assert.deepEqual((got.frames[1]?.['object'] as { data: unknown }).data, { n: '2' });
  // The server notices the disconnect and disposes the registry watch.
  for (let i = 0; i < 50 && cms.watchers.size > before; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(cms.watchers.size, before);
});

void test('watch: timeoutSeconds ends the stream cleanly', async () => {
  const got = await watchFrames('/api/v1/namespaces/empty/configmaps?watch=1&timeoutSeconds=1', 1);
  assert.equal(got.ended, true);
  assert.equal(got.frames.length, 0);
});

void test('watch: Table events carry column definitions only first; bookmarks after initial events', async () => {
  const path = '/api/v1/namespaces/wt/configmaps';
  await call('POST', path, { body: cm('t1') });
  await call('POST', path, { body: cm('t2') });
  const t = await watchFrames(`${path}?watch=1`, 2, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' });
  const objs = t.frames.map((f) => f['object'] as { kind: string; columnDefinitions: unknown; rows: unknown[] });
  assert.equal(objs[0]?.kind, 'Table');
  assert.ok(Array.isArray(objs[0]?.columnDefinitions));
  assert.equal(objs[1]?.columnDefinitions, null);
  assert.equal(objs[1]?.rows.length, 1);

  const b = await watchFrames(`${path}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`, 3);
  assert.deepEqual(b.frames.map((f) => f['type']), ['ADDED', 'ADDED', 'BOOKMARK']);
  const bm = b.frames[2]?.['object'] as { kind: string; apiVersion: string; metadata: { resourceVersion: string; annotations: Record<string, string> } };
  assert.equal(bm.kind, 'ConfigMap');
  assert.equal(bm.metadata.annotations['k8s.io/initial-events-end'], 'true');
  assert.match(Buffer.from(bm.metadata.annotations['k8s.io/initial-events-list-blueprint'] ?? '', 'base64').toString(), /"kind":"ConfigMapList"/);

  const y = await watchFrames(`${path}?watch=1`, 1, { Accept: 'application/yaml' });
  assert.equal(y.status, 406);
  assert.equal(y.contentType, 'application/yaml', 'errors are negotiated too');
  assert.match(String(y.frames[0]?.['text']), /message: "only the following media types are accepted: application\/json;stream=watch, application\/vnd.kubernetes.protobuf;stream=watch"/);
});

void test('watch frames are encoded once per event and shared by watchers', async () => {
  const path = '/api/v1/namespaces/share/configmaps';
  await call('POST', path, { body: cm('s1') });
  const [a, b] = await Promise.all([watchFrames(`${path}?watch=1`, 1), watchFrames(`${path}?watch=1`, 1)]);
  assert.deepEqual(a.frames, b.frames);
  const co = cms.objects.get('share/s1');
  assert.ok(co?.encoded.get('application/json'), 'object JSON cached on the CachedObject');
});

void test('cluster-scoped resources ignore body namespaces and are addressed without one', async () => {
  const r = await call('POST', '/api/v1/nodes', { body: JSON.stringify({ metadata: { name: 'n1', namespace: 'zzz' } }) });
  assert.equal(r.status, 201);
  assert.equal((r.json() as { metadata: { namespace?: string } }).metadata.namespace, undefined);
  assert.equal((await call('GET', '/api/v1/nodes/n1')).status, 200);
  assert.equal(nodes.calls.find((c) => c.method === 'get')?.ctx.namespace, '');
});

void test('a chunked body without Content-Length is cut off at 3 MiB with 413', async () => {
  const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${server.url}${NS}`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' } }, (r) => {
      let body = '';
      r.on('data', (c: Buffer) => { body += c.toString(); });
      r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.write('{"metadata":{"name":"chunky"},"data":{"a":"');
    const mb = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 4; i++) req.write(mb);
    req.end('"}}');
  });
  assert.equal(res.status, 413);
  assert.equal((JSON.parse(res.body) as { message: string }).message, 'Request entity too large: limit is 3145728');
  assert.equal(cms.objects.has('ref/chunky'), false);
});

void test('watch: a registry close with an error becomes an ERROR event, then the stream ends; bookmarks carry only the RV', async () => {
  const path = '/api/v1/namespaces/werr/configmaps';
  await call('POST', path, { body: cm('e1') });
  const got = await watchFrames(`${path}?watch=1&allowWatchBookmarks=true`, 3, {}, async () => {
    cms.bookmark();
    await new Promise((r) => setTimeout(r, 20));
    cms.closeWatchers(new StatusError(410, 'Expired', 'too old resource version: 1 (5)'));
  });
  assert.deepEqual(got.frames.map((f) => f['type']), ['ADDED', 'BOOKMARK', 'ERROR']);
  assert.deepEqual(got.frames[1]?.['object'], { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: String(cms.rev) } });
  assert.deepEqual(got.frames[2]?.['object'], { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (5)', reason: 'Expired', code: 410 });
  const rest = await watchFrames(`${path}?watch=1`, 2, {}, async () => {
    cms.closeWatchers();
  });
  assert.equal(rest.ended, true, 'a clean close ends the response');
  assert.deepEqual(rest.frames.map((f) => f['type']), ['ADDED']);
});
