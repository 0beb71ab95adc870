/**
 * Controller failover time: `keelson` processes on one etcd with 4s/3s/1s leader election flags; the lease
 * holder is SIGKILLed and the time until another replica holds the lease is taken (polled every 20 ms through
 * the survivor). Each round starts a fresh follower, so every kill is of a leader with one follower watching.
 * Baseline in the same run: two in-process electors with the same timing on a memory-store registry, the
 * holder's writes made to fail at once (a crash as the lease sees it): the wait client-go's rules impose
 * (lease duration after the last observed renewal, plus the retry jitter) with no process, network or etcd.
 *   node --import tsx bench/leader-failover.ts   (part of `npm run bench`; skips without an etcd binary)
 */
import os from 'node:os';
import { startEtcd } from '../test/support/etcd.ts';
import { replicaSet, waitForNewHolder, type Replica } from '../test/acceptance/ha-replicas.ts';
import { builtinCatalog } from '../src/registry/resources/groups/index.ts';
import { createRegistry } from '../src/registry/registry.ts';
import { MemoryStore } from '../src/storage/memory/memory-store.ts';
import { systemContext } from '../src/registry/system-context.ts';
import type { RestStorage } from '../src/registry/rest.ts';
import { LeaderElector } from '../src/client/leader-election.ts';

const ROUNDS = process.env.BENCH_QUICK === '1' ? 1 : 3;
const TIMING = { leaseDurationMs: 4_000, renewDeadlineMs: 3_000, retryPeriodMs: 1_000 };
const FLAGS = ['--leader-elect-lease-duration=4s', '--leader-elect-renew-deadline=3s', '--leader-elect-retry-period=1s'];

const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One in-process takeover: ms from the holder's crash to the other elector leading. */
async function inProcessTakeover(leases: RestStorage, name: string): Promise<number> {
  let crashed = false;
  const dying: RestStorage = Object.create(leases) as RestStorage;
  dying.get = (...a) => crashed ? new Promise(() => {}) : leases.get(...a);
  dying.update = (...a) => crashed ? new Promise(() => {}) : leases.update(...a);
  dying.create = (...a) => crashed ? new Promise(() => {}) : leases.create(...a);
  let tookOver = 0;
  const quiet = { onStartedLeading: () => {}, onStoppedLeading: () => {} };
  const a = new LeaderElector({ leases: dying, namespace: 'kube-system', name, identity: 'a', ...TIMING, callbacks: quiet });
  const b = new LeaderElector({ leases, namespace: 'kube-system', name, identity: 'b', ...TIMING, callbacks: { ...quiet, onStartedLeading: () => { tookOver = performance.now(); } } });
  await a.start();
  await b.start();
  await sleep(2_500); // the follower has been watching the renewals for a while, as in the process rounds
  crashed = true;
  const t0 = performance.now();
  while (!tookOver) await sleep(5);
  const ms = tookOver - t0;
  void a.stop(); // its calls hang forever, as a dead process's would; only b is stopped properly
  await b.stop();
  return ms;
}

async function baseline(): Promise<number[]> {
  const store = new MemoryStore();
  const registry = await createRegistry({ catalog: builtinCatalog(), store });
  await registry.lookup('', 'v1', 'namespaces')!.create(systemContext(), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } }, {});
  const leases = registry.lookup('coordination.k8s.io', 'v1', 'leases')!;
  const out: number[] = [];
  for (let i = 0; i < ROUNDS; i++) out.push(await inProcessTakeover(leases, `bench-${i}`));
  await registry.stop();
  await store.close();
  return out;
}

async function processes(endpoint: string): Promise<number[]> {
  const set = replicaSet({ etcdEndpoint: endpoint, extraArgs: FLAGS });
  const out: number[] = [];
  try {
    let leader: Replica = await set.start('r0');
    for (let i = 1; i <= ROUNDS; i++) {
      const follower = await set.start(`r${i}`);
      await sleep(2_500);
      const former = leader.identity();
      if (!former) throw new Error(`${leader.name} does not hold the lease`);
      const t0 = performance.now();
      await leader.process.stop('SIGKILL');
      await waitForNewHolder(follower.creds, former, 30_000);
      out.push(performance.now() - t0);
      leader = follower;
    }
  } finally {
    await set.close();
  }
  return out;
}

async function main(): Promise<void> {
  const etcd = await startEtcd();
  if (!etcd) {
    console.log('leader-failover: skipped (no etcd binary)');
    return;
  }
  try {
    const base = await baseline();
    const measured = await processes(etcd.endpoint);
    const b = median(base);
    const m = median(measured);
    console.log(`leader-failover (lease 4s, renew 3s, retry 1s; ${ROUNDS} rounds; load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')})`);
    console.log(`  keelson processes on etcd, SIGKILL → new holder: median ${Math.round(m)} ms  [${measured.map(Math.round).join(', ')}]`);
    console.log(`  baseline, in-process electors on a memory store: median ${Math.round(b)} ms  [${base.map(Math.round).join(', ')}]`);
    console.log(`  ratio ${(m / b).toFixed(2)}×`);
  } finally {
    await etcd.stop();
  }
}

await main();
