/**
 * The resourceVersion / resourceVersionMatch table for get and list, chunked lists with continue tokens and
 * remainingItemCount, and label / field selectors (including their errors).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';
import { assertMatchesReference, assertStatus, configMap, namespace, reference } from './helpers.ts';

let srv: TestServer;
const NS = 'lists';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
let rvBeforeFifth = '';

before(async () => {
  srv = await startTestServer();
  assert.equal((await srv.request('POST', '/api/v1/namespaces', { body: namespace(NS) })).status, 201);
  for (let i = 1; i <= 5; i++) {
    if (i === 5) rvBeforeFifth = (await srv.request('GET', CM)).json().metadata.resourceVersion;
    const r = await srv.request('POST', CM, { body: configMap(`item-${i}`, { i: String(i) }, { labels: { app: i % 2 ? 'odd' : 'even', n: String(i) } }) });
    assert.equal(r.status, 201, r.text);
  }
  // The root CA publisher adds kube-root-ca.crt; wait for it so page contents are predictable.
  await eventually('kube-root-ca.crt', async () => (await srv.request('GET', `${CM}/kube-root-ca.crt`)).status === 200);
});
after(async () => { await srv?.stop(); });

const names = (r: { json(): any }) => r.json().items.map((i: any) => i.metadata.name).filter((n: string) => n.startsWith('item-'));

void test('list: rv unset, rv=0 and NotOlderThan see everything; Exact sees the past', async () => {
  const all = ['item-1', 'item-2', 'item-3', 'item-4', 'item-5'];
  assert.deepEqual(names(await srv.request('GET', CM)), all);
  assert.deepEqual(names(await srv.request('GET', `${CM}?resourceVersion=0`)), all);
  const cur = (await srv.request('GET', CM)).json().metadata.resourceVersion;
  assert.deepEqual(names(await srv.request('GET', `${CM}?resourceVersion=${cur}&resourceVersionMatch=NotOlderThan`)), all);
  const exact = await srv.request('GET', `${CM}?resourceVersion=${rvBeforeFifth}&resourceVersionMatch=Exact`);
  assert.equal(exact.status, 200, exact.text);
  assert.deepEqual(names(exact), all.slice(0, 4));
  assert.equal(exact.json().metadata.resourceVersion, rvBeforeFifth);
});

void test('list: invalid resourceVersionMatch combinations are 422 on ListOptions', async () => {
  assertStatus(await srv.request('GET', `${CM}?resourceVersionMatch=NotOlderThan`), 422, 'Invalid',
    'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided');
  assertStatus(await srv.request('GET', `${CM}?resourceVersion=0&resourceVersionMatch=Exact`), 422, 'Invalid',
    'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
  const s = assertStatus(await srv.request('GET', `${CM}?resourceVersion=1&resourceVersionMatch=Sometimes`), 422, 'Invalid',
    'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Sometimes": supported values: "Exact", "NotOlderThan", ""');
  assert.deepEqual(s.details, { group: 'meta.k8s.io', kind: 'ListOptions', causes: [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: "Sometimes": supported values: "Exact", "NotOlderThan", ""', field: 'resourceVersionMatch' }] });
});

void test('a resourceVersion the server has not reached is 504 Too large resource version with Retry-After', async () => {
  const cur = Number((await srv.request('GET', CM)).json().metadata.resourceVersion);
  const want = reference('errors/504-too-large.json');
  for (const path of [`${CM}?resourceVersion=99999999&resourceVersionMatch=NotOlderThan`, `${CM}/item-1?resourceVersion=99999999`]) {
    const r = await srv.request('GET', path, { timeoutMs: 30_000 });
    assert.equal(r.status, 504, r.text);
    assert.equal(r.headers['retry-after'], '1');
    const got = r.json();
    const current = Number(/current: (\d+)$/.exec(got.message)?.[1]);
    assert.ok(current >= cur, got.message);
    assert.deepEqual(got, { ...want, message: `Timeout: Too large resource version: 99999999, current: ${current}` });
  }
});

void test('get honours resourceVersion=0 and a not-older-than version', async () => {
  const one = (await srv.request('GET', `${CM}/item-1`)).json();
  assert.equal((await srv.request('GET', `${CM}/item-1?resourceVersion=0`)).json().metadata.uid, one.metadata.uid);
  assert.equal((await srv.request('GET', `${CM}/item-1?resourceVersion=${one.metadata.resourceVersion}`)).status, 200);
});

void test('chunked list: limit, continue and remainingItemCount', async () => {
  // In key order: item-1 … item-5, kube-root-ca.crt.
  const p1 = (await srv.request('GET', `${CM}?limit=2`)).json();
  assert.deepEqual(p1.items.map((i: any) => i.metadata.name), ['item-1', 'item-2']);
  assert.equal(p1.metadata.remainingItemCount, 4);
  assert.ok(p1.metadata.continue, 'continue token');
  // Writes after the first page do not show up in later pages: the list is consistent at its revision.
  assert.equal((await srv.request('POST', CM, { body: configMap('item-6') })).status, 201);
  const p2 = (await srv.request('GET', `${CM}?limit=2&continue=${encodeURIComponent(p1.metadata.continue)}`)).json();
  assert.deepEqual(p2.items.map((i: any) => i.metadata.name), ['item-3', 'item-4']);
  assert.equal(p2.metadata.remainingItemCount, 2);
  assert.equal(p2.metadata.resourceVersion, p1.metadata.resourceVersion);
  const p3 = (await srv.request('GET', `${CM}?limit=2&continue=${encodeURIComponent(p2.metadata.continue)}`)).json();
  assert.deepEqual(p3.items.map((i: any) => i.metadata.name), ['item-5', 'kube-root-ca.crt']);
  assert.equal(p3.metadata.continue, undefined);
  assert.equal(p3.metadata.remainingItemCount, undefined);
  assert.equal((await srv.request('DELETE', `${CM}/item-6`)).status, 200);

  // With a label selector the remaining count is unknown, and pages may hold fewer items.
  const sel = (await srv.request('GET', `${CM}?limit=1&labelSelector=app%3Dodd`)).json();
  assert.deepEqual(sel.items.map((i: any) => i.metadata.name), ['item-1']);
  assert.equal(sel.metadata.remainingItemCount, undefined);
  assert.ok(sel.metadata.continue);
});

void test('a malformed continue token is 400 as kube-apiserver words it', async () => {
  // base64url "gQ" decodes to the single byte 0x81, which is not JSON.
  assertMatchesReference(await srv.request('GET', `${CM}?limit=1&continue=gQ`), '400-bad-continue.json');
  assertStatus(await srv.request('GET', `${CM}?limit=1&continue=not-base64!`), 400, 'BadRequest', /^invalid continue token/);
  assertStatus(await srv.request('GET', `${CM}?continue=gQ&resourceVersion=5&resourceVersionMatch=NotOlderThan`), 422, 'Invalid', /resourceVersionMatch is forbidden when continue is provided/);
  const p1 = (await srv.request('GET', `${CM}?limit=1`)).json();
  assertStatus(await srv.request('GET', `${CM}?limit=1&resourceVersion=${p1.metadata.resourceVersion}&continue=${encodeURIComponent(p1.metadata.continue)}`), 400, 'BadRequest',
    'specifying resource version is not allowed when using continue');
});

void test('label selectors: equality, set-based, existence', async () => {
  const q = async (sel: string) => names(await srv.request('GET', `${CM}?labelSelector=${encodeURIComponent(sel)}`));
  assert.deepEqual(await q('app=odd'), ['item-1', 'item-3', 'item-5']);
  assert.deepEqual(await q('app!=odd'), ['item-2', 'item-4']);
  assert.deepEqual(await q('n in (1,4)'), ['item-1', 'item-4']);
  assert.deepEqual(await q('n notin (1,2,3)'), ['item-4', 'item-5']);
  assert.deepEqual(await q('app=even,n=4'), ['item-4']);
  assert.deepEqual(await q('n'), ['item-1', 'item-2', 'item-3', 'item-4', 'item-5']);
  assert.deepEqual(await q('!n'), []);
  assertStatus(await srv.request('GET', `${CM}?labelSelector=${encodeURIComponent('app in (a')}`), 400, 'BadRequest');
  assertStatus(await srv.request('GET', `${CM}?labelSelector=${encodeURIComponent('Bad Key=x')}`), 400, 'BadRequest');
});

void test('field selectors: metadata.name and metadata.namespace; unknown fields are refused', async () => {
  assert.deepEqual(names(await srv.request('GET', `${CM}?fieldSelector=metadata.name%3Ditem-2`)), ['item-2']);
  assert.deepEqual(names(await srv.request('GET', `${CM}?fieldSelector=metadata.name!%3Ditem-2`)), ['item-1', 'item-3', 'item-4', 'item-5']);
  const across = (await srv.request('GET', `/api/v1/configmaps?fieldSelector=metadata.namespace%3D${NS}`)).json();
  assert.ok(across.items.every((i: any) => i.metadata.namespace === NS));
  assert.ok(across.items.length >= 5);
  // ConfigMaps have no field label conversion of their own: kube's default conversion answers.
  assertStatus(await srv.request('GET', `${CM}?fieldSelector=spec.nope%3Dx`), 400, 'BadRequest', '"spec.nope" is not a known field selector: only "metadata.name", "metadata.namespace"');
  // Secrets have one (type is selectable) and word it their way.
  assertStatus(await srv.request('GET', `/api/v1/namespaces/${NS}/secrets?fieldSelector=spec.nope%3Dx`), 400, 'BadRequest', 'field label not supported: spec.nope');
  // Namespaces support status.phase; pods support spec.nodeName.
  const active = (await srv.request('GET', '/api/v1/namespaces?fieldSelector=status.phase%3DActive')).json();
  assert.ok(active.items.some((n: any) => n.metadata.name === NS));
});
