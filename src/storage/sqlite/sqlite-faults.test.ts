/** sqlite-specific behaviour beyond the conformance suite: full disk, automatic compaction, long replays, progress. */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import Database from 'better-sqlite3';
import { StorageUnavailableError, type WatchEvent } from '../interface.ts';
import { acquireStoreLock } from './lock.ts';
import { openSqliteStore } from './sqlite-store.ts';

const root = mkdtempSync(join(tmpdir(), 'keelson-sqlite-faults-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshPath = (): string => join(root, `db${++n}`, 'keelson.db');
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

void it('a full disk fails the writes that do not fit with StorageUnavailableError; nothing partial, others commit', async () => {
  const path = freshPath();
  // 4 KiB pages: 400 pages ≈ 1.6 MiB, so a few 300 KiB values fill it.
  const s = await openSqliteStore({ path, maxPageCount: 400 });
  try {
    const big = new Uint8Array(300 * 1024).fill(1);
    let stored = 0;
    let failure: unknown;
    for (let i = 0; i < 20 && !failure; i++) {
      try {
        assert.ok((await s.create(`/big/${i}`, big)).succeeded);
        stored++;
      } catch (err) {
        failure = err;
      }
    }
    assert.ok(failure instanceof StorageUnavailableError, `the disk filled up with an error: ${String(failure)}`);
    assert.match((failure as Error).message, /SQLITE_FULL/);
    assert.ok(stored > 0);
    const rev = await s.currentRevision();
    assert.equal(await s.get(`/big/${stored}`), undefined, 'the failed write left nothing behind');
    // One batch mixing a write that cannot fit with small ones: only the big one fails.
    const results = await Promise.allSettled([s.create('/small/a', enc('a')), s.create('/big/again', big), s.create('/small/b', enc('b'))]);
    assert.equal(results[0]!.status, 'fulfilled');
    assert.equal(results[1]!.status, 'rejected');
    assert.equal(results[2]!.status, 'fulfilled');
    assert.equal(await s.currentRevision(), rev + 2);
    assert.equal(new TextDecoder().decode((await s.get('/small/b'))!.value), 'b');
    assert.equal((await s.range('/big/')).count, stored);
    assert.deepEqual(await s.checkIntegrity!(), []);
  } finally {
    await s.close();
  }
});

void it('automatic compaction forgets old history, keeps the latest state and the revision', async () => {
  const s = await openSqliteStore({ path: freshPath(), historyRetentionMs: 30, compactionIntervalMs: 10 });
  try {
    let cur = await s.create('/k', enc('0'));
    assert.ok(cur.succeeded);
    for (let i = 1; i <= 20; i++) {
      const r = await s.update('/k', enc(String(i)), { expectedModRevision: cur.kv.modRevision });
      assert.ok(r.succeeded);
      cur = r;
    }
    const last = cur.revision;
    const gone = await s.create('/gone', enc('x'));
    assert.ok(gone.succeeded);
    assert.ok((await s.delete('/gone')).succeeded);
    for (let i = 0; i < 300 && (await s.compactedRevision()) < last; i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok((await s.compactedRevision()) >= last, 'compaction reached the old writes');
    assert.equal(new TextDecoder().decode((await s.get('/k'))!.value), '20');
    assert.equal((await s.get('/k'))!.version, 21);
    assert.deepEqual(await s.checkIntegrity!(), []);
  } finally {
    await s.close();
  }
});

void it('a watch from far back replays thousands of changes in order across pages, then goes live', async () => {
  const s = await openSqliteStore({ path: freshPath() });
  try {
    const start = await s.currentRevision();
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 2500; i++) writes.push(s.create(`/r/${i % 2 === 0 ? 'even' : 'odd'}/${i}`, enc(String(i))));
    await Promise.all(writes);
    const events: WatchEvent[] = [];
    let error: Error | undefined;
    const done = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${events.length} events`)), 20_000);
      const h = s.watch('/r/even/', { fromRevision: start }, {
        onEvents: (evs) => {
          events.push(...evs);
          if (events.length === 1251) {
            clearTimeout(timer);
            h.dispose();
            resolve();
          }
        },
        onError: (e) => (error = e),
      });
    });
    await new Promise((r) => setTimeout(r, 0));
    await s.create('/r/even/live', enc('live'));
    await done;
    assert.equal(error, undefined);
    const revs = events.map((e) => e.kv.modRevision);
    assert.deepEqual(revs, [...revs].sort((a, b) => a - b));
    assert.equal(new Set(revs).size, revs.length, 'no duplicates');
    assert.ok(events.every((e) => e.kv.key.startsWith('/r/even/')));
    assert.equal(events.at(-1)!.kv.key, '/r/even/live');
  } finally {
    await s.close();
  }
});

void it('progressNotify watchers learn the revision after every commit, even without events of their own', async () => {
  const s = await openSqliteStore({ path: freshPath() });
  try {
    const progress: number[] = [];
    const h = s.watch('/quiet/', { fromRevision: 0, progressNotify: true }, { onEvents: () => {}, onProgress: (r) => progress.push(r), onError: () => {} });
    const w = await s.create('/busy/x', enc('x'));
    assert.ok(w.succeeded);
    for (let i = 0; i < 100 && !progress.includes(w.revision); i++) await new Promise((r) => setTimeout(r, 10));
    h.dispose();
    assert.ok(progress.includes(w.revision), `progress ${progress.join(',')} reached ${w.revision}`);
  } finally {
    await s.close();
  }
});

void it('disk use stays bounded under constant rewrites (compaction + vacuum + WAL checkpoints)', async () => {
  const path = freshPath();
  const s = await openSqliteStore({ path, historyRetentionMs: 100, compactionIntervalMs: 25 });
  const size = (): number => statSync(path).size + (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);
  try {
    const value = new Uint8Array(4096).fill(9);
    const revs = new Map<string, number>();
    // 20 rounds × 500 keys × 4 KiB = 40 MiB written; 2 MiB live at any time.
    for (let round = 0; round < 20; round++) {
      await Promise.all(
        [...Array(500).keys()].map(async (k) => {
          const key = `/grow/${k}`;
          const rev = revs.get(key);
          const r = rev ? await s.update(key, value, { expectedModRevision: rev }) : await s.create(key, value);
          assert.ok(r.succeeded);
          revs.set(key, r.revision);
        }),
      );
      // Let compaction catch up with history older than the retention (bounded wait).
      const target = (await s.currentRevision()) - 500;
      for (let i = 0; i < 200 && (await s.compactedRevision()) < target; i++) await new Promise((r) => setTimeout(r, 10));
    }
    const bytes = size();
    assert.ok(bytes < 20 * 1024 * 1024, `database + WAL use ${(bytes / 1048576).toFixed(1)} MiB after writing 40 MiB with 2 MiB live`);
    assert.deepEqual(await s.checkIntegrity!(), []);
  } finally {
    await s.close();
  }
});

void it('if the writer thread dies, pending and later writes fail with StorageUnavailableError and watches end', async () => {
  const s = await openSqliteStore({ path: freshPath() });
  try {
    assert.ok((await s.create('/before', enc('x'))).succeeded);
    const ended = new Promise<Error>((resolve) => s.watch('/', { fromRevision: 0 }, { onEvents: () => {}, onError: resolve }));
    // Reach into the store to kill its writer, as a crash of the native module would.
    const worker = (s as unknown as { worker: { terminate(): Promise<number> } }).worker;
    const pending = s.create('/during', enc('x'));
    await worker.terminate();
    await assert.rejects(pending, StorageUnavailableError);
    await assert.rejects(s.create('/after', enc('x')), StorageUnavailableError);
    await assert.rejects(s.ping!(), StorageUnavailableError);
    assert.ok((await ended) instanceof StorageUnavailableError);
    assert.equal(new TextDecoder().decode((await s.get('/before'))!.value), 'x', 'reads of committed data still work');
  } finally {
    await s.close();
  }
});

void it('a large compaction runs in chunks while writes go on, and leaves only the newest row of each live key', async () => {
  const path = freshPath();
  const s = await openSqliteStore({ path });
  try {
    const revs = new Map<string, number>();
    // 120 keys × 100 writes = 12,000 revisions (several compaction chunks); every 10th key is deleted at the end.
    for (let round = 0; round < 100; round++) {
      await Promise.all(
        [...Array(120).keys()].map(async (k) => {
          const key = `/c/${k}`;
          const rev = revs.get(key);
          const r = rev ? await s.update(key, enc(`${round}`), { expectedModRevision: rev }) : await s.create(key, enc(`${round}`));
          assert.ok(r.succeeded);
          revs.set(key, r.revision);
        }),
      );
    }
    for (let k = 0; k < 120; k += 10) assert.ok((await s.delete(`/c/${k}`)).succeeded);
    const target = await s.currentRevision();
    const compacting = s.compact(target);
    const during = await Promise.all([...Array(50).keys()].map((i) => s.create(`/during/${i}`, enc('d'))));
    await compacting;
    assert.ok(during.every((r) => r.succeeded));
    assert.equal((await s.range('/during/')).count, 50);
    const live = await s.range('/c/');
    assert.equal(live.count, 108);
    assert.ok(live.items.every((kv) => new TextDecoder().decode(kv.value) === '99' && kv.version === 100));
    assert.equal((await s.range('/c/', { revision: target })).count, 108, 'a read at the compacted revision still works');
    assert.deepEqual(await s.checkIntegrity!(), []);
    const db = new Database(path, { readonly: true });
    try {
      const rows = db.prepare('SELECT count(*) AS n FROM log').get() as { n: number };
      assert.equal(rows.n, 108 + 50, 'history at or below the compacted revision keeps one row per live key');
    } finally {
      db.close();
    }
  } finally {
    await s.close();
  }
});

void it('a file that is not a database fails to open with StorageUnavailableError naming it, and releases the lock', async () => {
  const path = freshPath();
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, 'this is not a sqlite database, just some text that is long enough to have a header');
  await assert.rejects(openSqliteStore({ path }), (e: unknown) => e instanceof StorageUnavailableError && e.message.includes(path) && /not a database/i.test(e.message));
  const release = await acquireStoreLock(path, { waitMs: 0 });
  release();
});
