/**
 * Faults around the replicas (issue 15, item 4), two Keelson processes on a 3-member etcd behind the TCP load
 * balancer: etcd unreachable (every member stopped) — /readyz fails on every replica, writes fail with a 5xx
 * within the request timeout (never hang) and succeed again once etcd is back; then one replica stopped
 * gracefully (SIGTERM) — its watches end cleanly (whole events, then the end of the chunked stream) and a
 * client re-watching through the balancer from its last resourceVersion misses no event.
 * Skips (printing why) when no etcd binary is installed.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHaCluster, type HaCluster } from '../support/ha-cluster.ts';
import { haRequest, haWatch } from '../support/ha-client.ts';

let cluster: HaCluster | undefined;
let skip: string | false = false;
const REQUEST_TIMEOUT_S = 5;

before(async () => {
  cluster = await startHaCluster({ replicas: 2, extraArgs: ['--authorization-mode=AlwaysAllow', `--request-timeout=${REQUEST_TIMEOUT_S}s`] });
  if (!cluster) {
    skip = 'no etcd binary (install etcd-server or set KEELSON_ETCD_BIN)';
    process.stderr.write(`skipping HA replica fault tests: ${skip}\n`);
  }
});
after(async () => {
  await cluster?.stop();
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const base = '/api/v1/namespaces/default/configmaps';
const cm = (name: string): unknown => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { n: name } });

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

void test('etcd unreachable: /readyz fails on every replica, writes fail fast with 5xx, and recover', async (t) => {
  if (skip) return t.skip(skip);
  const c = cluster!;
  await Promise.all(c.etcd.members.map((m) => m.kill()));
  try {
    await until('/readyz to fail on every replica', async () => {
      const rs = await Promise.all(c.replicas.map((_, i) => haRequest(c.replicaCreds(i), 'GET', '/readyz', { timeoutMs: 5000 })));
      return rs.every((r) => r.status === 500 || r.status === 503);
    }, 10_000);
    for (let i = 0; i < c.replicas.length; i++) {
      // Never longer than the request timeout (plus scheduling slack on a loaded machine).
      const r = await haRequest(c.replicaCreds(i), 'POST', base, { body: cm(`down-${i}`), timeoutMs: (REQUEST_TIMEOUT_S + 10) * 1000 });
      assert.ok(r.status >= 500 && r.status < 600, `replica ${i}: write with etcd down answered ${r.status} ${r.error ?? r.text.slice(0, 200)}`);
      assert.ok(r.ms <= (REQUEST_TIMEOUT_S + 3) * 1000, `replica ${i}: the failing write took ${Math.round(r.ms)} ms`);
      assert.equal(JSON.parse(r.text).kind, 'Status');
    }
  } finally {
    await Promise.all(c.etcd.members.map((m) => m.restart()));
  }
  await until('/readyz on every replica', async () => {
    const rs = await Promise.all(c.replicas.map((_, i) => haRequest(c.replicaCreds(i), 'GET', '/readyz', { timeoutMs: 3000 })));
    return rs.every((r) => r.status === 200);
  }, 20_000);
  for (let i = 0; i < c.replicas.length; i++) {
    let r = await haRequest(c.replicaCreds(i), 'POST', base, { body: cm(`back-${i}`) });
    // The first write may race a replica's reconnect to the restarted members: one more try.
    if (r.status !== 201) r = await haRequest(c.replicaCreds(i), 'POST', base, { body: cm(`back-${i}`) });
    assert.equal(r.status, 201, `replica ${i} after etcd came back: ${r.status} ${r.text.slice(0, 200)}`);
  }
});

void test('SIGTERM of a replica ends its watches cleanly; re-watching through the balancer misses nothing', async (t) => {
  if (skip) return t.skip(skip);
  const c = cluster!;
  const list = await haRequest(c.replicaCreds(1), 'GET', base);
  assert.equal(list.status, 200);
  const startRv = JSON.parse(list.text).metadata.resourceVersion as string;
  // Two watches straight on the replica that will stop.
  const watches = [0, 1].map(() => haWatch(c.replicaCreds(1), `${base}?watch=1&resourceVersion=${startRv}&allowWatchBookmarks=false`));
  for (const w of watches) assert.equal(await w.status, 200);

  const written: string[] = [];
  let writing = true;
  const writer = (async () => {
    for (let i = 0; writing && i < 200; i++) {
      const r = await haRequest(c.replicaCreds(0), 'POST', base, { body: cm(`term-${i}`) });
      assert.equal(r.status, 201, r.text);
      written.push(`term-${i}`);
      await sleep(20);
    }
  })();
  await until('events on the watches', async () => watches.every((w) => w.events.length >= 3), 10_000);
  const code = await c.stopReplica(1, 'SIGTERM');
  assert.equal(code, 0, 'the replica exits 0 on SIGTERM');
  for (const w of watches) {
    const d = await w.done;
    assert.ok(d.clean, `watch ended uncleanly: ${d.error ?? ''} partial=${JSON.stringify(d.partial.slice(0, 80))}`);
  }

  // Resume through the balancer (only replica 0 is left) from the last resourceVersion each watch saw.
  await sleep(300);
  writing = false;
  await writer;
  for (const w of watches) {
    const seen = w.events.filter((e) => e.object.metadata.name.startsWith('term-')).map((e) => e.object.metadata.name);
    const lastRv = w.events.at(-1)!.object.metadata.resourceVersion;
    const again = haWatch(c.creds, `${base}?watch=1&resourceVersion=${lastRv}`);
    assert.equal(await again.status, 200);
    const names = (): string[] => [...seen, ...again.events.filter((e) => e.object.metadata.name.startsWith('term-')).map((e) => e.object.metadata.name)];
    try {
      await until('the resumed watch to catch up', async () => names().length >= written.length, 15_000);
    } finally {
      again.close();
    }
    assert.deepEqual(names(), written, 'events before the stop plus events after the resume are exactly the writes, in order');
  }
});
