/**
 * Service cluster IP and node port allocation (kube's service REST): IPs from --service-cluster-ip-range with
 * IPAddress objects, node ports from --service-node-port-range, conflicts as 422, release on delete and type
 * change, dry runs take nothing, allocations survive a restart of a sqlite-backed server.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.ts';

let srv: TestServer;
before(async () => { srv = await startTestServer({ serviceClusterIPRange: '10.96.0.0/24', serviceNodePortRange: '30000-30099' }); });
after(async () => { await srv?.stop(); });

const SVC = '/api/v1/namespaces/default/services';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };

function svc(name: string, spec: Record<string, unknown> = {}): unknown {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }], selector: { app: name }, ...spec } };
}

function inRange(ip: string): boolean {
  const m = /^10\.96\.0\.(\d+)$/.exec(ip);
  return !!m && Number(m[1]) > 1 && Number(m[1]) < 255;
}

void test('the kubernetes Service holds 10.96.0.1 as an IPAddress', async () => {
  const r = await srv.request('GET', '/apis/networking.k8s.io/v1/ipaddresses/10.96.0.1');
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json().spec.parentRef, { resource: 'services', namespace: 'default', name: 'kubernetes' });
});

void test('concurrent creates get distinct cluster IPs in range with kube defaults', async () => {
  const names = Array.from({ length: 30 }, (_, i) => `many-${i}`);
  const rs = await Promise.all(names.map((n) => srv.request('POST', SVC, { body: svc(n) })));
  const ips = new Set<string>();
  for (const r of rs) {
    assert.equal(r.status, 201, r.text);
    const spec = r.json().spec;
    assert.ok(inRange(spec.clusterIP), spec.clusterIP);
    assert.deepEqual(spec.clusterIPs, [spec.clusterIP]);
    assert.deepEqual(spec.ipFamilies, ['IPv4']);
    assert.equal(spec.ipFamilyPolicy, 'SingleStack');
    assert.equal(spec.ports[0].nodePort, undefined);
    ips.add(spec.clusterIP);
  }
  assert.equal(ips.size, names.length);
  await Promise.all(names.map((n) => srv.request('DELETE', `${SVC}/${n}`)));
});

void test('a requested IP must be free and in range; delete releases it', async () => {
  assert.equal((await srv.request('POST', SVC, { body: svc('fixed-a', { clusterIP: '10.96.0.12' }) })).status, 201);
  const dup = await srv.request('POST', SVC, { body: svc('fixed-b', { clusterIP: '10.96.0.12' }) });
  assert.equal(dup.status, 422);
  assert.equal(dup.json().message, 'Service "fixed-b" is invalid: spec.clusterIPs: Invalid value: ["10.96.0.12"]: failed to allocate IP 10.96.0.12: provided IP is already allocated');
  const out = await srv.request('POST', SVC, { body: svc('fixed-c', { clusterIP: '10.97.0.5' }) });
  assert.equal(out.status, 422);
  assert.match(out.json().message, /the provided IP \(10\.97\.0\.5\) is not in the valid range\. The range of valid IPs is 10\.96\.0\.0\/24/);
  assert.equal((await srv.request('DELETE', `${SVC}/fixed-a`)).status, 200);
  assert.equal((await srv.request('GET', '/apis/networking.k8s.io/v1/ipaddresses/10.96.0.12')).status, 404);
  const again = await srv.request('POST', SVC, { body: svc('fixed-b', { clusterIP: '10.96.0.12' }) });
  assert.equal(again.status, 201, again.text);
  await srv.request('DELETE', `${SVC}/fixed-b`);
});

void test('clusterIP may not change; leaving it out keeps it; headless and ExternalName allocate nothing', async () => {
  const created = (await srv.request('POST', SVC, { body: svc('keep') })).json();
  const put = await srv.request('PUT', `${SVC}/keep`, { body: { ...created, spec: { ...created.spec, clusterIP: '10.96.0.13', clusterIPs: ['10.96.0.13'] } } });
  assert.equal(put.status, 422);
  assert.match(put.json().message, /spec\.clusterIPs\[0\]: Invalid value: "10\.96\.0\.13": may not change once set/);
  const { clusterIP: _a, clusterIPs: _b, ...rest } = created.spec;
  const kept = await srv.request('PUT', `${SVC}/keep`, { body: { ...created, spec: rest } });
  assert.equal(kept.status, 200, kept.text);
  assert.equal(kept.json().spec.clusterIP, created.spec.clusterIP);
  const headless = (await srv.request('POST', SVC, { body: svc('headless', { clusterIP: 'None' }) })).json();
  assert.deepEqual(headless.spec.clusterIPs, ['None']);
  assert.equal(headless.spec.ipFamilyPolicy, 'SingleStack');
  const ext = await srv.request('POST', SVC, { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ext' }, spec: { type: 'ExternalName', externalName: 'example.com' } } });
  assert.equal(ext.status, 201, ext.text);
  assert.equal(ext.json().spec.clusterIP, undefined);
  for (const n of ['keep', 'headless', 'ext']) await srv.request('DELETE', `${SVC}/${n}`);
});

void test('node ports: allocated, conflicts refused, released on type change and delete', async () => {
  const a = await srv.request('POST', SVC, { body: svc('np-a', { type: 'NodePort', ports: [{ port: 80, nodePort: 30050 }] }) });
  assert.equal(a.status, 201, a.text);
  const dup = await srv.request('POST', SVC, { body: svc('np-b', { type: 'NodePort', ports: [{ port: 80, nodePort: 30050 }] }) });
  assert.equal(dup.status, 422);
  assert.equal(dup.json().message, 'Service "np-b" is invalid: spec.ports[0].nodePort: Invalid value: 30050: provided port is already allocated');
  const out = await srv.request('POST', SVC, { body: svc('np-c', { type: 'NodePort', ports: [{ port: 80, nodePort: 31000 }] }) });
  assert.equal(out.status, 422);
  assert.match(out.json().message, /provided port is not in the valid range\. The range of valid ports is 30000-30099/);
  const auto = (await srv.request('POST', SVC, { body: svc('np-d', { type: 'LoadBalancer' }) })).json();
  const port = auto.spec.ports[0].nodePort;
  assert.ok(port >= 30000 && port <= 30099 && port !== 30050, String(port));
  // Back to ClusterIP: the node port is dropped and free again.
  const back = await srv.request('PATCH', `${SVC}/np-d`, { headers: MERGE, body: { spec: { type: 'ClusterIP' } } });
  assert.equal(back.status, 200, back.text);
  assert.equal(back.json().spec.ports[0].nodePort, undefined);
  const reuse = await srv.request('POST', SVC, { body: svc('np-e', { type: 'NodePort', ports: [{ port: 80, nodePort: port }] }) });
  assert.equal(reuse.status, 201, reuse.text);
  await srv.request('DELETE', `${SVC}/np-a`);
  const b = await srv.request('POST', SVC, { body: svc('np-b', { type: 'NodePort', ports: [{ port: 80, nodePort: 30050 }] }) });
  assert.equal(b.status, 201, b.text);
  for (const n of ['np-b', 'np-d', 'np-e']) await srv.request('DELETE', `${SVC}/${n}`);
});

void test('a dry-run create shows an address but takes nothing', async () => {
  const r = await srv.request('POST', `${SVC}?dryRun=All`, { body: svc('dry', { clusterIP: '10.96.0.14', type: 'NodePort', ports: [{ port: 80, nodePort: 30060 }] }) });
  assert.equal(r.status, 201, r.text);
  assert.equal((await srv.request('GET', '/apis/networking.k8s.io/v1/ipaddresses/10.96.0.14')).status, 404);
  const real = await srv.request('POST', SVC, { body: svc('dry', { clusterIP: '10.96.0.14', type: 'NodePort', ports: [{ port: 80, nodePort: 30060 }] }) });
  assert.equal(real.status, 201, real.text);
  const dry2 = await srv.request('POST', `${SVC}?dryRun=All`, { body: svc('dry2', { clusterIP: '10.96.0.14' }) });
  assert.equal(dry2.status, 422);
  await srv.request('DELETE', `${SVC}/dry`);
});

void test('a restarted sqlite server keeps its allocations', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'keelson-svc-'));
  const opts = { storage: 'sqlite' as const, dataDir, serviceClusterIPRange: '10.96.0.0/24', serviceNodePortRange: '30000-30099' };
  let s = await startTestServer(opts);
  let ip: string;
  try {
    const r = await s.request('POST', SVC, { body: svc('persist', { type: 'NodePort', ports: [{ port: 80, nodePort: 30070 }] }) });
    assert.equal(r.status, 201, r.text);
    ip = r.json().spec.clusterIP;
  } finally {
    await s.stop();
  }
  s = await startTestServer(opts);
  try {
    const ipDup = await s.request('POST', SVC, { body: svc('other', { clusterIP: ip }) });
    assert.equal(ipDup.status, 422, ipDup.text);
    const portDup = await s.request('POST', SVC, { body: svc('other', { type: 'NodePort', ports: [{ port: 80, nodePort: 30070 }] }) });
    assert.equal(portDup.status, 422, portDup.text);
  } finally {
    await s.stop();
  }
});

void test('generateName services own their IPAddress; bad addresses get validation errors; server-side apply keeps the IP', async () => {
  const r = await srv.request('POST', SVC, { body: { apiVersion: 'v1', kind: 'Service', metadata: { generateName: 'gen-' }, spec: { ports: [{ port: 80 }] } } });
  assert.equal(r.status, 201, r.text);
  const { name } = r.json().metadata;
  const ip = await srv.request('GET', `/apis/networking.k8s.io/v1/ipaddresses/${r.json().spec.clusterIP}`);
  assert.equal(ip.json().spec.parentRef.name, name);
  await srv.request('DELETE', `${SVC}/${name}`);

  const bad = await srv.request('POST', SVC, { body: svc('bad-ip', { clusterIP: '10.0.0.300' }) });
  assert.equal(bad.status, 422);
  assert.match(bad.json().message, /must be a valid IP address/);

  const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };
  const body = JSON.stringify(svc('applied'));
  const first = await srv.request('PATCH', `${SVC}/applied?fieldManager=t`, { headers: APPLY, body });
  assert.equal(first.status, 201, first.text);
  const again = await srv.request('PATCH', `${SVC}/applied?fieldManager=t`, { headers: APPLY, body });
  assert.equal(again.status, 200, again.text);
  assert.equal(again.json().spec.clusterIP, first.json().spec.clusterIP);
  // Repeated no-op applies (remembered, answered from the watch cache) still go through the allocation
  // wrapper: nothing is written, nothing allocated or released.
  for (let i = 0; i < 3; i++) {
    const noop = await srv.request('PATCH', `${SVC}/applied?fieldManager=t`, { headers: APPLY, body });
    assert.equal(noop.status, 200, noop.text);
    assert.equal(noop.json().spec.clusterIP, first.json().spec.clusterIP);
    assert.equal(noop.json().metadata.resourceVersion, again.json().metadata.resourceVersion);
  }
  assert.equal((await srv.request('GET', `/apis/networking.k8s.io/v1/ipaddresses/${first.json().spec.clusterIP}`)).status, 200);
  await srv.request('DELETE', `${SVC}/applied`);
  assert.equal((await srv.request('GET', `/apis/networking.k8s.io/v1/ipaddresses/${first.json().spec.clusterIP}`)).status, 404);
});

void test('a Service deleted through its last finalizer gives its IP and ports back', async () => {
  const r = await srv.request('POST', SVC, { body: { ...(svc('fin', { type: 'NodePort', ports: [{ port: 80, nodePort: 30090 }] }) as object), metadata: { name: 'fin', finalizers: ['example.com/hold'] } } });
  assert.equal(r.status, 201, r.text);
  const ip = r.json().spec.clusterIP;
  assert.equal((await srv.request('DELETE', `${SVC}/fin`)).status, 200);
  assert.equal((await srv.request('GET', `/apis/networking.k8s.io/v1/ipaddresses/${ip}`)).status, 200);
  const fin = await srv.request('PATCH', `${SVC}/fin`, { headers: MERGE, body: { metadata: { finalizers: null } } });
  assert.equal(fin.status, 200, fin.text);
  assert.equal((await srv.request('GET', `${SVC}/fin`)).status, 404);
  assert.equal((await srv.request('GET', `/apis/networking.k8s.io/v1/ipaddresses/${ip}`)).status, 404);
  const reuse = await srv.request('POST', SVC, { body: svc('fin2', { type: 'NodePort', ports: [{ port: 80, nodePort: 30090 }] }) });
  assert.equal(reuse.status, 201, reuse.text);
  await srv.request('DELETE', `${SVC}/fin2`);
});

void test('the default ServiceCIDR names the configured range', async () => {
  const r = await srv.request('GET', '/apis/networking.k8s.io/v1/servicecidrs/kubernetes');
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json().spec.cidrs, ['10.96.0.0/24']);
});

void test('turning a Service into ExternalName frees its IP and node ports; a dry-run update takes nothing', async () => {
  const r = await srv.request('POST', SVC, { body: svc('to-ext', { type: 'NodePort', ports: [{ port: 80, nodePort: 30095 }] }) });
  assert.equal(r.status, 201, r.text);
  const ip = r.json().spec.clusterIP;
  const dry = await srv.request('PATCH', `${SVC}/to-ext?dryRun=All`, { headers: MERGE, body: { spec: { ports: [{ port: 80, nodePort: 30096 }] } } });
  assert.equal(dry.status, 200, dry.text);
  assert.equal(dry.json().spec.ports[0].nodePort, 30096);
  const other = await srv.request('POST', SVC, { body: svc('np-96', { type: 'NodePort', ports: [{ port: 80, nodePort: 30096 }] }) });
  assert.equal(other.status, 201, other.text);
  const ext = await srv.request('PATCH', `${SVC}/to-ext`, { headers: MERGE, body: { spec: { type: 'ExternalName', externalName: 'example.com', clusterIP: '', clusterIPs: null } } });
  assert.equal(ext.status, 200, ext.text);
  assert.equal(ext.json().spec.clusterIP, undefined);
  assert.equal(ext.json().spec.ports[0].nodePort, undefined);
  assert.equal((await srv.request('GET', `/apis/networking.k8s.io/v1/ipaddresses/${ip}`)).status, 404);
  const reuse = await srv.request('POST', SVC, { body: svc('np-95', { type: 'NodePort', ports: [{ port: 80, nodePort: 30095 }] }) });
  assert.equal(reuse.status, 201, reuse.text);
  for (const n of ['to-ext', 'np-95', 'np-96']) await srv.request('DELETE', `${SVC}/${n}`);
});

void test('with another --service-cluster-ip-range the kubernetes Service takes that range\'s first address', async () => {
  const other = await startTestServer({ serviceClusterIPRange: '10.0.0.0/24' });
  try {
    const r = await other.request('GET', '/api/v1/namespaces/default/services/kubernetes');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json().spec.clusterIP, '10.0.0.1');
    const ip = await other.request('GET', '/apis/networking.k8s.io/v1/ipaddresses/10.0.0.1');
    assert.equal(ip.status, 200, ip.text);
  } finally {
    await other.stop();
  }
});
