/**
 * /metrics and the logs, as an operator meets them: Prometheus text with kube-apiserver's families and labels,
 * counters that move, access through the `system:monitoring` group only, request lines in kube's httplog shape
 * at -v=3 with no credential or secret data anywhere in the log, and `PUT /debug/flags/v`.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.ts';
import { Logger } from '../../src/machinery/logging.ts';
import { configMap } from './helpers.ts';

const MONITOR_TOKEN = 'monitor-token-5f1c2a9e8b7d';
const PLAIN_TOKEN = 'plain-token-0a9b8c7d6e5f';
const SECRET_VALUE = 'hunter2-super-secret-value';

let srv: TestServer;
let dir: string;
const logLines: string[] = [];
const logger = new Logger({ verbosity: 3, write: (l) => logLines.push(l) });

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-metrics-'));
  const tokens = path.join(dir, 'tokens.csv');
  writeFileSync(tokens, [`${MONITOR_TOKEN},prom,uid-prom,"system:monitoring"`, `${PLAIN_TOKEN},plain,uid-plain`, ''].join('\n'));
  srv = await startTestServer({ tokenAuthFile: tokens, logger, storage: 'sqlite' });
});

after(async () => {
  await srv.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Sample { name: string; labels: Record<string, string>; value: number }
interface Family { help: string; type: string; samples: Sample[] }

/** A strict reader of the Prometheus text format (0.0.4): every line must be HELP, TYPE or a sample. */
function parseProm(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  let current: Family | undefined;
  assert.ok(text.endsWith('\n'), 'ends with a newline');
  for (const line of text.slice(0, -1).split('\n')) {
    let m = /^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (m) {
      assert.ok(!families.has(m[1]!), `family ${m[1]} appears once`);
      current = { help: m[2]!, type: '', samples: [] };
      families.set(m[1]!, current);
      continue;
    }
    m = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (m) {
      assert.ok(current && families.get(m[1]!) === current, `TYPE follows HELP for ${m[1]}`);
      current.type = m[2]!;
      continue;
    }
    m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(m, `not a Prometheus line: ${line}`);
    assert.ok(current, `sample before any family: ${line}`);
    const labels: Record<string, string> = {};
    const body = m[2] ?? '';
    const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/gy;
    let consumed = 0;
    for (let lm = re.exec(body); lm; lm = re.exec(body)) {
      labels[lm[1]!] = lm[2]!;
      consumed = re.lastIndex;
    }
    assert.equal(consumed, body.length, `labels parse: ${line}`);
    const value = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : Number(m[3]);
    assert.ok(!Number.isNaN(value) || m[3] === 'NaN', `value: ${line}`);
    current.samples.push({ name: m[1]!, labels, value });
  }
  return families;
}

async function scrape(): Promise<Map<string, Family>> {
  const r = await srv.request('GET', '/metrics', { user: { token: MONITOR_TOKEN } });
  assert.equal(r.status, 200, r.text);
  assert.match(String(r.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return parseProm(r.text);
}

function family(fams: Map<string, Family>, name: string): Family {
  const f = fams.get(name);
  assert.ok(f, `family ${name} is exposed`);
  return f;
}

function find(f: Family, name: string, want: Record<string, string>): Sample | undefined {
  return f.samples.find((s) => s.name === name && Object.entries(want).every(([k, v]) => s.labels[k] === v));
}

const REQUEST_LABELS = ['code', 'component', 'dry_run', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'];
const KUBE_REQUEST_BUCKETS = ['0.005', '0.025', '0.05', '0.1', '0.2', '0.4', '0.6', '0.8', '1', '1.25', '1.5', '2', '3', '4', '5', '6', '8', '10', '15', '20', '30', '45', '60', '+Inf'];

void test('/metrics parses as Prometheus text and carries kube-apiserver families with their labels', async () => {
  await srv.request('POST', '/api/v1/namespaces/default/configmaps', { body: configMap('m1') });
  await srv.request('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', { body: configMap('m2') });
  await srv.request('GET', '/api/v1/namespaces/default/configmaps');
  await srv.request('GET', '/api/v1/namespaces/default/configmaps/m1');
  await srv.request('GET', '/healthz');
  const w = await srv.watch('/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=0');
  await w.next();
  const fams = await scrape();
  w.close();

  const total = family(fams, 'apiserver_request_total');
  assert.equal(total.type, 'counter');
  assert.match(total.help, /^\[STABLE\] Counter of apiserver requests broken out/);
  for (const s of total.samples) assert.deepEqual(Object.keys(s.labels).sort(), REQUEST_LABELS);
  assert.ok(find(total, 'apiserver_request_total', { verb: 'POST', resource: 'configmaps', scope: 'resource', code: '201', dry_run: '', component: 'apiserver', version: 'v1', group: '' }));
  assert.ok(find(total, 'apiserver_request_total', { verb: 'POST', resource: 'configmaps', dry_run: 'All', code: '201' }));
  assert.ok(find(total, 'apiserver_request_total', { verb: 'LIST', resource: 'configmaps', scope: 'namespace', code: '200' }));
  assert.ok(find(total, 'apiserver_request_total', { verb: 'GET', resource: 'configmaps', scope: 'resource', code: '200' }));
  assert.ok(find(total, 'apiserver_request_total', { verb: 'GET', subresource: '/healthz', component: '', scope: '' }));

  const dur = family(fams, 'apiserver_request_duration_seconds');
  assert.equal(dur.type, 'histogram');
  const buckets = dur.samples.filter((s) => s.name === 'apiserver_request_duration_seconds_bucket' && s.labels.verb === 'LIST' && s.labels.resource === 'configmaps');
  assert.deepEqual(buckets.map((b) => b.labels.le), KUBE_REQUEST_BUCKETS);
  const sizes = family(fams, 'apiserver_response_sizes');
  assert.ok(find(sizes, 'apiserver_response_sizes_sum', { verb: 'LIST', resource: 'configmaps' })!.value > 0, 'LIST responses are sized');

  assert.deepEqual(family(fams, 'apiserver_current_inflight_requests').samples.map((s) => s.labels.request_kind).sort(), ['mutating', 'readOnly']);
  assert.equal(find(family(fams, 'apiserver_longrunning_requests'), 'apiserver_longrunning_requests', { verb: 'WATCH', resource: 'configmaps' })?.value, 1);
  assert.ok(find(family(fams, 'apiserver_watch_events_total'), 'apiserver_watch_events_total', { group: '', version: 'v1', kind: 'ConfigMap' })!.value >= 1);
  assert.ok(fams.has('apiserver_watch_events_sizes'));

  // Storage, from the sqlite backend through the instrumented store.
  assert.ok(find(family(fams, 'apiserver_storage_objects'), 'apiserver_storage_objects', { resource: 'configmaps' })!.value >= 1);
  assert.ok(find(family(fams, 'etcd_request_duration_seconds'), 'etcd_request_duration_seconds_count', { operation: 'create', type: 'configmaps' })!.value >= 1);
  assert.ok(find(family(fams, 'etcd_requests_total'), 'etcd_requests_total', { operation: 'get' }));
  assert.ok(find(family(fams, 'apiserver_storage_objects'), 'apiserver_storage_objects', { resource: 'clusterroles.rbac.authorization.k8s.io' })!.value > 10);
  assert.ok(family(fams, 'apiserver_storage_size_bytes').samples[0]!.value > 0);

  // Admission, authentication, authorization.
  assert.ok(find(family(fams, 'apiserver_admission_step_admission_duration_seconds'), 'apiserver_admission_step_admission_duration_seconds_count', { type: 'validate', operation: 'CREATE', rejected: 'false' }));
  assert.ok(find(family(fams, 'apiserver_admission_controller_admission_duration_seconds'), 'apiserver_admission_controller_admission_duration_seconds_count', { name: 'NamespaceLifecycle', operation: 'CREATE' }));
  assert.ok(find(family(fams, 'authentication_attempts'), 'authentication_attempts', { result: 'success' }));
  assert.ok(find(family(fams, 'authorization_attempts_total'), 'authorization_attempts_total', { result: 'allowed' }));
  // The monitoring user was allowed by RBAC (the admin's system:masters shortcut is not an instrumented authorizer).
  assert.ok(find(family(fams, 'apiserver_authorization_decisions_total'), 'apiserver_authorization_decisions_total', { type: 'RBAC', name: 'rbac', decision: 'allowed' }));

  // Process metrics, and the deprecated SLO histogram stays hidden in 1.33.
  assert.ok(family(fams, 'process_cpu_user_seconds_total').samples[0]!.value > 0);
  assert.ok(fams.has('nodejs_heap_size_used_bytes'));
  assert.ok(!fams.has('apiserver_request_slo_duration_seconds'));
  assert.ok(fams.has('apiserver_request_sli_duration_seconds'));
});

void test('storage LIST counters: one LIST served from storage counts what it fetched, tested and returned', async () => {
  const ns = 'list-metrics';
  assert.equal((await srv.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } })).status, 201);
  for (let i = 0; i < 5; i++) {
    const r = await srv.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: configMap(`lm${i}`, { a: 'b' }, { labels: { team: i < 2 ? 'a' : 'b' } }) });
    assert.equal(r.status, 201, r.text);
  }
  // At that revision the namespace may also hold the root CA publisher's kube-root-ca.crt: count what is there.
  const atRv = (await srv.request('GET', `/api/v1/namespaces/${ns}/configmaps`)).json() as { metadata: { resourceVersion: string }; items: unknown[] };
  const rv = atRv.metadata.resourceVersion;
  const stored = atRv.items.length;
  assert.ok(stored >= 5);
  assert.equal((await srv.request('POST', '/api/v1/namespaces/default/configmaps', { body: configMap('lm-later') })).status, 201);
  const counts = (f: Map<string, Family>): number[] => ['apiserver_storage_list_total', 'apiserver_storage_list_fetched_objects_total', 'apiserver_storage_list_evaluated_objects_total', 'apiserver_storage_list_returned_objects_total']
    .map((n) => find(family(f, n), n, { resource: 'configmaps' })?.value ?? 0);
  const before = await scrape();
  for (const n of ['apiserver_storage_list_total', 'apiserver_storage_list_fetched_objects_total', 'apiserver_storage_list_evaluated_objects_total', 'apiserver_storage_list_returned_objects_total']) {
    const f = family(before, n);
    assert.equal(f.type, 'counter');
    assert.match(f.help, /^\[ALPHA\] Number of (LIST requests|objects)/);
    assert.ok(f.samples.every((s) => Object.keys(s.labels).join() === 'resource'), `${n} is labelled by resource only`);
  }
  // An exact, past resourceVersion is not the watch cache's to answer: this LIST reads the store and filters.
  const listed = await srv.request('GET', `/api/v1/namespaces/${ns}/configmaps?labelSelector=team%3Da&resourceVersion=${rv}&resourceVersionMatch=Exact`);
  assert.equal(listed.status, 200, listed.text);
  assert.equal(listed.json().items.length, 2);
  const [lists0, fetched0, evaluated0, returned0] = counts(before);
  const [lists1, fetched1, evaluated1, returned1] = counts(await scrape());
  assert.deepEqual([lists1! - lists0!, fetched1! - fetched0!, evaluated1! - evaluated0!, returned1! - returned0!], [1, stored, stored, 2]);
});

void test('apiserver_storage_size_bytes: the sqlite file under storage_cluster_id etcd-0; the deprecated per-endpoint family stays hidden', async () => {
  const fams = await scrape();
  const size = family(fams, 'apiserver_storage_size_bytes');
  assert.equal(size.type, 'gauge');
  assert.equal(size.help, '[STABLE] Size of the storage database file physically allocated in bytes.');
  assert.deepEqual(size.samples.map((s) => s.labels), [{ storage_cluster_id: 'etcd-0' }]);
  assert.ok(size.samples[0]!.value > 4096);
  assert.ok(!fams.has('apiserver_storage_db_total_size_in_bytes'));
});

void test('apiserver_flowcontrol_*: requests dispatched per priority level and FlowSchema, the levels\' seats, none waiting at rest', async () => {
  const dispatchedFor = (f: Map<string, Family>, fs: string, pl: string) =>
    find(family(f, 'apiserver_flowcontrol_dispatched_requests_total'), 'apiserver_flowcontrol_dispatched_requests_total', { priority_level: pl, flow_schema: fs })?.value ?? 0;
  const before = await scrape();
  // The admin is in system:masters: FlowSchema exempt at the exempt level. The plain token user and the scraping
  // user are global-default (no other schema matches them).
  assert.equal((await srv.request('GET', '/api/v1/namespaces/default', { user: { token: PLAIN_TOKEN } })).status, 403);
  for (let i = 0; i < 2; i++) assert.equal((await srv.request('GET', '/api/v1/namespaces/default')).status, 200);
  const fams = await scrape();
  const d = family(fams, 'apiserver_flowcontrol_dispatched_requests_total');
  assert.equal(d.type, 'counter');
  assert.equal(d.help, '[BETA] Number of requests executed by API Priority and Fairness subsystem');
  assert.ok(dispatchedFor(fams, 'exempt', 'exempt') >= dispatchedFor(before, 'exempt', 'exempt') + 2);
  // The plain user's request and the second scrape (the first counted itself).
  assert.equal(dispatchedFor(fams, 'global-default', 'global-default'), dispatchedFor(before, 'global-default', 'global-default') + 2);
  const nominal = family(fams, 'apiserver_flowcontrol_nominal_limit_seats');
  assert.equal(nominal.type, 'gauge');
  assert.deepEqual(nominal.samples.map((s) => s.labels['priority_level']).sort(),
    ['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low']);
  assert.ok(nominal.samples.every((s) => Number.isInteger(s.value) && (s.labels['priority_level'] === 'exempt' ? s.value === 0 : s.value > 0)));
  for (const name of ['apiserver_flowcontrol_lower_limit_seats', 'apiserver_flowcontrol_upper_limit_seats', 'apiserver_flowcontrol_current_limit_seats']) {
    assert.equal(family(fams, name).samples.length, 8, name);
  }
  const waiting = family(fams, 'apiserver_flowcontrol_current_inqueue_requests');
  assert.ok(waiting.samples.every((s) => s.value === 0));
  // The scrape itself is the one request executing while its snapshot is taken.
  const executing = family(fams, 'apiserver_flowcontrol_current_executing_requests');
  assert.equal(executing.samples.reduce((n, s) => n + s.value, 0), 1);
});

void test('counters move between scrapes', async () => {
  const count = (f: Map<string, Family>) => find(family(f, 'apiserver_request_total'), 'apiserver_request_total', { verb: 'GET', resource: 'namespaces', scope: 'resource', code: '200' })?.value ?? 0;
  const before = count(await scrape());
  for (let i = 0; i < 3; i++) assert.equal((await srv.request('GET', '/api/v1/namespaces/default')).status, 200);
  assert.equal(count(await scrape()), before + 3);
});

void test('/metrics needs get on the non-resource URL /metrics: a user outside system:monitoring gets 403', async () => {
  const r = await srv.request('GET', '/metrics', { user: { token: PLAIN_TOKEN } });
  assert.equal(r.status, 403);
  assert.equal(r.json().message, 'forbidden: User "plain" cannot get path "/metrics"');
  assert.equal((await srv.request('GET', '/metrics', { user: 'anonymous' })).status, 403);
});

const HTTPLOG = /^I\d{4} \d{2}:\d{2}:\d{2}\.\d{6} +\d+ httplog\.ts\] "HTTP" verb="(\w+)" URI="([^"]*)" latency="[\d.]+(?:ns|µs|ms|s)" userAgent="[^"]*" audit-ID="([0-9a-f-]+)" srcIP="127\.0\.0\.1:\d+" resp=(\d+)$/;

void test('at -v=3 every request is logged in kube\'s httplog shape, with no token or secret data in any line', async () => {
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, stringData: { password: SECRET_VALUE } };
  const created = await srv.request('POST', '/api/v1/namespaces/default/secrets', { body: secret });
  assert.equal(created.status, 201, created.text);
  await srv.request('GET', '/api/v1/namespaces/default/secrets/s1');
  await srv.request('GET', '/api/v1/namespaces/default/secrets', { user: { token: PLAIN_TOKEN } });
  await srv.request('GET', '/api/v1/namespaces', { user: { token: 'no-such-token-9f8e7d6c5b4a' } });
  await srv.request('GET', '/api/v1/namespaces', { headers: { Authorization: 'Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl' } });
  const line = logLines.map((l) => HTTPLOG.exec(l)).find((m) => m && m[1] === 'POST' && m[2] === '/api/v1/namespaces/default/secrets');
  assert.ok(line, `a POST request line in:\n${logLines.slice(-5).join('\n')}`);
  assert.equal(line[3], created.headers['audit-id']);
  assert.equal(line[4], '201');
  assert.ok(logLines.some((l) => HTTPLOG.exec(l)?.[4] === '401'), 'the rejected token shows as a 401 line');
  // kubectl speaks HTTP/2: its lines carry the client address too.
  assert.equal((await srv.request('GET', '/api/v1/namespaces/default?h2', { http2: true })).status, 200);
  assert.ok(logLines.some((l) => HTTPLOG.exec(l)?.[2] === '/api/v1/namespaces/default?h2'), 'an HTTP/2 request line with srcIP');

  const all = logLines.join('\n');
  const b64 = Buffer.from(SECRET_VALUE).toString('base64');
  for (const needle of [MONITOR_TOKEN, PLAIN_TOKEN, 'no-such-token-9f8e7d6c5b4a', 'eyJhbGciOiJSUzI1NiJ9', SECRET_VALUE, b64]) {
    assert.ok(!all.includes(needle), `the log must not contain ${needle}`);
  }
});

void test('PUT /debug/flags/v changes the verbosity at run time; only authorized users may', async () => {
  const denied = await srv.request('PUT', '/debug/flags/v', { body: '0', user: { token: PLAIN_TOKEN }, headers: { 'Content-Type': 'text/plain' } });
  assert.equal(denied.status, 403);
  assert.equal(logger.verbosity, 3);

  const bad = await srv.request('PUT', '/debug/flags/v', { body: 'loud', headers: { 'Content-Type': 'text/plain' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.text, 'failed set klog.logging.verbosity loud: strconv.ParseInt: parsing "loud": invalid syntax\n');

  const ok = await srv.request('PUT', '/debug/flags/v', { body: '2', headers: { 'Content-Type': 'text/plain' } });
  assert.equal(ok.status, 200);
  assert.equal(ok.text, 'successfully set klog.logging.verbosity to 2\n');
  assert.equal(logger.verbosity, 2);
  const n = logLines.length;
  await srv.request('GET', '/api/v1/namespaces/default/configmaps/m1');
  assert.ok(!logLines.slice(n).some((l) => HTTPLOG.test(l)), 'no request lines below -v=3');

  assert.equal((await srv.request('GET', '/debug/flags/v')).status, 406);
  assert.equal((await srv.request('PUT', '/debug/flags/v', { body: '3', headers: { 'Content-Type': 'text/plain' } })).status, 200);
  await srv.request('GET', '/api/v1/namespaces/default/configmaps/m1');
  assert.ok(logLines.some((l) => HTTPLOG.exec(l)?.[2] === '/api/v1/namespaces/default/configmaps/m1'));
});
