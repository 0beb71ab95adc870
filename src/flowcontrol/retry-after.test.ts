import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DroppedRequestsTracker } from './retry-after.ts';

void test('Retry-After starts at 1 s, doubles under sustained drops (max 32) and decays when they stop', () => {
  let now = 0;
  const t = new DroppedRequestsTracker(() => now);
  assert.equal(t.retryAfter('pl'), 1);
  const second = (s: number, drops: number): void => {
    now = s * 1000;
    for (let i = 0; i < drops; i++) t.record('pl');
  };
  second(1, 10);
  second(2, 10); // 10 drops in the last second ≥ 3 × 1 → 2
  assert.equal(t.retryAfter('pl'), 2);
  let s = 3;
  for (; s < 40; s++) second(s, 200);
  assert.equal(t.retryAfter('pl'), 32);
  assert.equal(t.retryAfter('other'), 1, 'per priority level');
  // Quiet: one drop now and then steps it down.
  for (let k = 0; k < 40; k++) second(s + 40 + k * 40, 1);
  assert.equal(t.retryAfter('pl'), 1);
});
