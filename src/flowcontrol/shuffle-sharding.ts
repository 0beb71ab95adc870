/**
 * Shuffle sharding as kube deals it (k8s.io/apiserver pkg/util/shufflesharding): a flow's 64-bit hash picks
 * `handSize` distinct queues out of `deckSize` by repeated division (mixed radix), so two flows rarely share a
 * whole hand. The flow hash is kube's: the first 8 bytes (little-endian) of SHA-256(schema name, 0, distinguisher).
 */
import { createHash } from 'node:crypto';

/** kube refuses hands needing more hash bits than this. */
export const MAX_HASH_BITS = 60;

export function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(Math.log2(deckSize) * handSize);
}

/** The queue indices (distinct, in dealing order) for this hash. */
export function dealHand(hash: bigint, deckSize: number, handSize: number): number[] {
  const remainders: number[] = [];
  let h = hash;
  for (let i = 0; i < handSize; i++) {
    const d = BigInt(deckSize - i);
    const next = h / d;
    remainders.push(Number(h - d * next));
    h = next;
  }
  const hand: number[] = [];
  for (let i = 0; i < handSize; i++) {
    let card = remainders[i]!;
    for (let j = i; j > 0; j--) if (card >= remainders[j - 1]!) card++;
    hand.push(card);
  }
  return hand;
}

export function hashFlow(schemaName: string, distinguisher: string): bigint {
  const sum = createHash('sha256').update(schemaName).update(Buffer.of(0)).update(distinguisher).digest();
  return sum.readBigUInt64LE(0);
}
