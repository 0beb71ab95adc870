import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from '../../storage/memory/memory-store.ts';
import { parsePortRange } from './cidr.ts';
import { AllocationError } from './errors.ts';
import { PortAllocator } from './port-allocator.ts';

test('concurrent allocations never share a port and fill the range exactly', async () => {
  const store = new MemoryStore();
  const a = new PortAllocator({ store, range: parsePortRange('30000-30049') });
  const b = new PortAllocator({ store, range: parsePortRange('30000-30049') }); // a second API server
  const got = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).allocateNext()));
  assert.equal(new Set(got).size, 50);
  assert.ok(got.every((p) => p >= 30000 && p <= 30049));
  await assert.rejects(a.allocateNext(), (e: unknown) => e instanceof AllocationError && e.message === 'range is full');
  await store.close();
});

test('specific ports: taken, out of range, released, reset by repair', async () => {
  const store = new MemoryStore();
  const a = new PortAllocator({ store, range: parsePortRange('30000-32767') });
  await a.allocate(30080);
  await assert.rejects(a.allocate(30080), { message: 'provided port is already allocated' });
  await assert.rejects(a.allocate(80), { message: 'provided port is not in the valid range. The range of valid ports is 30000-32767' });
  assert.equal(await a.has(30080), true);
  await a.release(30080);
  assert.equal(await a.has(30080), false);
  await a.allocate(30001);
  await a.reset([30002]);
  assert.equal(await a.has(30001), false);
  assert.equal(await a.has(30002), true);
  // Persisted: a fresh allocator on the same store sees the bitmap.
  assert.equal(await new PortAllocator({ store, range: parsePortRange('30000-32767') }).has(30002), true);
  await store.close();
});
