/**
 * Three Keelson servers started at the same moment on one etcd (an HA control plane coming up): the bootstrap
 * every replica runs (system namespaces, system PriorityClasses, the `kubernetes` Service, the RBAC default
 * policy, the APF configuration) succeeds on all three without an error and leaves one copy of each object;
 * exactly one of them holds the controller lease, and when it stops gracefully it releases the lease so
 * another takes over at once. Skips (printing why) when no etcd binary is installed.
 */
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEtcd, type EtcdProcess } from '../support/etcd.ts';
import { sharedCertDir, startTestServer, type TestServer } from '../support/server.ts';

let etcd: EtcdProcess | undefined;
let servers: TestServer[] = [];
const stopped = new Set<number>();
const logs: string[][] = [[], [], []];
let skip: string | false = false;
let certDir: string | undefined;
let startErrors: string[] = [];

const LEASE = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager';

before(async () => {
  etcd = await startEtcd();
  if (!etcd) {
    skip = 'no etcd binary';
    process.stderr.write('skipping HA bootstrap test: no etcd binary\n');
    return;
  }
  certDir = await sharedCertDir();
  const opts = (i: number) => ({
    certDir,
    storage: 'etcd' as const, etcdServers: [etcd!.endpoint], etcdPrefix: `/keelson-ha-${process.pid}`,
    leaderElection: { identity: `replica-${i}`, leaseDurationMs: 4_000, renewDeadlineMs: 3_000, retryPeriodMs: 500 },
    log: (line: string) => { logs[i]!.push(line); },
  });
  const t0 = performance.now();
  const results = await Promise.allSettled([0, 1, 2].map((i) => startTestServer(opts(i))));
  process.stderr.write(`three replicas started in ${Math.round(performance.now() - t0)} ms\n`);
  servers = results.flatMap((r) => r.status === 'fulfilled' ? [r.value] : []);
  startErrors = results.flatMap((r) => r.status === 'rejected' ? [String((r.reason as Error)?.stack ?? r.reason)] : []);
});

after(async () => {
  for (const [i, s] of servers.entries()) if (!stopped.has(i)) await s.stop();
  await etcd?.stop();
  if (certDir) rmSync(certDir, { recursive: true, force: true });
});

async function names(s: TestServer, path: string): Promise<string[]> {
  const r = await s.request('GET', path);
  assert.equal(r.status, 200, r.text);
  return (r.json().items as { metadata: { name: string } }[]).map((o) => o.metadata.name);
}

/** Errors a replica logged; a bootstrap pass retried after a concurrent create is expected, not an error. */
const errorLines = (i: number): string[] => logs[i]!.filter((l) => /error|could not|failed/i.test(l) && !/appeared while being created; retrying$/.test(l));

void test('three replicas bootstrap at once without an error, leaving one copy of each object', async (t) => {
  if (skip) return t.skip(skip);
  assert.deepEqual(startErrors, []);
  assert.equal(servers.length, 3);
  for (const i of [0, 1, 2]) assert.deepEqual(errorLines(i), [], `replica ${i} logged errors`);
  const [a, b, c] = servers as [TestServer, TestServer, TestServer];
  const ns = await names(a, '/api/v1/namespaces');
  for (const n of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) assert.equal(ns.filter((x) => x === n).length, 1, n);
  const pcs = await names(b, '/apis/scheduling.k8s.io/v1/priorityclasses');
  assert.deepEqual(pcs.filter((x) => x.startsWith('system-')).sort(), ['system-cluster-critical', 'system-node-critical']);
  const svc = await c.request('GET', '/api/v1/namespaces/default/services/kubernetes');
  assert.equal(svc.status, 200, svc.text);
  assert.equal(svc.json().spec.clusterIP, '10.96.0.1');
  // Every replica sees the same objects (one uid each), not copies it made for itself.
  const uids = await Promise.all(servers.map(async (s) => (await s.request('GET', '/api/v1/namespaces/kube-system')).json().metadata.uid as string));
  assert.equal(new Set(uids).size, 1);
  const roles = await names(a, '/apis/rbac.authorization.k8s.io/v1/clusterroles');
  assert.equal(new Set(roles).size, roles.length);
  for (const r of ['cluster-admin', 'admin', 'edit', 'view', 'system:discovery']) assert.ok(roles.includes(r), r);
  const flows = await names(b, '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas');
  for (const f of ['exempt', 'catch-all', 'system-leader-election']) assert.ok(flows.includes(f), f);
  const levels = await names(c, '/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations');
  for (const l of ['exempt', 'catch-all', 'workload-low']) assert.ok(levels.includes(l), l);
});

void test('exactly one replica holds the controller lease; a graceful stop hands it over at once', async (t) => {
  if (skip) return t.skip(skip);
  const lease = await servers[0]!.request('GET', LEASE);
  assert.equal(lease.status, 200, lease.text);
  const spec = lease.json().spec;
  assert.match(spec.holderIdentity, /^replica-[012]$/);
  assert.equal(spec.leaseDurationSeconds, 4);
  const leader = Number(spec.holderIdentity.slice('replica-'.length));
  const acquired = logs.map((l) => l.filter((x) => x.includes('successfully acquired lease')).length);
  assert.deepEqual(acquired.map((n, i) => (i === leader ? n === 1 : n === 0)), [true, true, true], JSON.stringify(acquired));
  // The leader's controllers work: a new namespace gets its default ServiceAccount.
  const other = servers[(leader + 1) % 3]!;
  assert.equal((await other.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ha-one' } } })).status, 201);
  await until('default ServiceAccount', async () => (await other.request('GET', '/api/v1/namespaces/ha-one/serviceaccounts/default')).status === 200, 10_000);

  const t0 = performance.now();
  await servers[leader]!.stop();
  stopped.add(leader);
  // Released, not left to expire: another replica holds it well within one lease duration (4 s).
  let holder = '';
  await until('a new holder', async () => {
    const r = await other.request('GET', LEASE);
    holder = r.json().spec.holderIdentity as string;
    return holder !== '' && holder !== `replica-${leader}`;
  }, 10_000);
  const handover = performance.now() - t0;
  assert.ok(handover < 4_000, `handover took ${Math.round(handover)} ms`);
  const after = (await other.request('GET', LEASE)).json().spec;
  assert.equal(after.leaseTransitions, spec.leaseTransitions + 1);
  // The new leader's controllers run.
  assert.equal((await other.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ha-two' } } })).status, 201);
  await until('default ServiceAccount after the handover', async () => (await other.request('GET', '/api/v1/namespaces/ha-two/serviceaccounts/default')).status === 200, 10_000);
});

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
