import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Etcd3 } from 'etcd3';
import { LeaseManager } from './leases.ts';

/** A fake client whose grants are numbered and recorded. */
function fakeClient() {
  const grants: number[] = [];
  const client = {
    leaseClient: {
      leaseGrant: async (req: { TTL: number }) => {
        grants.push(req.TTL);
        return { ID: String(grants.length) };
      },
    },
  } as unknown as Etcd3;
  return { client, grants };
}

void it('reuses a lease while it outlives the TTL, and grants TTL plus a 5% (≤ 60 s) reuse window', async () => {
  const { client, grants } = fakeClient();
  let now = 1_000_000;
  const m = new LeaseManager(client, () => now);
  assert.equal(await m.leaseFor(3600), '1');
  assert.deepEqual(grants, [3600 + 60]);
  now += 59_000;
  assert.equal(await m.leaseFor(3600), '1', 'still lives ≥ 1 h from now');
  now += 2_000;
  assert.equal(await m.leaseFor(3600), '2', 'would expire before the TTL: a new lease');
  assert.equal(await m.leaseFor(100), '3');
  assert.deepEqual(grants, [3660, 3660, 105]);
});

void it('concurrent writers with the same TTL share one grant; fractional TTLs round up', async () => {
  const { client, grants } = fakeClient();
  const m = new LeaseManager(client, () => 0);
  const ids = await Promise.all([m.leaseFor(10), m.leaseFor(10), m.leaseFor(9.2)]);
  assert.deepEqual(ids, ['1', '1', '1']);
  assert.deepEqual(grants, [11]);
});
