/**
 * The storage families on the etcd backend: the same instrumented store wraps it, so etcd_request_duration_seconds,
 * apiserver_storage_objects and apiserver_storage_events_received_total carry kube's labels there too.
 * Skips (printing why) when no etcd binary is installed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEtcd, type EtcdProcess } from '../support/etcd.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { configMap } from './helpers.ts';

let etcd: EtcdProcess | undefined;
let srv: TestServer | undefined;

before(async () => {
  etcd = await startEtcd();
  if (!etcd) {
    process.stderr.write('skipping etcd metrics tests: no etcd binary\n');
    return;
  }
  srv = await startTestServer({ storage: 'etcd', etcdServers: [etcd.endpoint], etcdPrefix: `/keelson-metrics-${process.pid}` });
});
after(async () => {
  await srv?.stop();
  await etcd?.stop();
});

void test('etcd backend: storage request latencies, object counts and received events by resource', async (t) => {
  if (!srv) return t.skip('no etcd binary');
  for (let i = 0; i < 3; i++) assert.equal((await srv.request('POST', '/api/v1/namespaces/default/configmaps', { body: configMap(`em-${i}`) })).status, 201);
  const r = await srv.request('GET', '/metrics');
  assert.equal(r.status, 200);
  const value = (re: RegExp): number => Number(re.exec(r.text)?.[1] ?? NaN);
  assert.ok(value(/^etcd_request_duration_seconds_count\{operation="create",type="configmaps"\} (\S+)$/m) >= 3, 'creates timed');
  assert.ok(value(/^etcd_requests_total\{operation="create",type="configmaps"\} (\S+)$/m) >= 3);
  assert.ok(value(/^apiserver_storage_objects\{resource="configmaps"\} (\S+)$/m) >= 3, 'objects counted');
  assert.ok(value(/^apiserver_storage_events_received_total\{resource="configmaps"\} (\S+)$/m) >= 3, 'watch events received from etcd');
  assert.match(r.text, /^# HELP apiserver_storage_objects \[STABLE\] /m);
  // etcd's Status dbSize, under kube's single storage cluster id; the deprecated per-endpoint family is hidden.
  assert.ok(value(/^apiserver_storage_size_bytes\{storage_cluster_id="etcd-0"\} (\S+)$/m) > 0, 'etcd db size');
  assert.doesNotMatch(r.text, /apiserver_storage_db_total_size_in_bytes/);
  // The watch cache's fill is a LIST served from storage.
  assert.ok(value(/^apiserver_storage_list_total\{resource="configmaps"\} (\S+)$/m) >= 1, 'storage LISTs counted');
});

void test('etcd backend with --show-hidden-metrics-for-version=1.32: the deprecated per-endpoint size comes back', async (t) => {
  if (!srv || !etcd) return t.skip('no etcd binary');
  const shown = await startTestServer({ storage: 'etcd', etcdServers: [etcd.endpoint], etcdPrefix: `/keelson-metrics-shown-${process.pid}`, showHiddenMetricsForVersion: '1.32' });
  try {
    const r = await shown.request('GET', '/metrics');
    assert.equal(r.status, 200);
    assert.match(r.text, /^# HELP apiserver_storage_db_total_size_in_bytes \[ALPHA\] \(Deprecated since 1\.28\.0\) Total size of the storage database file physically allocated in bytes\.$/m);
    const m = /^apiserver_storage_db_total_size_in_bytes\{endpoint="([^"]+)"\} (\S+)$/m.exec(r.text);
    assert.ok(m, 'one series per endpoint');
    assert.equal(m[1], etcd.endpoint);
    assert.ok(Number(m[2]) > 0);
  } finally {
    await shown.stop();
  }
});
