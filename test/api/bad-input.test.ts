/**
 * The "Bad input" list: each answer is a Status with kube-apiserver's code, reason and causes
 * (compared with the recorded answers where one exists), and nothing stored changes.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { assertMatchesReference, assertStatus, configMap, namespace } from './helpers.ts';

let srv: TestServer;
const NS = 'bad';
const CM = `/api/v1/namespaces/${NS}/configmaps`;

before(async () => {
  srv = await startTestServer();
  await srv.request('POST', '/api/v1/namespaces', { body: namespace(NS) });
  await srv.request('POST', CM, { body: configMap('existing', { a: '1' }) });
});
after(async () => { await srv?.stop(); });

/** Every test ends by checking that the namespace holds exactly what `before` put there (plus the root CA). */
async function assertUnchanged(): Promise<void> {
  const items = (await srv.request('GET', CM)).json().items.filter((i: any) => i.metadata.name !== 'kube-root-ca.crt');
  assert.deepEqual(items.map((i: any) => [i.metadata.name, i.data]), [['existing', { a: '1' }]]);
}

void test('malformed JSON and YAML bodies are 400', async () => {
  assertStatus(await srv.request('POST', CM, { body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":' }), 400, 'BadRequest');
  assertStatus(await srv.request('POST', CM, { body: '[1,2' }), 400, 'BadRequest');
  assertStatus(await srv.request('POST', CM, { body: 'kind: ConfigMap\n  metadata: {name: [x', headers: { 'Content-Type': 'application/yaml' } }), 400, 'BadRequest');
  assertStatus(await srv.request('PUT', `${CM}/existing`, { body: '{not json' }), 400, 'BadRequest');
  await assertUnchanged();
});

void test('wrong kind or apiVersion for the path is 400', async () => {
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sneaky' } };
  assertStatus(await srv.request('POST', CM, { body: secret }), 400, 'BadRequest', /^Secret in version "v1" cannot be handled as a ConfigMap/);
  const wrongGroup = { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'sneaky' } };
  assertStatus(await srv.request('POST', CM, { body: wrongGroup }), 400, 'BadRequest');
  await assertUnchanged();
});

void test('a namespace in the body that differs from the URL is 400', async () => {
  const r = await srv.request('POST', CM, { body: configMap('elsewhere', {}, { namespace: 'default' }) });
  assertStatus(r, 400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request');
  const u = await srv.request('PUT', `${CM}/existing`, { body: configMap('existing', { a: '2' }, { namespace: 'default' }) });
  assertStatus(u, 400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request');
  await assertUnchanged();
});

void test('a name in the body that differs from the URL is 400', async () => {
  const u = await srv.request('PUT', `${CM}/existing`, { body: configMap('other', { a: '2' }) });
  assertStatus(u, 400, 'BadRequest', 'the name of the object (other) does not match the name on the URL (existing)');
  await assertUnchanged();
});

void test('names that are not DNS-1123 subdomains are 422 with the field cause', async () => {
  assertMatchesReference(await srv.request('POST', CM, { body: configMap('Bad_Name') }), '422-invalid-name.json');
  const missing = await srv.request('POST', CM, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} } });
  const s = assertStatus(missing, 422, 'Invalid', 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');
  assert.deepEqual(s.details.causes, [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }]);
  await assertUnchanged();
});

void test('strict field validation refuses unknown and duplicate fields; Warn (default) warns', async () => {
  const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"strict"},"bogus":1,"data":{"a":"1","a":"2"}}';
  assertMatchesReference(await srv.request('POST', `${CM}?fieldValidation=Strict`, { body }), '400-strict.json');
  await assertUnchanged();
  const warn = await srv.request('POST', `${CM}?dryRun=All`, { body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"warned"},"bogus":1}' });
  assert.equal(warn.status, 201, warn.text);
  assert.equal(warn.headers['warning'], '299 - "unknown field \\"bogus\\""');
  assertStatus(await srv.request('POST', `${CM}?fieldValidation=Sometimes`, { body: configMap('x') }), 422, 'Invalid',
    'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Sometimes": supported values: "", "Ignore", "Strict", "Warn"');
  await assertUnchanged();
});

void test('bad selectors and continue tokens are 400', async () => {
  assertStatus(await srv.request('GET', `${CM}?labelSelector=${encodeURIComponent('a in (')}`), 400, 'BadRequest');
  assertStatus(await srv.request('GET', `${CM}?fieldSelector=${encodeURIComponent('metadata.name==a=b')}`), 400, 'BadRequest');
  assertStatus(await srv.request('GET', `${CM}?fieldSelector=data.a%3D1`), 400, 'BadRequest', '"data.a" is not a known field selector: only "metadata.name", "metadata.namespace"');
  assertMatchesReference(await srv.request('GET', `${CM}?limit=1&continue=gQ`), '400-bad-continue.json');
});

void test('query parameters that matter are validated', async () => {
  assertStatus(await srv.request('GET', `${CM}?limit=abc`), 400, 'BadRequest');
  assertStatus(await srv.request('GET', `${CM}?watch=1&timeoutSeconds=soon`), 400, 'BadRequest');
  assertStatus(await srv.request('GET', `${CM}/existing?resourceVersion=abc`), 400, 'BadRequest');
  assertStatus(await srv.request('DELETE', `${CM}/existing?gracePeriodSeconds=x`), 400, 'BadRequest');
  await assertUnchanged();
});

void test('oversized bodies: > 3 MiB request is 413; an object over 1.5 MiB is refused and not stored', async () => {
  const huge = configMap('huge', { big: 'x'.repeat(3 * 1024 * 1024 + 10) });
  const r = await srv.request('POST', CM, { body: huge, timeoutMs: 30_000, http2: true });
  assertStatus(r, 413, 'RequestEntityTooLarge');
  const large = configMap('large', { big: 'x'.repeat(1.6 * 1024 * 1024) });
  const l = await srv.request('POST', CM, { body: large, timeoutMs: 30_000, http2: true });
  assert.ok(l.status === 413 || l.status === 422, `${l.status}: ${l.text.slice(0, 300)}`);
  assert.equal(l.json().kind, 'Status');
  await assertUnchanged();
});

void test('unknown resources and methods', async () => {
  assertStatus(await srv.request('GET', `/api/v1/namespaces/${NS}/nothings`), 404, 'NotFound');
  assertStatus(await srv.request('GET', '/apis/nogroup.example.com/v1/things'), 404, 'NotFound');
  const post = await srv.request('POST', `${CM}/existing`, { body: configMap('existing') });
  assertStatus(post, 405, 'MethodNotAllowed');
  await assertUnchanged();
});
