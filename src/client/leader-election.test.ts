/**
 * The leader elector against the real registry over a MemoryStore: several electors with their own clocks
 * campaign for one Lease, as replicas on one etcd do.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinCatalog } from '../registry/resources/groups/index.ts';
import { createRegistry, type Registry } from '../registry/registry.ts';
import { MemoryStore } from '../storage/memory/memory-store.ts';
import { systemContext } from '../registry/system-context.ts';
import type { RestStorage } from '../registry/rest.ts';
import { LeaderElector, leaderElectionTimingError, microTime, type LeaderElectorOptions } from './leader-election.ts';

let store: MemoryStore;
let registry: Registry;
let leases: RestStorage;

before(async () => {
  store = new MemoryStore();
  registry = await createRegistry({ catalog: builtinCatalog(), store });
  leases = registry.lookup('coordination.k8s.io', 'v1', 'leases')!;
  await registry.lookup('', 'v1', 'namespaces')!.create(systemContext(), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } }, {});
});

after(async () => {
  await registry?.stop();
  await store?.close();
});

let leaseCounter = 0;

/** A fake monotonic clock per elector, so expiry is tested without waiting. */
function clock() {
  let t = 1_000_000;
  return { mono: () => t, advance: (ms: number) => { t += ms; } };
}

function elector(name: string, identity: string, extra: Partial<LeaderElectorOptions> = {}) {
  const events: string[] = [];
  const c = clock();
  const e = new LeaderElector({
    leases, namespace: 'kube-system', name, identity, leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000,
    monotonic: c.mono,
    callbacks: {
      onStartedLeading: () => { events.push('started'); },
      onStoppedLeading: () => { events.push('stopped'); },
      onNewLeader: (id) => { events.push(`leader:${id}`); },
    },
    ...extra,
  });
  return { e, events, clock: c };
}

async function spec(name: string): Promise<Record<string, unknown>> {
  const o = (await leases.get(systemContext({ namespace: 'kube-system' }), name, {})).object;
  return o['spec'] as Record<string, unknown>;
}

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

void test('timing is checked as client-go does', () => {
  assert.equal(leaderElectionTimingError({ leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 }), undefined);
  assert.equal(leaderElectionTimingError({ leaseDurationMs: 10_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 }), 'leaseDuration must be greater than renewDeadline');
  assert.equal(leaderElectionTimingError({ leaseDurationMs: 15_000, renewDeadlineMs: 2_400, retryPeriodMs: 2_000 }), 'renewDeadline must be greater than retryPeriod*JitterFactor');
  assert.throws(() => elector('bad', 'x', { leaseDurationMs: 1_000 }), /leaseDuration must be greater than renewDeadline/);
});

void test('MicroTime has six fraction digits', () => {
  assert.equal(microTime(new Date('2026-01-02T03:04:05.678Z')), '2026-01-02T03:04:05.678000Z');
});

void test('the first candidate creates the lease; a second cannot take a valid lease', async () => {
  const name = `lease-${++leaseCounter}`;
  const a = elector(name, 'host-a_1');
  const b = elector(name, 'host-b_2');
  assert.equal(await a.e.tryAcquireOrRenew(), true);
  const s1 = await spec(name);
  assert.equal(s1['holderIdentity'], 'host-a_1');
  assert.equal(s1['leaseDurationSeconds'], 15);
  assert.equal(s1['leaseTransitions'], 0);
  assert.match(String(s1['acquireTime']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  assert.equal(s1['acquireTime'], s1['renewTime']);
  assert.equal(await b.e.tryAcquireOrRenew(), false);
  assert.equal(b.e.observedHolder(), 'host-a_1');
  // b's own clock has not seen the lease unchanged for a lease duration yet.
  b.clock.advance(14_000);
  assert.equal(await b.e.tryAcquireOrRenew(), false);
  assert.equal((await spec(name))['holderIdentity'], 'host-a_1');
});

void test('renewals move renewTime and keep acquireTime and transitions; each renewal restarts the others\' expiry', async () => {
  const name = `lease-${++leaseCounter}`;
  let wall = Date.parse('2026-01-01T00:00:00Z');
  const a = elector(name, 'a', { now: () => new Date(wall) });
  const b = elector(name, 'b');
  assert.equal(await a.e.tryAcquireOrRenew(), true);
  const first = await spec(name);
  assert.equal(await b.e.tryAcquireOrRenew(), false);
  wall += 2_000;
  assert.equal(await a.e.tryAcquireOrRenew(), true);
  const second = await spec(name);
  assert.equal(second['acquireTime'], first['acquireTime']);
  assert.notEqual(second['renewTime'], first['renewTime']);
  assert.equal(second['leaseTransitions'], 0);
  // b saw the first record 14 s ago on its clock, but the record changed since: still valid.
  b.clock.advance(14_000);
  assert.equal(await b.e.tryAcquireOrRenew(), false);
  b.clock.advance(14_000);
  assert.equal(await b.e.tryAcquireOrRenew(), false, 'observed change 14 s ago, lease 15 s');
});

void test('an expired lease is taken over and the transition counted', async () => {
  const name = `lease-${++leaseCounter}`;
  const a = elector(name, 'a');
  const b = elector(name, 'b');
  assert.equal(await a.e.tryAcquireOrRenew(), true);
  assert.equal(await b.e.tryAcquireOrRenew(), false);
  b.clock.advance(15_001);
  assert.equal(await b.e.tryAcquireOrRenew(), true);
  const s = await spec(name);
  assert.equal(s['holderIdentity'], 'b');
  assert.equal(s['leaseTransitions'], 1);
  assert.equal(s['acquireTime'], s['renewTime']);
  // The old holder sees a valid lease held by b and does not take it back.
  assert.equal(await a.e.tryAcquireOrRenew(), false);
  a.clock.advance(15_001);
  assert.equal(await a.e.tryAcquireOrRenew(), true);
  assert.equal((await spec(name))['leaseTransitions'], 2);
});

void test('two candidates racing for an expired lease: exactly one wins (the write is guarded by resourceVersion)', async () => {
  const name = `lease-${++leaseCounter}`;
  const a = elector(name, 'a');
  assert.equal(await a.e.tryAcquireOrRenew(), true);
  const b = elector(name, 'b');
  const c = elector(name, 'c');
  await b.e.tryAcquireOrRenew();
  await c.e.tryAcquireOrRenew();
  b.clock.advance(20_000);
  c.clock.advance(20_000);
  const results = await Promise.allSettled([b.e.tryAcquireOrRenew(), c.e.tryAcquireOrRenew()]);
  const won = results.filter((r) => r.status === 'fulfilled' && r.value === true).length;
  assert.equal(won, 1, JSON.stringify(results.map((r) => r.status === 'fulfilled' ? r.value : String(r.reason))));
  assert.equal((await spec(name))['leaseTransitions'], 1);
});

void test('an exclusive store (one process) takes a leftover lease at once', async () => {
  const name = `lease-${++leaseCounter}`;
  const old = elector(name, 'old-process');
  assert.equal(await old.e.tryAcquireOrRenew(), true);
  const fresh = elector(name, 'new-process', { exclusiveStore: true });
  assert.equal(await fresh.e.tryAcquireOrRenew(), true);
  assert.equal((await spec(name))['holderIdentity'], 'new-process');
});

void test('start acquires at once and starts the controllers; stop stops them and releases the lease', async () => {
  const name = `lease-${++leaseCounter}`;
  const a = elector(name, 'a', { monotonic: () => performance.now() });
  const t0 = performance.now();
  await a.e.start();
  assert.ok(performance.now() - t0 < 1_000, 'no retry period before the first attempt');
  assert.equal(a.e.isLeader(), true);
  assert.deepEqual(a.events, ['leader:a', 'started']);
  await a.e.stop();
  assert.equal(a.e.isLeader(), false);
  assert.deepEqual(a.events, ['leader:a', 'started', 'stopped']);
  const s = await spec(name);
  assert.equal(s['holderIdentity'], '');
  assert.equal(s['leaseDurationSeconds'], 1);
  assert.equal(s['leaseTransitions'], 0);
  // A released lease is free at once for the next candidate, with the transition counted.
  const b = elector(name, 'b');
  assert.equal(await b.e.tryAcquireOrRenew(), true);
  assert.equal((await spec(name))['leaseTransitions'], 1);
});

void test('a follower starts leading once the leader releases', async () => {
  const name = `lease-${++leaseCounter}`;
  const timing = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 100, monotonic: () => performance.now() };
  const a = elector(name, 'a', timing);
  const b = elector(name, 'b', timing);
  await a.e.start();
  await b.e.start();
  assert.equal(a.e.isLeader(), true);
  assert.equal(b.e.isLeader(), false);
  assert.deepEqual(b.events, ['leader:a']);
  await a.e.stop();
  await until('b leads', () => b.e.isLeader(), 3_000);
  assert.deepEqual(b.events, ['leader:a', 'leader:b', 'started']);
  await b.e.stop();
});

void test('a leader whose renewals fail past the renew deadline stops its controllers and campaigns again', async () => {
  const name = `lease-${++leaseCounter}`;
  let failing = false;
  // The leases storage with writes that fail while `failing` (an unreachable store).
  const flaky: RestStorage = Object.create(leases) as RestStorage;
  flaky.update = (...args) => failing ? Promise.reject(new Error('etcdserver: request timed out')) : leases.update(...args);
  flaky.get = (...args) => failing ? Promise.reject(new Error('etcdserver: request timed out')) : leases.get(...args);
  const a = elector(name, 'a', { leases: flaky, leaseDurationMs: 2_000, renewDeadlineMs: 1_000, retryPeriodMs: 100, monotonic: () => performance.now() });
  await a.e.start();
  assert.equal(a.e.isLeader(), true);
  failing = true;
  const t0 = performance.now();
  await until('leadership lost', () => !a.e.isLeader() && a.events.includes('stopped'), 5_000);
  const lostAfter = performance.now() - t0;
  assert.ok(lostAfter >= 800, `gave up after ${lostAfter} ms, before the renew deadline`);
  // The store comes back: it is still the holder in the record, so it renews at once and leads again.
  failing = false;
  await until('leading again', () => a.e.isLeader(), 5_000);
  assert.deepEqual(a.events.filter((e) => e === 'started' || e === 'stopped'), ['started', 'stopped', 'started']);
  await a.e.stop();
});

void test('controllers that fail to start release the lease for another candidate', async () => {
  const name = `lease-${++leaseCounter}`;
  let stopped = 0;
  const a = new LeaderElector({
    leases, namespace: 'kube-system', name, identity: 'a', leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 200,
    callbacks: { onStartedLeading: () => Promise.reject(new Error('no')), onStoppedLeading: () => { stopped++; } },
  });
  await a.start();
  await until('released after the failed start', async () => stopped === 1 && (await spec(name))['holderIdentity'] === '', 3_000);
  await a.stop();
});

void test('candidates starting together: one leads, the others follow without logging an error', async () => {
  const name = `lease-${++leaseCounter}`;
  const logs: string[] = [];
  const timing = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 100, monotonic: () => performance.now(), log: (l: string) => { logs.push(l); } };
  const all = ['a', 'b', 'c', 'd'].map((id) => elector(name, id, timing));
  await Promise.all(all.map((x) => x.e.start()));
  assert.equal(all.filter((x) => x.e.isLeader()).length, 1);
  assert.deepEqual(logs.filter((l) => /error/.test(l)), []);
  for (const x of all) await x.e.stop();
});
