import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { dealHand, hashFlow, requiredEntropyBits } from './shuffle-sharding.ts';

void test('a hand is handSize distinct queues of the deck, the same for the same hash', () => {
  for (let i = 0; i < 2000; i++) {
    const h = hashFlow('global-default', `user-${i}`);
    const hand = dealHand(h, 128, 6);
    assert.equal(hand.length, 6);
    assert.equal(new Set(hand).size, 6, `duplicate card in ${hand.join(',')}`);
    for (const c of hand) assert.ok(c >= 0 && c < 128);
    assert.deepEqual(dealHand(h, 128, 6), hand);
  }
});

void test('dealing is mixed-radix division of the hash (kube\'s dealer)', () => {
  // 7 = 0·8 + 7 → first card 7; then 0 in a deck of 7 → card 0 (below 7, unchanged).
  assert.deepEqual(dealHand(7n, 8, 2), [7, 0]);
  // 8 = 1·8 + 0 → card 0; then index 1 of the remaining deck [1..7] → card 2.
  assert.deepEqual(dealHand(8n, 8, 2), [0, 2]);
  assert.equal(requiredEntropyBits(128, 6), 42);
});

void test('the flow hash is the first 8 bytes, little-endian, of SHA-256(schema, 0, distinguisher)', () => {
  const digest = createHash('sha256').update('catch-all\u0000alice').digest();
  assert.equal(hashFlow('catch-all', 'alice'), digest.readBigUInt64LE(0));
  assert.notEqual(hashFlow('catch-all', 'alice'), hashFlow('catch-all', 'bob'));
});
