/**
 * Several API server replicas on one etcd (issue 15, item 2 and "Bad input"): identity Leases, the `kubernetes`
 * Endpoints/EndpointSlice listing exactly the live replicas (graceful stop, SIGKILL + TTL), garbage collection of
 * expired identity leases, refusal of a replica with other keys/CAs, the warning about another --etcd-prefix, and
 * a start with one dead etcd member in the list.
 *
 * Replicas bind 127.0.0.2, .3, … on one shared port (Endpoints carry one port for all, as kube assumes) and
 * advertise TEST-NET addresses 192.0.2.x (Endpoints refuse loopback). Skips (printing why) without an etcd binary.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { startEtcd, type EtcdProcess } from '../support/etcd.ts';
import { eventually, startTestServer, type TestServer, type TestServerOptions } from '../support/server.ts';
import { Etcd3 } from 'etcd3';
import { findKubectl, kubectl, kubectlMissingReason } from '../support/kubectl.ts';

let etcd: EtcdProcess | undefined;
let skip: string | undefined;
const dir = mkdtempSync(path.join(tmpdir(), 'keelson-replicas-'));
const certDir = path.join(dir, 'certs');
const prefix = `/keelson-replicas-${process.pid}`;
let port = 0;
const replicas: TestServer[] = [];
let a: TestServer;
let b: TestServer;

/** A port free on every 127.0.0.x the test binds. */
async function sharedPort(hosts: string[]): Promise<number> {
  const bind = (host: string, p: number): Promise<number> => new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(p, host, () => {
      const got = (s.address() as { port: number }).port;
      s.close(() => resolve(got));
    });
  });
  for (let attempt = 0; attempt < 10; attempt++) {
    const p = await bind(hosts[0]!, 0);
    try {
      for (const h of hosts.slice(1)) await bind(h, p);
      return p;
    } catch {
      // taken on another address: try another
    }
  }
  throw new Error('no port free on every test address');
}

const timing = { endpointReconcileIntervalMs: 200, endpointLeaseTtlSeconds: 2, identityRenewIntervalMs: 300, identityGcPeriodMs: 200 };

function replica(n: number, extra: Partial<TestServerOptions> = {}): Promise<TestServer> {
  return startTestServer({
    storage: 'etcd', etcdServers: [etcd!.endpoint], etcdPrefix: prefix, certDir, listen: { host: `127.0.0.${n}`, port },
    advertiseAddress: `192.0.2.${n}`, replicaTiming: timing, ...extra,
  });
}

before(async () => {
  etcd = await startEtcd();
  if (!etcd) {
    skip = 'no etcd binary';
    process.stderr.write('skipping API server replica tests: no etcd binary\n');
    return;
  }
  port = await sharedPort(['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5']);
  a = await replica(2);
  replicas.push(a);
  b = await replica(3);
  replicas.push(b);
});

after(async () => {
  for (const r of replicas) await r.stop();
  await etcd?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Ep { subsets?: Array<{ addresses?: Array<{ ip: string }>; ports?: Array<{ name: string; port: number; protocol: string }> }> }
interface Slice { addressType: string; endpoints: Array<{ addresses: string[]; conditions: { ready: boolean } }>; ports: Array<{ name: string; port: number; protocol: string }> }

async function endpointAddresses(srv: TestServer): Promise<{ endpoints: string[]; slice: string[]; ports: number[] }> {
  const ep = (await srv.request('GET', '/api/v1/namespaces/default/endpoints/kubernetes')).json() as Ep;
  const sl = (await srv.request('GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes')).json() as Slice;
  return {
    endpoints: (ep.subsets ?? []).flatMap((s) => (s.addresses ?? []).map((x) => x.ip)),
    slice: (sl.endpoints ?? []).flatMap((e) => e.addresses),
    ports: [...(ep.subsets ?? []).flatMap((s) => (s.ports ?? []).map((p) => p.port)), ...(sl.ports ?? []).map((p) => p.port)],
  };
}

/** Waits until both the Endpoints and the EndpointSlice list exactly `want` (in order) on the shared port. */
async function expectEndpoints(srv: TestServer, want: string[], timeoutMs = 10_000): Promise<void> {
  await eventually(`kubernetes endpoints = ${want.join(',')}`, async () => {
    const got = await endpointAddresses(srv);
    return JSON.stringify(got.endpoints) === JSON.stringify(want) && JSON.stringify(got.slice) === JSON.stringify(want) && got.ports.every((p) => p === port) && got.ports.length === 2;
  }, timeoutMs);
}

interface Lease { metadata: { name: string; labels: Record<string, string>; resourceVersion: string }; spec: { holderIdentity: string; leaseDurationSeconds: number; renewTime: string; acquireTime: string } }

async function identityLeases(srv: TestServer): Promise<Lease[]> {
  const r = await srv.request('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases?labelSelector=apiserver.kubernetes.io%2Fidentity%3Dkube-apiserver');
  assert.equal(r.status, 200, r.text);
  return (r.json() as { items: Lease[] }).items;
}

void test('each replica holds its own identity Lease in kube-system, renewed', async (t) => {
  if (skip) return t.skip(skip);
  const leases = await eventually('two identity leases', async () => {
    const items = await identityLeases(a);
    return items.length === 2 ? items : undefined;
  });
  const names = leases.map((l) => l.metadata.name);
  assert.notEqual(names[0], names[1]);
  for (const l of leases) {
    assert.match(l.metadata.name, /^apiserver-[a-z2-7]{26}$/);
    assert.equal(l.metadata.labels['apiserver.kubernetes.io/identity'], 'kube-apiserver');
    assert.equal(l.metadata.labels['kubernetes.io/hostname'], hostname());
    assert.equal(l.spec.leaseDurationSeconds, 3600);
    assert.ok(l.spec.holderIdentity.startsWith(`${l.metadata.name}_`), l.spec.holderIdentity);
    assert.match(l.spec.renewTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  }
  const first = leases[0]!;
  await eventually('the lease is renewed', async () => {
    const again = (await identityLeases(b)).find((l) => l.metadata.name === first.metadata.name);
    return again && again.spec.renewTime > first.spec.renewTime && again.spec.holderIdentity === first.spec.holderIdentity;
  }, 5000);
});

void test('the kubernetes Endpoints and EndpointSlice list exactly the live replicas, sorted', async (t) => {
  if (skip) return t.skip(skip);
  await expectEndpoints(a, ['192.0.2.2', '192.0.2.3']);
  await expectEndpoints(b, ['192.0.2.2', '192.0.2.3']);
  const sl = (await a.request('GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes')).json() as Slice;
  assert.equal(sl.addressType, 'IPv4');
  assert.deepEqual(sl.ports, [{ name: 'https', port, protocol: 'TCP' }]);
  assert.ok(sl.endpoints.every((e) => e.conditions.ready === true));
});

void test('a replica that stops gracefully removes its address at once', async (t) => {
  if (skip) return t.skip(skip);
  const c = await replica(4);
  replicas.push(c);
  await expectEndpoints(a, ['192.0.2.2', '192.0.2.3', '192.0.2.4']);
  await c.stop();
  // The leaving replica rewrote the list itself (no TTL wait): well within one lease TTL.
  await expectEndpoints(a, ['192.0.2.2', '192.0.2.3'], 1500);
});

void test('a replica that died without a word drops out once its master lease expired', async (t) => {
  if (skip) return t.skip(skip);
  // What a SIGKILLed replica leaves behind: its master lease key, with the TTL its last renewal gave it (here 2 s;
  // kube's is 15 s). Written straight into etcd at kube's key, as that replica's server would have.
  const client = new Etcd3({ hosts: etcd!.endpoint });
  try {
    const lease = client.lease(2, { autoKeepAlive: false });
    const body = { kind: 'Endpoints', apiVersion: 'v1', metadata: { name: '192.0.2.9', creationTimestamp: null }, subsets: [{ addresses: [{ ip: '192.0.2.9' }] }] };
    await lease.put(`${prefix}/masterleases/192.0.2.9`).value(JSON.stringify(body));
    await expectEndpoints(a, ['192.0.2.2', '192.0.2.3', '192.0.2.9']);
    await expectEndpoints(a, ['192.0.2.2', '192.0.2.3'], 10_000);
    await expectEndpoints(b, ['192.0.2.2', '192.0.2.3']);
  } finally {
    client.close();
  }
});

void test('expired identity leases are garbage-collected; live ones and other leases are kept', async (t) => {
  if (skip) return t.skip(skip);
  const long = new Date(Date.now() - 2 * 3600_000).toISOString().replace('Z', '000Z').replace(/\.(\d{3})000Z$/, '.$1000Z');
  const mk = (name: string, labels: Record<string, string>, renewTime: string) => a.request('POST', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases', {
    body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, labels }, spec: { holderIdentity: `${name}_x`, leaseDurationSeconds: 3600, renewTime } },
  });
  const now = new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
  assert.equal((await mk('apiserver-expired', { 'apiserver.kubernetes.io/identity': 'kube-apiserver' }, long)).status, 201);
  assert.equal((await mk('apiserver-fresh', { 'apiserver.kubernetes.io/identity': 'kube-apiserver' }, now)).status, 201);
  assert.equal((await mk('not-an-identity', {}, long)).status, 201);
  await eventually('the expired identity lease is deleted', async () => (await a.request('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/apiserver-expired')).status === 404, 5000);
  for (const name of ['apiserver-fresh', 'not-an-identity']) {
    assert.equal((await a.request('GET', `/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/${name}`)).status, 200, name);
  }
});

void test('a replica with other service-account keys and CA is refused at start, naming the mismatch', async (t) => {
  if (skip) return t.skip(skip);
  // Its own data dir: a fresh CA and service-account key, as a replica set up by mistake would have.
  await assert.rejects(
    replica(5, { certDir: path.join(dir, 'other-certs') }),
    (err: Error) => {
      assert.match(err.message, /^refusing to start: the API server at 192\.0\.2\.[23] \(host [^)]+\) uses the same storage with different trust material/);
      assert.match(err.message, /service account signing key differs: this server signs tokens with sha256:[0-9a-f]{16}/);
      assert.match(err.message, /client CA differs/);
      return true;
    },
  );
  // Nothing of it was left behind: the list is unchanged.
  await expectEndpoints(a, ['192.0.2.2', '192.0.2.3']);
});

void test('a replica on another --etcd-prefix starts with a warning naming the live prefix', async (t) => {
  if (skip) return t.skip(skip);
  const lines: string[] = [];
  const other = await startTestServer({ storage: 'etcd', etcdServers: [etcd!.endpoint], etcdPrefix: `${prefix}-other`, log: (l) => lines.push(l) });
  try {
    const warning = lines.find((l) => l.includes('different --etcd-prefix'));
    assert.ok(warning, lines.join('\n'));
    assert.ok(warning.includes(`"${prefix}" (2 live)`), warning);
    assert.ok(warning.includes(`this server uses "${prefix}-other"`), warning);
  } finally {
    await other.stop();
  }
});

void test('an etcd endpoint list with one dead member still starts and serves', async (t) => {
  if (skip) return t.skip(skip);
  const dead = await sharedPort(['127.0.0.1']);
  const srv = await startTestServer({ storage: 'etcd', etcdServers: [`http://127.0.0.1:${dead}`, etcd!.endpoint], etcdPrefix: `${prefix}-dead-member` });
  try {
    assert.equal((await srv.request('GET', '/readyz')).status, 200);
    const r = await srv.request('POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } } });
    assert.equal(r.status, 201, r.text);
  } finally {
    await srv.stop();
  }
});

void test('kubectl 1.33 sees the endpoints and the identity leases', async (t) => {
  if (skip) return t.skip(skip);
  if (!findKubectl()) return t.skip(kubectlMissingReason());
  const ep = await kubectl(['get', 'endpoints', 'kubernetes'], { kubeconfig: a.kubeconfigPath });
  assert.equal(ep.code, 0, ep.stderr);
  assert.match(ep.stdout, /^NAME\s+ENDPOINTS\s+AGE\n/);
  assert.match(ep.stdout, new RegExp(`^kubernetes\\s+192\\.0\\.2\\.2:${port},192\\.0\\.2\\.3:${port}\\s`, 'm'));
  const leases = await kubectl(['get', 'leases', '-n', 'kube-system', '-l', 'apiserver.kubernetes.io/identity=kube-apiserver', '-o', 'name'], { kubeconfig: a.kubeconfigPath });
  assert.equal(leases.code, 0, leases.stderr);
  const names = leases.stdout.trim().split('\n');
  assert.ok(names.length >= 2 && names.every((n) => /^lease\.coordination\.k8s\.io\/apiserver-[a-z2-7]+$/.test(n)), leases.stdout);
});
