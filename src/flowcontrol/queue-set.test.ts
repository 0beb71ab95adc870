import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QueueSet, type Admission, type WorkEstimate } from './queue-set.ts';
import { hashFlow } from './shuffle-sharding.ts';

const one: WorkEstimate = { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };
const seats = (n: number): WorkEstimate => ({ initialSeats: n, finalSeats: 0, additionalLatencyMs: 0 });
const FAR = () => performance.now() + 60_000;
const tick = () => new Promise((r) => setImmediate(r));

function executing(a: Admission | Promise<Admission>): Admission & { execute: true } {
  assert.ok(!(a instanceof Promise), 'expected an immediate admission');
  assert.equal(a.execute, true);
  return a as Admission & { execute: true };
}

void test('seats: requests run up to the limit, the rest wait and are dispatched as seats free', async () => {
  const qs = new QueueSet('pl', { queues: 8, handSize: 2, queueLengthLimit: 10 });
  qs.setConcurrencyLimit(2);
  const a = await qs.start(one, 1n, FAR());
  const b = await qs.start(one, 2n, FAR());
  assert.ok(a.execute && b.execute);
  const c = qs.start(one, 3n, FAR());
  assert.ok(c instanceof Promise);
  assert.deepEqual([qs.stats().requestsExecuting, qs.stats().requestsWaiting, qs.stats().seatsInUse], [2, 1, 2]);
  let settled = false;
  void c.then(() => (settled = true));
  await tick();
  assert.equal(settled, false);
  a.finish();
  const got = await c;
  assert.equal(got.execute, true);
  assert.deepEqual([qs.stats().requestsExecuting, qs.stats().requestsWaiting, qs.stats().seatsInUse], [2, 0, 2]);
  b.finish();
  if (got.execute) got.finish();
  got.execute && got.finish(); // finishing twice is harmless
  assert.equal(qs.isIdle(), true);
  assert.equal(qs.stats().seatsInUse, 0);
});

void test('a wide request holds several seats; one wider than the limit runs alone', async () => {
  const qs = new QueueSet('pl', { queues: 4, handSize: 2, queueLengthLimit: 10 });
  qs.setConcurrencyLimit(4);
  const wide = executing(qs.start(seats(3), 1n, FAR()));
  const narrow = executing(qs.start(one, 2n, FAR()));
  assert.equal(qs.stats().seatsInUse, 4);
  const next = qs.start(one, 3n, FAR());
  assert.ok(next instanceof Promise);
  wide.finish();
  assert.equal((await next).execute, true);
  const qs2 = new QueueSet('pl', { queues: 0, handSize: 0, queueLengthLimit: 0 });
  qs2.setConcurrencyLimit(2);
  const huge = executing(qs2.start(seats(5), 0n, FAR()));
  assert.equal(qs2.stats().seatsInUse, 5);
  const refused = qs2.start(one, 0n, FAR());
  assert.deepEqual(refused, { execute: false, reason: 'concurrency-limit' });
  huge.finish();
  narrow.finish();
});

void test('Reject levels refuse above the limit at once; exempt never waits', () => {
  const reject = new QueueSet('catch-all', { queues: 0, handSize: 0, queueLengthLimit: 0 });
  reject.setConcurrencyLimit(1);
  const a = executing(reject.start(one, 0n, FAR()));
  assert.deepEqual(reject.start(one, 0n, FAR()), { execute: false, reason: 'concurrency-limit' });
  assert.equal(reject.stats().rejected['concurrency-limit'], 1);
  a.finish();
  executing(reject.start(one, 0n, FAR())).finish();

  const exempt = new QueueSet('exempt', { queues: -1, handSize: 0, queueLengthLimit: 0 });
  exempt.setConcurrencyLimit(0);
  const many = Array.from({ length: 1000 }, () => executing(exempt.start(seats(10), 0n, FAR())));
  assert.equal(exempt.stats().requestsExecuting, 1000);
  for (const m of many) m.finish();
  assert.equal(exempt.isIdle(), true);
});

void test('a full queue refuses once every seat is taken (queue-full)', async () => {
  const qs = new QueueSet('pl', { queues: 1, handSize: 1, queueLengthLimit: 2 });
  qs.setConcurrencyLimit(1);
  const running = executing(qs.start(one, 0n, FAR()));
  const w1 = qs.start(one, 0n, FAR());
  const w2 = qs.start(one, 0n, FAR());
  assert.deepEqual(qs.start(one, 0n, FAR()), { execute: false, reason: 'queue-full' });
  assert.equal(qs.stats().rejected['queue-full'], 1);
  running.finish();
  const a1 = await w1;
  assert.ok(a1.execute);
  a1.finish();
  const a2 = await w2;
  assert.ok(a2.execute);
  a2.finish();
});

void test('a request waiting past its deadline is refused (time-out); an aborted one is withdrawn', async () => {
  const qs = new QueueSet('pl', { queues: 4, handSize: 2, queueLengthLimit: 10 });
  qs.setConcurrencyLimit(1);
  const running = executing(qs.start(one, 0n, FAR()));
  const timedOut = qs.start(one, 1n, performance.now() + 20);
  const ac = new AbortController();
  const aborted = qs.start(one, 2n, FAR(), ac.signal);
  ac.abort();
  assert.deepEqual(await aborted, { execute: false, reason: 'cancelled' });
  assert.deepEqual(await timedOut, { execute: false, reason: 'time-out' });
  assert.equal(qs.stats().requestsWaiting, 0);
  assert.deepEqual([qs.stats().rejected['time-out'], qs.stats().rejected.cancelled], [1, 1]);
  running.finish();
  assert.equal(qs.isIdle(), true);
});

void test('fair queuing: a flood from one flow does not starve another flow that arrives with it', async () => {
  // A clock that stands still while the requests arrive: they all arrive at the same virtual time.
  let now = 0;
  const qs = new QueueSet('pl', { queues: 64, handSize: 6, queueLengthLimit: 1000 }, () => now);
  qs.setConcurrencyLimit(1);
  const blocker = executing(qs.start(one, 0n, FAR()));
  const flood = hashFlow('global-default', 'flooder');
  const quiet = hashFlow('global-default', 'quiet');
  const order: string[] = [];
  const track = (who: string, p: Admission | Promise<Admission>) => Promise.resolve(p).then((a) => {
    order.push(who);
    now += 1;
    if (a.execute) setImmediate(a.finish);
  });
  const all = Array.from({ length: 100 }, () => track('flood', qs.start(one, flood, 1e9)));
  all.push(track('quiet', qs.start(one, quiet, 1e9)));
  blocker.finish();
  await Promise.all(all);
  const at = order.indexOf('quiet');
  assert.ok(at >= 0 && at < 5, `quiet flow served at position ${at} of ${order.length}`);
});

void test('final seats linger after the response for the notification work', async () => {
  const qs = new QueueSet('pl', { queues: 0, handSize: 0, queueLengthLimit: 0 });
  qs.setConcurrencyLimit(5);
  const w = executing(qs.start({ initialSeats: 1, finalSeats: 3, additionalLatencyMs: 30 }, 0n, FAR()));
  assert.equal(qs.stats().seatsInUse, 3);
  w.finish();
  assert.equal(qs.stats().requestsExecuting, 0);
  assert.equal(qs.stats().seatsInUse, 3, 'held while watchers are notified');
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(qs.stats().seatsInUse, 0);
});

void test('demand statistics report the peak and the time-weighted average', async () => {
  let now = 0;
  const qs = new QueueSet('pl', { queues: 0, handSize: 0, queueLengthLimit: 0 }, () => now);
  qs.setConcurrencyLimit(10);
  qs.takeDemandStats();
  const a = executing(qs.start(seats(4), 0n, 1e9));
  now = 500;
  a.finish();
  now = 1000;
  const d = qs.takeDemandStats();
  assert.equal(d.highWatermark, 4);
  assert.ok(Math.abs(d.avg - 2) < 1e-9, `avg ${d.avg}`);
  assert.ok(Math.abs(d.stdDev - 2) < 1e-9, `stdDev ${d.stdDev}`);
});
