import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store, WatchEvent } from '../interface.ts';
import { MemoryStore } from '../memory/memory-store.ts';
import { Cacher } from './cacher.ts';
import { runReaderContract } from './testing/reader-contract.ts';
import { shareWatches } from './shared-watch.ts';
import { codec, failable, keyOf, PREFIX, putPod, until, withoutProgress } from './testing/helpers.ts';

// A memory store without progress notifications behaves like etcd for the cache; sharing fixes that.
runReaderContract('Cacher over shareWatches(store without progress)', async (store) => {
  const cache = await Cacher.start({ store, prefix: PREFIX, codec, loadPageSize: 2, consistentWaitMs: 50 });
  return { reader: cache, close: () => cache.stop() };
}, async () => {
  const store = await shareWatches(withoutProgress(new MemoryStore()));
  return { store, close: () => store.close() };
});

function recorder(): { events: string[]; progress: number[]; errors: Error[]; listener: Parameters<Store['watch']>[2] } {
  const r = { events: [] as string[], progress: [] as number[], errors: [] as Error[] };
  return {
    ...r,
    listener: {
      onEvents: (evs: readonly WatchEvent[]) => r.events.push(...evs.map((e) => `${e.type} ${e.kv.key}@${e.kv.modRevision}`)),
      onProgress: (rev: number) => r.progress.push(rev),
      onError: (err: Error) => r.errors.push(err),
    },
  };
}

void describe('shareWatches', () => {
  void it('lets a cache of an idle prefix serve consistent reads itself while other prefixes change', async () => {
    const mem = new MemoryStore();
    const store = await shareWatches(withoutProgress(mem));
    await putPod(store, 'a', 'p1');
    const cache = await Cacher.start({ store, prefix: PREFIX, codec, consistentWaitMs: 2000 });
    try {
      await store.create('/registry/configmaps/a/x', Buffer.from('{}'));
      const res = await cache.list(PREFIX, { read: { kind: 'consistent' } });
      assert.equal(res.revision, await store.currentRevision());
      assert.equal(res.items[0], await cache.get(keyOf('a', 'p1'), { read: { kind: 'any' } }));
    } finally {
      await cache.stop();
      await store.close();
    }
  });

  void it('replays from its buffer, gives every sub progress, and falls back to an own watch beyond the buffer', async () => {
    const store = await shareWatches(new MemoryStore(), { bufferEvents: 2 });
    try {
      const r0 = await store.currentRevision();
      const r1 = (await store.create('/registry/a/1', Buffer.from('1'))) as { revision: number };
      const r2 = (await store.create('/registry/b/1', Buffer.from('2'))) as { revision: number };
      const r3 = (await store.create('/registry/a/2', Buffer.from('3'))) as { revision: number };
      await new Promise((r) => setTimeout(r, 0));
      const recent = recorder();
      const h1 = store.watch('/registry/a/', { fromRevision: r1.revision, progressNotify: true }, recent.listener);
      const old = recorder();
      const h2 = store.watch('/registry/a/', { fromRevision: r0 }, old.listener);
      const idle = recorder();
      const h3 = store.watch('/registry/c/', { fromRevision: r3.revision, progressNotify: true }, idle.listener);
      await until(() => recent.events.length === 1 && old.events.length === 2);
      assert.deepEqual(recent.events, [`put /registry/a/2@${r3.revision}`]);
      assert.deepEqual(old.events, [`put /registry/a/1@${r1.revision}`, `put /registry/a/2@${r3.revision}`]);
      const r4 = (await store.create('/registry/b/2', Buffer.from('4'))) as { revision: number };
      await until(() => idle.progress.includes(r4.revision) && recent.progress.includes(r4.revision));
      assert.deepEqual(idle.events, []);
      assert.ok(r2.revision < r3.revision);
      h1.dispose(); h2.dispose(); h3.dispose();
    } finally {
      await store.close();
    }
  });

  void it('a failed shared stream ends its subs and restarts for new watches', async () => {
    const mem = new MemoryStore();
    const f = failable(mem);
    const store = await shareWatches(f as unknown as Store);
    try {
      const a = recorder();
      store.watch('/registry/a/', { fromRevision: await store.currentRevision(), progressNotify: true }, a.listener);
      f.failWatches(new Error('lost'));
      assert.equal(a.errors.length, 1);
      await until(() => f.watchCount() === 1, 5000, 'shared stream restart');
      const b = recorder();
      store.watch('/registry/a/', { fromRevision: await store.currentRevision(), progressNotify: true }, b.listener);
      const w = (await mem.create('/registry/z/1', Buffer.from('z'))) as { revision: number };
      await until(() => b.progress.includes(w.revision), 5000, 'progress from the new shared stream');
      assert.equal(f.watchCount(), 1);
    } finally {
      await store.close();
    }
  });
});
