import assert from 'node:assert/strict';
import { it } from 'node:test';
import { runStorageConformance } from '../conformance/suite.ts';
import { MemoryStore } from './memory-store.ts';

runStorageConformance('memory', {
  open: async () => new MemoryStore({ keyPrefix: '/registry/', ttlSweepMs: 100 }),
  cleanup: async () => {},
  supports: { ttl: true },
});

void it('memory: automatic compaction forgets history older than compactAfterMs but keeps the latest state', async () => {
  const s = new MemoryStore({ compactAfterMs: 50 });
  try {
    const c = await s.create('/k', new Uint8Array([1]));
    assert.ok(c.succeeded);
    const u = await s.update('/k', new Uint8Array([2]), { expectedModRevision: c.revision });
    assert.ok(u.succeeded);
    // Wait (bounded) until the timer has compacted past the update.
    for (let i = 0; i < 200 && (await s.compactedRevision()) < u.revision; i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok((await s.compactedRevision()) >= u.revision);
    assert.deepEqual([...(await s.get('/k'))!.value], [2]);
    assert.deepEqual(await s.checkIntegrity(), []);
  } finally {
    await s.close();
  }
});
