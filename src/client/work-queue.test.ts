import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkQueue } from './work-queue.ts';

void test('a key queued twice runs once; a key added while running runs again after', async () => {
  const runs: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const q = new WorkQueue({
    name: 't',
    process: async (k) => {
      runs.push(k);
      if (runs.length === 1) await gate;
    },
  });
  q.add('a');
  q.add('a'); // running: marks dirty
  q.add('b');
  q.add('b'); // queued: ignored
  release();
  await q.whenIdle();
  assert.equal(runs[0], 'a');
  assert.equal(runs.filter((r) => r === 'a').length, 2);
  assert.equal(runs.filter((r) => r === 'b').length, 1);
  await q.stop();
});

void test('failures are retried with backoff until they succeed; stop cancels pending retries', async () => {
  let n = 0;
  const logs: string[] = [];
  const q = new WorkQueue({
    name: 't', baseDelayMs: 1, maxDelayMs: 4, log: (m) => logs.push(m),
    process: async () => {
      n++;
      if (n < 4) throw new Error(`boom ${n}`);
    },
  });
  q.add('k');
  for (let i = 0; i < 1000 && n < 4; i++) await new Promise((r) => setTimeout(r, 2));
  assert.equal(n, 4);
  assert.equal(logs.length, 3);
  assert.match(logs[0]!, /syncing "k" failed \(retry in 1 ms\): boom 1/);
  assert.match(logs[2]!, /retry in 4 ms/);

  const q2 = new WorkQueue({ name: 't2', baseDelayMs: 10_000, process: async () => { throw new Error('x'); } });
  q2.add('k');
  await q2.whenIdle();
  await q2.stop(); // must not hang on the 10 s retry timer
  await q.stop();
});

void test('a key never runs concurrently with itself even with concurrency > 1', async () => {
  let active = 0;
  let maxActive = 0;
  const q = new WorkQueue({
    name: 't', concurrency: 4,
    process: async () => {
      active++;
      maxActive = Math.max(maxActive, active);
      await new Promise((r) => setImmediate(r));
      active--;
    },
  });
  for (let i = 0; i < 10; i++) q.add('same');
  await q.whenIdle();
  await q.whenIdle();
  assert.equal(maxActive, 1);
  await q.stop();
});
