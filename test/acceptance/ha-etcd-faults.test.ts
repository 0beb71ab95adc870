/**
 * etcd member faults under load (issue 15, item 4): two Keelson processes on a 3-member etcd cluster behind
 * the TCP load balancer, 32 concurrent writers creating ConfigMaps through the balancer. Killing one etcd
 * member that is not the leader, then the leader: every acknowledged (201) write is present afterwards,
 * writes continue, and after the leader dies new writes through every replica succeed again within 3 s.
 * Skips (printing why) when no etcd binary is installed.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHaCluster, type HaCluster } from '../support/ha-cluster.ts';
import { etcdLeaderIndex, haRequest, keepAliveAgent, moveEtcdLeader } from '../support/ha-client.ts';

let cluster: HaCluster | undefined;
let skip: string | false = false;

before(async () => {
  cluster = await startHaCluster({ replicas: 2, extraArgs: ['--authorization-mode=AlwaysAllow'] });
  if (!cluster) {
    skip = 'no etcd binary (install etcd-server or set KEELSON_ETCD_BIN)';
    process.stderr.write(`skipping HA etcd fault tests: ${skip}\n`);
  }
});
after(async () => {
  await cluster?.stop();
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const base = '/api/v1/namespaces/default/configmaps';

/** 32 writers through the load balancer; each records the names whose create was acknowledged. */
function startWriters(c: HaCluster, tag: string, n = 32): { acked: Set<string>; ackTimes: number[]; failures: string[]; slowestMs: () => number; stop: () => Promise<void> } {
  let slowest = 0;
  const acked = new Set<string>();
  const ackTimes: number[] = [];
  const failures: string[] = [];
  const agent = keepAliveAgent(n);
  let running = true;
  const loops = Array.from({ length: n }, async (_, w) => {
    for (let j = 0; running; j++) {
      const name = `${tag}-${w}-${j}`;
      const r = await haRequest(c.creds, 'POST', base, { agent, timeoutMs: 10_000, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { w: String(w), j: String(j) } } });
      slowest = Math.max(slowest, r.ms);
      if (r.status === 201) {
        acked.add(name);
        ackTimes.push(Date.now());
      } else {
        // Not acknowledged: allowed while a member dies (5xx, reset, timeout); never a 4xx other than 429.
        failures.push(`${r.status} ${r.error ?? r.text.slice(0, 200)}`);
        assert.ok(r.status === 0 || r.status === 429 || r.status >= 500, `unexpected answer ${r.status}: ${r.text}`);
        await sleep(50);
      }
    }
  });
  return {
    acked, ackTimes, failures, slowestMs: () => Math.round(slowest),
    stop: async () => {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

/** Every acknowledged name is in a quorum LIST (through the balancer). */
async function assertAllPresent(c: HaCluster, acked: Set<string>): Promise<void> {
  const r = await haRequest(c.creds, 'GET', base, { timeoutMs: 30_000 });
  assert.equal(r.status, 200, r.text.slice(0, 300));
  const names = new Set((JSON.parse(r.text) as { items: { metadata: { name: string } }[] }).items.map((o) => o.metadata.name));
  const lost = [...acked].filter((n) => !names.has(n));
  assert.deepEqual(lost, [], `${lost.length} acknowledged writes lost`);
}

/** Time from `since` until a create sent straight to replica i succeeds (1 s per attempt, for up to 15 s). */
async function writeResumesMs(c: HaCluster, i: number, since: number): Promise<number> {
  for (let k = 0; Date.now() - since < 15_000; k++) {
    const r = await haRequest(c.replicaCreds(i), 'POST', base, { timeoutMs: 1000, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `probe-${i}-${since}-${k}` } } });
    if (r.status === 201) return Date.now() - since;
    await sleep(50);
  }
  return Infinity;
}

void test('killing an etcd follower under 32 writers loses no acknowledged write and writes continue', async (t) => {
  if (skip) return t.skip(skip);
  const c = cluster!;
  const w = startWriters(c, 'follower');
  try {
    await sleep(2000);
    const leader = await etcdLeaderIndex(c.etcd.endpoints);
    const victim = c.etcd.members[(leader + 1) % c.etcd.members.length]!;
    await victim.kill();
    const killedAt = Date.now();
    await sleep(3000);
    const after = w.ackTimes.filter((x) => x > killedAt + 500).length;
    assert.ok(after > 0, `no write acknowledged in the 2.5 s after the follower died (failures: ${w.failures.slice(-3).join(' | ')})`);
    const r0 = Date.now();
    await victim.restart();
    console.log(`# follower restarted in ${Date.now() - r0} ms`);
    await sleep(500);
  } finally {
    const t0 = Date.now();
    await w.stop();
    console.log(`# writers stopped in ${Date.now() - t0} ms`);
  }
  assert.ok(w.acked.size > 0);
  const l0 = Date.now();
  await assertAllPresent(c, w.acked);
  console.log(`# checked in ${Date.now() - l0} ms`);
  console.log(`# follower kill: ${w.acked.size} writes acknowledged, ${w.failures.length} failed, slowest writer request ${w.slowestMs()} ms`);
});

void test('killing the etcd leader (first in the endpoint list): writes through every replica resume within 3 s, none acknowledged is lost', async (t) => {
  if (skip) return t.skip(skip);
  const c = cluster!;
  // The slow case of the issue: the leader is the first member the replicas were given.
  await moveEtcdLeader(c.etcd.endpoints, 0);
  const w = startWriters(c, 'leader');
  try {
    await sleep(2000);
    const leader = await etcdLeaderIndex(c.etcd.endpoints);
    await c.etcd.members[leader]!.kill();
    const killedAt = Date.now();
    const resumed = await Promise.all(c.replicas.map((_, i) => writeResumesMs(c, i, killedAt)));
    console.log(`# leader ${leader} killed: writes resumed after ${resumed.map((x) => `${x} ms`).join(', ')} (replicas 0..${resumed.length - 1})`);
    for (const [i, ms] of resumed.entries()) assert.ok(ms <= 3000, `writes through replica ${i} resumed only after ${ms} ms`);
    // The 32 writers keep going too. Those whose request was in flight at the kill may wait out etcd's own
    // request timeout (a proposal forwarded to the dead leader is lost), so allow them more than the probes.
    const deadline = Date.now() + 12_000;
    while (!w.ackTimes.some((x) => x > killedAt + 1000) && Date.now() < deadline) await sleep(100);
    const firstAck = w.ackTimes.find((x) => x > killedAt + 1000);
    console.log(`# the 32 writers: first acknowledged write more than 1 s after the kill came ${firstAck === undefined ? 'never' : `${firstAck - killedAt} ms`} after it`);
    assert.ok(firstAck !== undefined, 'the 32 writers made no progress after the leader died');
    await c.etcd.members[leader]!.restart();
  } finally {
    await w.stop();
  }
  await assertAllPresent(c, w.acked);
  console.log(`# leader kill: ${w.acked.size} writes acknowledged, ${w.failures.length} failed, slowest writer request ${w.slowestMs()} ms`);
});
