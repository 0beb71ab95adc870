/**
 * Watch: from a resourceVersion, ADDED/MODIFIED/DELETED in order, a single object via metadata.name,
 * sendInitialEvents with the closing bookmark, timeoutSeconds, rv=0 replay of the current state.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { configMap, namespace } from './helpers.ts';

let srv: TestServer;
const NS = 'watching';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const MERGE = { 'Content-Type': 'application/merge-patch+json' };

before(async () => {
  srv = await startTestServer();
  assert.equal((await srv.request('POST', '/api/v1/namespaces', { body: namespace(NS) })).status, 201);
});
after(async () => { await srv?.stop(); });

async function listRv(path = CM): Promise<string> {
  return (await srv.request('GET', path)).json().metadata.resourceVersion;
}

void test('watch from a resourceVersion delivers ADDED, MODIFIED and DELETED in order', async () => {
  const rv = await listRv();
  const w = await srv.watch(`${CM}?watch=1&resourceVersion=${rv}&labelSelector=w%3D1`);
  try {
    assert.equal(w.status, 200);
    assert.match(String(w.headers['content-type']), /^application\/json/);
    const c = (await srv.request('POST', CM, { body: configMap('w1', { a: '1' }, { labels: { w: '1' } }) })).json();
    await srv.request('PATCH', `${CM}/w1`, { body: { data: { a: '2' } }, headers: MERGE });
    await srv.request('POST', CM, { body: configMap('other', {}, { labels: { w: '2' } }) }); // filtered out
    await srv.request('DELETE', `${CM}/w1`);

    const e1 = await w.next();
    assert.equal(e1.type, 'ADDED');
    assert.equal(e1.object.kind, 'ConfigMap');
    assert.equal(e1.object.apiVersion, 'v1');
    assert.equal(e1.object.metadata.uid, c.metadata.uid);
    const e2 = await w.next();
    assert.equal(e2.type, 'MODIFIED');
    assert.deepEqual(e2.object.data, { a: '2' });
    const e3 = await w.next();
    assert.equal(e3.type, 'DELETED');
    assert.equal(e3.object.metadata.name, 'w1');
    assert.ok(Number(e3.object.metadata.resourceVersion) > Number(e2.object.metadata.resourceVersion), 'DELETED carries the delete revision');
  } finally {
    w.close();
  }
});

void test('watch of a single object with fieldSelector=metadata.name', async () => {
  await srv.request('POST', CM, { body: configMap('solo') });
  await srv.request('POST', CM, { body: configMap('noise') });
  const rv = await listRv();
  const w = await srv.watch(`${CM}?watch=true&resourceVersion=${rv}&fieldSelector=metadata.name%3Dsolo`);
  try {
    await srv.request('PATCH', `${CM}/noise`, { body: { data: { n: '1' } }, headers: MERGE });
    await srv.request('PATCH', `${CM}/solo`, { body: { data: { s: '1' } }, headers: MERGE });
    const e = await w.next();
    assert.equal(e.type, 'MODIFIED');
    assert.equal(e.object.metadata.name, 'solo');
    assert.equal(w.pending(), 0);
  } finally {
    w.close();
  }
});

void test('sendInitialEvents: current state as ADDED, then a bookmark marked initial-events-end', async () => {
  const ns = 'initial-events';
  await srv.request('POST', '/api/v1/namespaces', { body: namespace(ns) });
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  for (const n of ['ie-1', 'ie-2']) await srv.request('POST', path, { body: configMap(n, {}, { labels: { ie: 'y' } }) });
  const w = await srv.watch(`${path}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&labelSelector=ie%3Dy`);
  try {
    assert.equal(w.status, 200);
    const seen: string[] = [];
    for (;;) {
      const e = await w.next();
      if (e.type === 'BOOKMARK') {
        assert.equal(e.object.metadata.annotations?.['k8s.io/initial-events-end'], 'true');
        assert.equal(e.object.kind, 'ConfigMap');
        assert.match(e.object.metadata.resourceVersion, /^\d+$/);
        break;
      }
      assert.equal(e.type, 'ADDED');
      seen.push(e.object.metadata.name);
    }
    assert.deepEqual(seen.sort(), ['ie-1', 'ie-2']);
    await srv.request('POST', path, { body: configMap('ie-3', {}, { labels: { ie: 'y' } }) });
    const after = await w.next();
    assert.equal(after.type, 'ADDED');
    assert.equal(after.object.metadata.name, 'ie-3');
  } finally {
    w.close();
  }
});

void test('sendInitialEvents needs allowWatchBookmarks and resourceVersionMatch=NotOlderThan', async () => {
  const r = await srv.request('GET', `${CM}?watch=1&sendInitialEvents=true`);
  assert.equal(r.status, 422, r.text);
  assert.equal(r.json().reason, 'Invalid');
  assert.match(r.json().message, /sendInitialEvents/);
});

void test('watch with resourceVersion=0 starts with the current objects', async () => {
  const ns = 'rv0';
  await srv.request('POST', '/api/v1/namespaces', { body: namespace(ns) });
  await srv.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: configMap('there', {}, { labels: { rv0: 'y' } }) });
  const w = await srv.watch(`/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=0&labelSelector=rv0`);
  try {
    const e = await w.next();
    assert.equal(e.type, 'ADDED');
    assert.equal(e.object.metadata.name, 'there');
  } finally {
    w.close();
  }
});

void test('timeoutSeconds ends the watch', async () => {
  const rv = await listRv();
  const w = await srv.watch(`${CM}?watch=1&resourceVersion=${rv}&timeoutSeconds=1&fieldSelector=metadata.name%3Dnever`);
  try {
    await assert.rejects(w.next(15_000), /ended before the next event/);
    assert.ok(w.ended());
  } finally {
    w.close();
  }
});

void test('allowWatchBookmarks: a BOOKMARK arrives before a watch deadline (kube sends it 2 s before)', async () => {
  const rv = await listRv();
  const w = await srv.watch(`${CM}?watch=1&resourceVersion=${rv}&allowWatchBookmarks=true&timeoutSeconds=4&fieldSelector=metadata.name%3Dnever`);
  try {
    const e = await w.next(10_000);
    assert.equal(e.type, 'BOOKMARK');
    assert.equal(e.object.kind, 'ConfigMap');
    assert.equal(e.object.apiVersion, 'v1');
    assert.ok(Number(e.object.metadata.resourceVersion) >= Number(rv));
    assert.deepEqual(Object.keys(e.object).sort(), ['apiVersion', 'kind', 'metadata']);
  } finally {
    w.close();
  }
});

void test('watch across all namespaces sees changes in any', async () => {
  const rv = await listRv('/api/v1/configmaps');
  const w = await srv.watch(`/api/v1/configmaps?watch=1&resourceVersion=${rv}&labelSelector=everywhere`);
  try {
    await srv.request('POST', '/api/v1/namespaces/default/configmaps', { body: configMap('ev', {}, { labels: { everywhere: 'y' } }) });
    const e = await w.next();
    assert.equal(e.type, 'ADDED');
    assert.equal(e.object.metadata.namespace, 'default');
  } finally {
    w.close();
  }
});
