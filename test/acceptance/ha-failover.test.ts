/**
 * Acceptance: two `keelson` processes on one etcd with short leader election flags (4s/3s/1s). The first holds
 * the controller lease (`kubectl get lease -n kube-system` shows it); while its namespace controller is
 * deleting a namespace (one object held back by a finalizer), it is SIGKILLed. The other replica takes the
 * lease once it has seen it unrenewed for the lease duration, and its namespace controller finishes the
 * deletion once the finalizer goes. Skips (printing why) without etcd or kubectl.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEtcd, type EtcdProcess } from '../support/etcd.ts';
import { findKubectl, kubectlFor, kubectlMissingReason } from '../support/kubectl.ts';
import { httpsGet } from './keelson-process.ts';
import { leaseSpec, replicaSet, waitForNewHolder, type Replica, type ReplicaSet } from './ha-replicas.ts';

const LEASE_S = 4;
const RETRY_S = 1;
let skip: string | false = findKubectl() ? false : `no kubectl: ${kubectlMissingReason()}`;
let etcd: EtcdProcess | undefined;
let set: ReplicaSet | undefined;
let a: Replica;
let b: Replica;

before(async () => {
  if (skip) return;
  etcd = await startEtcd();
  if (!etcd) {
    skip = 'no etcd binary';
    return;
  }
  set = replicaSet({ etcdEndpoint: etcd.endpoint, extraArgs: [`--leader-elect-lease-duration=${LEASE_S}s`, '--leader-elect-renew-deadline=3s', `--leader-elect-retry-period=${RETRY_S}s`] });
  a = await set.start('a');
  b = await set.start('b');
});

after(async () => {
  await set?.close();
  await etcd?.stop();
});

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const { ok } = kubectlFor(() => b.kubeconfig);

void test('the leader is SIGKILLed mid namespace deletion: the other replica takes the lease and finishes it', { timeout: 60_000 }, async (t) => {
  if (skip) {
    process.stderr.write(`skipping HA failover acceptance: ${skip}\n`);
    return t.skip(skip);
  }
  const leader = a.identity();
  assert.ok(leader, `the first replica did not log an acquired lease:\n${a.process.output()}`);
  assert.equal(b.identity(), '');
  assert.equal((await leaseSpec(b.creds))?.holderIdentity, leader);
  assert.match(leader, /^[^_]+_[0-9a-f-]{36}$/, 'kube-controller-manager identity: <hostname>_<uuid>');
  const table = await ok(['get', 'lease', '-n', 'kube-system']);
  assert.match(table, /^NAME\s+HOLDER\s+AGE\n/);
  assert.match(table, new RegExp(`^kube-controller-manager\\s+${leader}\\s`, 'm'));

  const items = [
    ...Array.from({ length: 10 }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'doomed' }, data: { i: String(i) } })),
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', namespace: 'doomed', finalizers: ['example.com/hold'] } },
  ];
  await ok(['create', 'namespace', 'doomed']);
  await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  await ok(['delete', 'namespace', 'doomed', '--wait=false']);
  // The leader's namespace controller is at work: everything but the held object is gone.
  await until('the deletion to reach the held object', async () => {
    const r = await httpsGet(b.creds, '/api/v1/namespaces/doomed/configmaps');
    const left = (JSON.parse(r.text).items as { metadata: { name: string; deletionTimestamp?: string } }[]);
    return left.filter((o) => o.metadata.name !== 'kube-root-ca.crt').every((o) => o.metadata.name === 'held' && o.metadata.deletionTimestamp);
  }, 20_000);

  const t0 = performance.now();
  await a.process.stop('SIGKILL');
  // client-go's bound: the lease duration after the follower last saw it renewed, plus one jittered retry.
  const bound = (LEASE_S + RETRY_S * 2.2) * 1000;
  const holder = await waitForNewHolder(b.creds, leader, bound + 10_000);
  const failoverMs = performance.now() - t0;
  process.stderr.write(`controller failover (SIGKILL → new holder): ${Math.round(failoverMs)} ms\n`);
  assert.ok(failoverMs < bound + 2_000, `failover took ${Math.round(failoverMs)} ms`);
  assert.equal(holder, b.identity());
  assert.equal((await leaseSpec(b.creds))?.leaseTransitions, 1);

  // Still terminating (nobody finished it while there was no leader), then finished by the new leader.
  assert.equal(JSON.parse((await httpsGet(b.creds, '/api/v1/namespaces/doomed')).text).status.phase, 'Terminating');
  await ok(['patch', 'configmap', 'held', '-n', 'doomed', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  await until('the namespace to be gone', async () => (await httpsGet(b.creds, '/api/v1/namespaces/doomed')).status === 404, 20_000);
});
