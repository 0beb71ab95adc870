/**
 * Representations: YAML in and out, ?pretty, Table (default and per-kind columns against kube's recorded
 * tables), 406 with the available types, 415 for unknown request types, gzip above 128 KiB.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import { startTestServer, type TestServer } from '../support/server.ts';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { assertStatus, configMap, namespace, reference, REFERENCE_DIR } from './helpers.ts';

let srv: TestServer;
const NS = 'neg';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

before(async () => {
  srv = await startTestServer();
  await srv.request('POST', '/api/v1/namespaces', { body: namespace(NS) });
  await srv.request('POST', CM, { body: configMap('cm1', { a: 'b' }) });
});
after(async () => { await srv?.stop(); });

void test('YAML out and YAML in', async () => {
  const r = await srv.request('GET', `${CM}/cm1`, { headers: { Accept: 'application/yaml' } });
  assert.equal(r.status, 200);
  assert.match(String(r.headers['content-type']), /^application\/yaml/);
  const obj = parseYaml(r.text);
  assert.equal(obj.kind, 'ConfigMap');
  assert.deepEqual(obj.data, { a: 'b' });

  const body = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  k: "1"\n  on: "yes"\n';
  const c = await srv.request('POST', CM, { body, headers: { 'Content-Type': 'application/yaml' } });
  assert.equal(c.status, 201, c.text);
  // YAML 1.1 as Kubernetes reads it: the bare key `on` is the boolean true.
  assert.deepEqual(c.json().data, { k: '1', true: 'yes' });

  const bad = await srv.request('POST', CM, { body: 'metadata: [unclosed', headers: { 'Content-Type': 'application/yaml' } });
  assertStatus(bad, 400, 'BadRequest');
});

void test('?pretty indents JSON', async () => {
  const r = await srv.request('GET', `${CM}/cm1?pretty=true`);
  assert.match(r.text, /^\{\n {2}"kind": "ConfigMap",\n/);
  const plain = await srv.request('GET', `${CM}/cm1`);
  assert.ok(!plain.text.includes('\n  "'), 'compact by default');
});

/**
 * What clients read from a column definition. Descriptions are our own words on purpose (we do not copy
 * Kubernetes' documentation, and the fixtures carry none), so ours are only required to be present.
 */
function columnShape(c: { name: string; type: string; format: string; priority: number }) {
  return { name: c.name, type: c.type, format: c.format, priority: c.priority };
}
function ourColumnShape(c: { name: string; type: string; format: string; priority: number; description?: string }) {
  assert.ok(c.description, `column ${c.name} has no description`);
  return columnShape(c);
}

void test('Table: configmaps columns match kube-apiserver', async () => {
  const r = await srv.request('GET', CM, { headers: { Accept: TABLE } });
  assert.equal(r.status, 200, r.text);
  const t = r.json();
  assert.equal(t.kind, 'Table');
  assert.equal(t.apiVersion, 'meta.k8s.io/v1');
  const ref = reference('table/api_v1_namespaces_ref_configmaps.json');
  assert.deepEqual(t.columnDefinitions.map(ourColumnShape), ref.columnDefinitions.map(columnShape));
  const row = t.rows.find((x: any) => x.cells[0] === 'cm1');
  assert.ok(row, JSON.stringify(t.rows));
  assert.equal(row.cells[1], 1);
  assert.match(row.cells[2], /^\d+s$/);
  // Row objects default to PartialObjectMetadata.
  assert.equal(row.object.kind, 'PartialObjectMetadata');
  assert.equal(row.object.metadata.name, 'cm1');
});

void test('Table: every kind with a recorded table uses kube-apiserver\'s column definitions', async () => {
  const files = readdirSync(path.join(REFERENCE_DIR!, 'table')).filter((f) => f.endsWith('.json')).sort();
  assert.ok(files.length >= 5);
  const mismatches: string[] = [];
  for (const file of files) {
    // api_v1_namespaces_ref_pods.json → /api/v1/namespaces/neg/pods
    const url = '/' + file.replace(/\.json$/, '').split('_').map((seg, i, all) => (seg === 'ref' && all[i - 1] === 'namespaces' ? NS : seg)).join('/');
    const r = await srv.request('GET', url, { headers: { Accept: TABLE } });
    if (r.status !== 200) {
      mismatches.push(`${url}: ${r.status} ${r.text.slice(0, 200)}`);
      continue;
    }
    const want = reference(`table/${file}`).columnDefinitions;
    try {
      assert.deepEqual(r.json().columnDefinitions.map(ourColumnShape), want.map(columnShape));
    } catch {
      mismatches.push(`${url}: columns ${JSON.stringify(r.json().columnDefinitions.map((c: any) => c.name))} vs ${JSON.stringify(want.map((c: any) => c.name))}`
        + ' (or a type/format/priority differs, or a description of ours is missing)');
    }
  }
  assert.deepEqual(mismatches, []);
});

void test('Table for one object and with includeObject=None', async () => {
  const r = await srv.request('GET', `${CM}/cm1?includeObject=None`, { headers: { Accept: TABLE } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json().rows.length, 1);
  assert.equal(r.json().rows[0].object ?? null, null);
});

void test('406 names the available representations', async () => {
  const r = await srv.request('GET', `${CM}/cm1`, { headers: { Accept: 'text/csv' } });
  const s = assertStatus(r, 406, 'NotAcceptable');
  assert.match(s.message, /^406: Not Acceptable\n\nAvailable representations: application\/json, application\/yaml/);
  assert.deepEqual(s.details, {});
});

void test('415 for a request body in an unknown format', async () => {
  const r = await srv.request('POST', CM, { body: 'a=b', headers: { 'Content-Type': 'text/plain' } });
  const s = assertStatus(r, 415, 'UnsupportedMediaType');
  assert.match(s.message, /^the body of the request was in an unknown format - accepted media types include: application\/json, application\/yaml/);
  assert.equal((await srv.request('GET', `${CM}/a`)).status, 404);
});

void test('gzip for responses over 128 KiB when asked, not below', async () => {
  const big = 'x'.repeat(60 * 1024);
  for (const n of ['big-1', 'big-2', 'big-3']) {
    const c = await srv.request('POST', CM, { body: configMap(n, { big }) });
    assert.equal(c.status, 201, c.text.slice(0, 300));
  }
  const z = await srv.request('GET', CM, { headers: { 'Accept-Encoding': 'gzip' } });
  assert.equal(z.status, 200);
  assert.equal(z.headers['content-encoding'], 'gzip');
  assert.ok(z.raw.length < 64 * 1024, 'compressed');
  assert.equal(z.json().items.filter((i: any) => i.metadata.name.startsWith('big-')).length, 3);

  const small = await srv.request('GET', `${CM}/cm1`, { headers: { 'Accept-Encoding': 'gzip' } });
  assert.equal(small.headers['content-encoding'], undefined);
  const notAsked = await srv.request('GET', CM);
  assert.equal(notAsked.headers['content-encoding'], undefined);
});
