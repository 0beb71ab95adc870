/**
 * Keelson replicas on one 3-member etcd cluster (issue 15 figures):
 *   - writes/s: ConfigMap creates (HTTPS/1.1, admin client certificate, a Node client with CONCURRENCY keep-alive
 *     connections through the TCP load balancer) through 1, 2 and 3 replicas;
 *   - baseline in the same run: raw etcd3-client puts (same value size, same concurrency) on the same cluster;
 *   - cross-replica visibility lag: a create acknowledged by replica 0 → its ADDED event on a watch held on
 *     replica 1 (p50/p99 of LAG_WRITES sequential writes).
 *   node --import tsx bench/ha.ts   (part of `npm run bench`; skips with a reason when no etcd binary exists)
 */
import os from 'node:os';
import { createEtcdClient } from '../src/storage/etcd/client.ts';
import { startTcpLoadBalancer } from '../src/cli/tcp-load-balancer.ts';
import { startHaCluster } from '../test/support/ha-cluster.ts';
import { haRequest, haWatch, keepAliveAgent } from '../test/support/ha-client.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const WRITES = QUICK ? 300 : 1500;
const CONCURRENCY = 64;
const LAG_WRITES = QUICK ? 50 : 200;

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

/** Runs `total` calls of `one(i)` with `CONCURRENCY` in flight; returns calls per second. */
async function throughput(total: number, one: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < total) await one(next++);
  }));
  return total / ((performance.now() - t0) / 1000);
}

const cluster = await startHaCluster({ replicas: 3, extraArgs: ['--authorization-mode=AlwaysAllow'] });
if (!cluster) {
  console.log('ha: SKIP (no etcd binary; install etcd-server or set KEELSON_ETCD_BIN)');
  process.exit(0);
}
try {
  console.log(`ha: load average at start ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const value = Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x'.repeat(20), namespace: 'default' }, data: { k: 'v' } }));
  const etcd = await createEtcdClient({ servers: cluster.etcd.endpoints });
  const raw = await throughput(WRITES, async (i) => {
    await etcd.put(`/bench-raw/${i}`).value(value);
  });
  etcd.close();
  console.log(`ha: raw etcd put ${raw.toFixed(0)}/s (${WRITES} puts, ${CONCURRENCY} in flight)`);

  let round = 0;
  for (const n of [1, 2, 3]) {
    const lb = await startTcpLoadBalancer({ backends: cluster.replicas.slice(0, n).map((r) => ({ host: '127.0.0.1', port: r!.port })) });
    const creds = { ...cluster.creds, server: `https://127.0.0.1:${lb.port}` };
    const agent = keepAliveAgent(CONCURRENCY);
    const tag = `w${++round}`;
    let failed = 0;
    const rate = await throughput(WRITES, async (i) => {
      const r = await haRequest(creds, 'POST', '/api/v1/namespaces/default/configmaps', { agent, timeoutMs: 30_000, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${tag}-${i}` }, data: { k: 'v' } } });
      if (r.status !== 201) failed++;
    });
    agent.destroy();
    await lb.close();
    console.log(`ha: ${n} replica(s) ${rate.toFixed(0)} creates/s = ${(rate / raw).toFixed(3)}× raw etcd (${WRITES} creates, ${failed} failed)`);
  }

  const list = await haRequest(cluster.replicaCreds(1), 'GET', '/api/v1/namespaces/default/configmaps?limit=1');
  const rv = JSON.parse(list.text).metadata.resourceVersion as string;
  const w = haWatch(cluster.replicaCreds(1), `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}`);
  if ((await w.status) !== 200) throw new Error('watch on replica 1 failed');
  const seenAt = new Map<string, number>();
  w.onEvent((e) => seenAt.set(e.object.metadata.name, performance.now()));
  const lags: number[] = [];
  for (let i = 0; i < LAG_WRITES; i++) {
    const name = `lag-${i}`;
    const r = await haRequest(cluster.replicaCreds(0), 'POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } } });
    if (r.status !== 201) throw new Error(`create on replica 0: ${r.status}`);
    const acked = performance.now();
    const deadline = acked + 10_000;
    while (!seenAt.has(name) && performance.now() < deadline) await new Promise((res) => setTimeout(res, 1));
    // The event can arrive before the answer does: that counts as no lag.
    lags.push(Math.max(0, (seenAt.get(name) ?? Infinity) - acked));
  }
  w.close();
  console.log(`ha: visibility lag (ack on replica 0 → event on replica 1's watch) p50 ${pct(lags, 50).toFixed(1)} ms, p99 ${pct(lags, 99).toFixed(1)} ms, max ${Math.max(...lags).toFixed(1)} ms (${LAG_WRITES} writes; 1 ms polling)`);
  console.log(`ha: load average at end ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
} finally {
  await cluster.stop();
}
