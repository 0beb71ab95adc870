import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { makePredicate } from '../../registry/predicate.ts';
import { FutureRevisionError, KeyOutsidePrefixError, StoreClosedError, type Store, type WatchHandle, type WatchListener, type WatchOptions } from '../interface.ts';
import { MemoryStore } from '../memory/memory-store.ts';
import { Cacher, TooOldResourceVersionError, WatcherTooSlowError, type CacherOptions } from './cacher.ts';
import { codec, deletePod, failable, keyOf, PREFIX, putPod, RecordingSink, until, withoutProgress } from './testing/helpers.ts';

const FIELDS = new Set(['metadata.name', 'metadata.namespace']);
const consistent = { kind: 'consistent' } as const;
const any = { kind: 'any' } as const;

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function setup(opts: Partial<CacherOptions> = {}, wrap: (s: MemoryStore) => Store = (s) => s): Promise<{ store: MemoryStore; cache: Cacher }> {
  const store = new MemoryStore();
  await putPod(store, 'a', 'p1', { app: 'web' });
  await putPod(store, 'a', 'p2', { app: 'db' });
  const cache = await Cacher.start({ store: wrap(store), prefix: PREFIX, codec, ...opts });
  cleanups.push(async () => {
    await cache.stop();
    await store.close();
  });
  return { store, cache };
}

/** Starts a watch from the cache's current revision and waits until it is registered. */
async function watchNow(cache: Cacher, opts: Parameters<Cacher['watch']>[1] = {}, prefix = PREFIX): Promise<{ sink: RecordingSink; dispose: () => void; resume: () => void }> {
  const sink = new RecordingSink();
  const before = cache.stats.watchers;
  const w = cache.watch(prefix, { fromRevision: await cache.currentRevision(), ...opts }, sink);
  await until(() => cache.stats.watchers > before || sink.closed, 5000, 'watch registration');
  return { sink, dispose: () => w.dispose(), resume: () => w.resume() };
}

void describe('Cacher: reads', () => {
  void it('serves a consistent read on an idle resource from the cache while other prefixes change', async () => {
    const { store, cache } = await setup();
    await store.create('/registry/configmaps/a/x', Buffer.from('{}'));
    const res = await cache.list(PREFIX, { read: consistent });
    assert.equal(res.revision, await store.currentRevision());
    // Served from the cache: the very objects the cache holds, not freshly decoded copies.
    assert.equal(res.items[0], await cache.get(keyOf('a', 'p1'), { read: any }));
  });

  void it('falls back to the store when the backend gives no progress, and stays correct', async () => {
    const { store, cache } = await setup({ consistentWaitMs: 20 }, withoutProgress);
    await store.create('/registry/configmaps/a/x', Buffer.from('{}'));
    const target = await store.currentRevision();
    const res = await cache.list(PREFIX, { read: consistent });
    assert.equal(res.revision, target);
    assert.deepEqual(res.items.map((i) => i.object.metadata.name), ['p1', 'p2']);
    assert.notEqual(res.items[0], await cache.get(keyOf('a', 'p1'), { read: any }));
    // A watch with rv unset still starts (from what the cache has) and sees later changes.
    const sink = new RecordingSink();
    const w = cache.watch(PREFIX, {}, sink);
    await until(() => sink.events.length === 2, 5000, 'initial events');
    await putPod(store, 'a', 'p3');
    await until(() => sink.events.length === 3, 5000, 'live event');
    assert.equal(sink.lines[2]!.split('@')[0], 'ADDED p3');
    w.dispose();
  });

  void it('notOlderThan a revision nobody has reached: FutureRevisionError after the timeout', async () => {
    const { store, cache } = await setup({ consistentReadTimeoutMs: 30 });
    const cur = await store.currentRevision();
    await assert.rejects(cache.list(PREFIX, { read: { kind: 'notOlderThan', revision: cur + 5 } }), (e: unknown) =>
      e instanceof FutureRevisionError && e.requestedRevision === cur + 5 && e.currentRevision === cur);
  });

  void it('notOlderThan waits for a revision that arrives during the wait', async () => {
    const { store, cache } = await setup({ consistentReadTimeoutMs: 5000 });
    const cur = await store.currentRevision();
    const pending = cache.list(PREFIX, { read: { kind: 'notOlderThan', revision: cur + 1 } });
    await putPod(store, 'a', 'p3');
    const res = await pending;
    assert.ok(res.revision >= cur + 1);
    assert.deepEqual(res.items.map((i) => i.object.metadata.name), ['p1', 'p2', 'p3']);
  });

  void it('exact at the current revision is served from the cache', async () => {
    const { cache } = await setup();
    const rev = await cache.currentRevision();
    const res = await cache.get(keyOf('a', 'p2'), { read: { kind: 'exact', revision: rev } });
    assert.equal(res, await cache.get(keyOf('a', 'p2'), { read: any }));
  });

  void it('refuses a prefix without the trailing slash', async () => {
    const store = new MemoryStore();
    await assert.rejects(Cacher.start({ store, prefix: '/registry/pods', codec }), TypeError);
    await store.close();
  });

  void it('rejects keys outside its prefix', async () => {
    const { cache } = await setup();
    await assert.rejects(cache.get('/registry/secrets/a/x', { read: any }), KeyOutsidePrefixError);
    assert.throws(() => cache.watch('/registry/secrets/', {}, new RecordingSink()), KeyOutsidePrefixError);
  });

  void it('a pinned metadata.name predicate filters like any other', async () => {
    const { cache } = await setup();
    const predicate = makePredicate({ fieldSelector: 'metadata.name=p2', allowedFields: FIELDS });
    const res = await cache.list(PREFIX, { read: consistent, predicate });
    assert.deepEqual(res.items.map((i) => i.object.metadata.name), ['p2']);
  });
});

void describe('Cacher: current() (the update loop\'s cached start)', () => {
  /** A store whose watch events wait in a queue between `hold()` and `release()`: the cache lags on purpose. */
  function holdingEvents(store: MemoryStore): { store: Store; hold(): void; release(): void } {
    const held: Array<() => void> = [];
    let holding = false;
    const wrapped = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'watch') {
          return (prefix: string, opts: WatchOptions, l: WatchListener): WatchHandle => target.watch(prefix, opts, {
            onEvents: (e) => (holding ? held.push(() => l.onEvents(e)) : l.onEvents(e)),
            onError: (e) => l.onError(e),
          });
        }
        const v = Reflect.get(target, prop, receiver) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    return {
      store: wrapped,
      hold() { holding = true; },
      release() {
        holding = false;
        for (const f of held.splice(0)) f();
      },
    };
  }

  void it('answers the cached object only while the cache holds the store\'s latest revision', async () => {
    const base = new MemoryStore();
    await putPod(base, 'a', 'p1', { v: '1' });
    const h = holdingEvents(base);
    const cache = await Cacher.start({ store: h.store, prefix: PREFIX, codec, consistentWaitMs: 20 });
    cleanups.push(async () => { await cache.stop(); await base.close(); });
    const first = await cache.current(keyOf('a', 'p1'));
    assert.ok(first, 'caught up: the cached object');
    assert.equal(first, await cache.get(keyOf('a', 'p1'), { read: any }));
    assert.equal(await cache.current(keyOf('a', 'missing')), undefined, 'caught up and absent: undefined');
    h.hold();
    const rev = await putPod(base, 'a', 'p1', { v: '2' });
    // The store is ahead of the cache: no answer rather than the stale revision.
    assert.equal(await cache.current(keyOf('a', 'p1')), null);
    // A write elsewhere in the store counts too: the cache cannot tell it is unrelated.
    assert.equal(await cache.current(keyOf('a', 'missing')), null);
    h.release();
    await until(() => cache.stats.revision >= rev, 5000, 'the cache to catch up');
    const now = await cache.current(keyOf('a', 'p1'));
    assert.equal(now?.kv.modRevision, rev);
    assert.equal(now?.object.metadata.labels?.['v'], '2');
  });

  void it('says nothing once stopped or for a key outside its prefix', async () => {
    const { cache } = await setup();
    await assert.rejects(cache.current('/registry/configmaps/a/x'), KeyOutsidePrefixError);
    await cache.stop();
    await assert.rejects(cache.current(keyOf('a', 'p1')), StoreClosedError);
  });
});

void describe('Cacher: watches', () => {
  void it('every watcher gets the same event instance (serve-once), initial ADDED included', async () => {
    const { store, cache } = await setup();
    const a = await watchNow(cache);
    const b = await watchNow(cache);
    const s1 = new RecordingSink();
    const s2 = new RecordingSink();
    const w1 = cache.watch(PREFIX, { fromRevision: 0 }, s1);
    const w2 = cache.watch(PREFIX, { fromRevision: 0 }, s2);
    await putPod(store, 'a', 'p3');
    await until(() => a.sink.events.length === 1 && b.sink.events.length === 1 && s1.events.length === 3 && s2.events.length === 3, 5000, 'events');
    assert.equal(a.sink.events[0], b.sink.events[0]);
    assert.equal(s1.events[0], s2.events[0]);
    assert.equal(s1.events[2], a.sink.events[0]);
    a.dispose(); b.dispose(); w1.dispose(); w2.dispose();
  });

  void it('a namespace watch sees only its namespace', async () => {
    const { store, cache } = await setup();
    const { sink, dispose } = await watchNow(cache, {}, `${PREFIX}b/`);
    await putPod(store, 'a', 'x');
    const rb = await putPod(store, 'b', 'y');
    await until(() => sink.events.length >= 1);
    await putPod(store, 'a', 'z');
    await until(() => cache.stats.revision === rb + 1);
    assert.deepEqual(sink.lines, [`ADDED y@${rb}`]);
    dispose();
  });

  void it('a revision older than the window is too old (410 text), the window start itself is fine', async () => {
    const { store, cache } = await setup({ maxWindowEvents: 2 });
    const first = await store.currentRevision();
    for (let i = 0; i < 4; i++) await putPod(store, 'a', `w${i}`);
    await until(() => cache.stats.revision === first + 4);
    const start = cache.stats.windowStart;
    assert.equal(start, first + 2);
    const old = new RecordingSink();
    cache.watch(PREFIX, { fromRevision: first }, old);
    await until(() => old.closed);
    assert.ok(old.closeError instanceof TooOldResourceVersionError);
    assert.equal(old.closeError.message, `too old resource version: ${first} (${start})`);
    const ok = new RecordingSink();
    const w = cache.watch(PREFIX, { fromRevision: start }, ok);
    await until(() => ok.events.length === 2);
    assert.deepEqual(ok.lines.map((l) => l.split('@')[0]), ['ADDED w2', 'ADDED w3']);
    w.dispose();
  });

  void it('a watch from a revision the store has not reached fails with FutureRevisionError', async () => {
    const { store, cache } = await setup({ consistentReadTimeoutMs: 30 });
    const sink = new RecordingSink();
    cache.watch(PREFIX, { fromRevision: (await store.currentRevision()) + 10 }, sink);
    await until(() => sink.closed);
    assert.ok(sink.closeError instanceof FutureRevisionError);
  });

  void it('a watch ahead of the cache (store has the revision) skips what came before it', async () => {
    const { store, cache } = await setup({ consistentWaitMs: 10 }, withoutProgress);
    await store.create('/registry/configmaps/a/x', Buffer.from('{}'));
    const from = await store.currentRevision();
    const sink = new RecordingSink();
    const w = cache.watch(PREFIX, { fromRevision: from }, sink);
    await until(() => cache.stats.watchers === 1);
    const r = await putPod(store, 'a', 'after');
    await until(() => sink.events.length === 1);
    assert.deepEqual(sink.lines, [`ADDED after@${r}`]);
    w.dispose();
  });

  void it('a watcher that stays backed up is closed as too slow; others keep going', async () => {
    const { store, cache } = await setup({ maxWatcherBuffer: 3, watcherRetryMs: 60_000 });
    const slow = await watchNow(cache);
    const fast = await watchNow(cache);
    slow.sink.accept = () => false;
    for (let i = 0; i < 6; i++) await putPod(store, 'a', `s${i}`);
    await until(() => fast.sink.events.length === 6);
    assert.ok(slow.sink.closed);
    assert.ok(slow.sink.closeError instanceof WatcherTooSlowError);
    assert.equal(slow.sink.events.length, 1);
    assert.equal(fast.sink.closed, false);
    assert.equal(cache.stats.watchers, 1);
    fast.dispose();
  });

  void it('resume() after backpressure delivers the queued events in order', async () => {
    const { store, cache } = await setup({ maxWatcherBuffer: 10, watcherRetryMs: 60_000 });
    const w = await watchNow(cache);
    let open = false;
    w.sink.accept = () => open;
    const revs: number[] = [];
    for (let i = 0; i < 4; i++) revs.push(await putPod(store, 'a', `q${i}`));
    await until(() => cache.stats.revision === revs[3]);
    assert.equal(w.sink.events.length, 1);
    open = true;
    w.resume();
    assert.deepEqual(w.sink.events.map((e) => e.revision), revs);
    w.dispose();
  });

  void it('a sink that never calls resume() is retried and drains once it accepts again', async () => {
    const { store, cache } = await setup({ maxWatcherBuffer: 100, watcherRetryMs: 5 });
    const w = await watchNow(cache);
    let open = false;
    w.sink.accept = () => open;
    const revs: number[] = [];
    for (let i = 0; i < 5; i++) revs.push(await putPod(store, 'a', `r${i}`));
    open = true;
    await until(() => w.sink.events.length === 5, 5000, 'retried delivery');
    assert.deepEqual(w.sink.events.map((e) => e.revision), revs);
    assert.equal(w.sink.closed, false);
    w.dispose();
  });

  void it('sends periodic bookmarks at the current revision only to watchers that asked', async () => {
    const { store, cache } = await setup({ bookmarkIntervalMs: 10 });
    const withB = await watchNow(cache, { bookmarks: true });
    const without = await watchNow(cache);
    // Idle: heartbeats at the current revision.
    const start = await cache.currentRevision();
    await until(() => withB.sink.events.length >= 2, 5000, 'heartbeat bookmarks');
    assert.ok(withB.sink.events.every((e) => e.type === 'BOOKMARK' && e.revision === start && e.object === undefined && !e.initialEventsEnd));
    // Other prefixes move the revision: bookmarks follow it.
    await store.create('/registry/configmaps/a/x', Buffer.from('{}'));
    const rev = await store.currentRevision();
    await until(() => withB.sink.events.some((e) => e.type === 'BOOKMARK' && e.revision === rev), 5000, 'bookmark at the new revision');
    const revs = withB.sink.events.map((e) => e.revision);
    assert.deepEqual(revs, [...revs].sort((a, b) => a - b));
    assert.equal(without.sink.events.length, 0);
    withB.dispose();
    without.dispose();
  });

  void it('dispose before the watch is set up: nothing is delivered, nothing is closed', async () => {
    const { store, cache } = await setup();
    const sink = new RecordingSink();
    const w = cache.watch(PREFIX, {}, sink);
    w.dispose();
    await putPod(store, 'a', 'late');
    await cache.list(PREFIX, { read: consistent });
    assert.equal(cache.stats.watchers, 0);
    assert.equal(sink.events.length, 0);
    assert.equal(sink.closed, false);
  });
});

void describe('Cacher: bad stored values', () => {
  void it('skips undecodable values; a key whose new value cannot be decoded is gone to readers and watchers', async () => {
    const warn = console.warn;
    console.warn = () => {};
    try {
      const store = new MemoryStore();
      await putPod(store, 'a', 'ok');
      await store.create(keyOf('a', 'junk'), Buffer.from('not json'));
      const cache = await Cacher.start({ store, prefix: PREFIX, codec });
      cleanups.push(async () => {
        await cache.stop();
        await store.close();
      });
      assert.deepEqual((await cache.list(PREFIX, { read: consistent })).items.map((i) => i.object.metadata.name), ['ok']);
      const w = await watchNow(cache);
      const cur = await store.get(keyOf('a', 'ok'));
      const r = await store.update(keyOf('a', 'ok'), Buffer.from('{broken'), { expectedModRevision: cur!.modRevision });
      assert.ok(r.succeeded);
      await until(() => w.sink.events.length === 1);
      assert.deepEqual(w.sink.lines, [`DELETED ok@${r.revision}`]);
      assert.deepEqual((await cache.list(PREFIX, { read: consistent })).items, []);
      w.dispose();
    } finally {
      console.warn = warn;
    }
  });
});

void describe('Cacher: lifecycle', () => {
  void it('stop() closes watchers normally and refuses later calls', async () => {
    const store = new MemoryStore();
    await putPod(store, 'a', 'p1');
    const cache = await Cacher.start({ store, prefix: PREFIX, codec, bookmarkIntervalMs: 5 });
    const sink = new RecordingSink();
    cache.watch(PREFIX, { fromRevision: await cache.currentRevision() }, sink);
    await until(() => cache.stats.watchers === 1);
    await cache.stop();
    assert.equal(sink.closed, true);
    assert.equal(sink.closeError, undefined);
    assert.equal(cache.stats.watchers, 0);
    await assert.rejects(cache.list(PREFIX, { read: any }), StoreClosedError);
    assert.throws(() => cache.watch(PREFIX, {}, new RecordingSink()), StoreClosedError);
    await cache.stop();
    await store.close();
  });

  void it('a failed store watch closes watchers, serves reads from the store, and re-lists', async () => {
    const store = new MemoryStore();
    await putPod(store, 'a', 'p1');
    const f = failable(store);
    const cache = await Cacher.start({ store: f, prefix: PREFIX, codec });
    cleanups.push(async () => {
      await cache.stop();
      await store.close();
    });
    const { sink } = await watchNow(cache);
    f.failWatches(new Error('connection lost'));
    assert.equal(sink.closed, true);
    assert.equal(sink.closeError, undefined);
    assert.equal(cache.stats.ready, false);
    await putPod(store, 'a', 'p2');
    const during = await cache.list(PREFIX, { read: consistent });
    assert.deepEqual(during.items.map((i) => i.object.metadata.name), ['p1', 'p2']);
    await until(() => cache.stats.ready, 5000, 're-list');
    assert.equal(f.watchCount(), 1);
    const rev = await deletePod(store, 'a', 'p1');
    const res = await cache.list(PREFIX, { read: consistent });
    assert.equal(res.revision, rev);
    assert.deepEqual(res.items.map((i) => i.object.metadata.name), ['p2']);
    assert.equal(res.items[0], await cache.get(keyOf('a', 'p2'), { read: any }));
  });
});
