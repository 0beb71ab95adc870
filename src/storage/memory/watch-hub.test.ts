import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CompactedError, StoreClosedError, type WatchEvent } from '../interface.ts';
import { WatchHub, type HistorySource } from './watch-hub.ts';

const put = (key: string, rev: number): WatchEvent => ({
  type: 'put',
  kv: { key, value: new Uint8Array(0), createRevision: rev, modRevision: rev, version: 1 },
});

/** A history of `n` puts at revisions 1..n alternating between /a/ and /b/, compacted below `compacted`. */
function history(n: number, compacted = 0): HistorySource & { reads: number } {
  const all = [...Array(n).keys()].map((i) => put(i % 2 ? `/b/${i + 1}` : `/a/${i + 1}`, i + 1));
  const src = {
    reads: 0,
    readHistory(prefix: string, after: number, upTo: number, limit: number) {
      src.reads++;
      if (after < compacted) throw new CompactedError(after, compacted);
      const events: WatchEvent[] = [];
      for (const e of all) {
        if (e.kv.modRevision <= after || e.kv.modRevision > upTo || !e.kv.key.startsWith(prefix)) continue;
        events.push(e);
        if (events.length >= limit) return { events, scannedTo: e.kv.modRevision };
      }
      return { events, scannedTo: upTo };
    },
  };
  return src;
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

void it('replays history page by page, then switches to live events without gaps or duplicates', async () => {
  const src = history(50);
  const hub = new WatchHub({ source: src, initialRevision: 50, pageSize: 7 });
  const got: number[] = [];
  hub.watch('/a/', { fromRevision: 10 }, { onEvents: (evs) => got.push(...evs.map((e) => e.kv.modRevision)), onError: assert.fail });
  // Live events published while the replay is still paging are not lost: the replay reads up to them.
  hub.publish([put('/a/x', 51), put('/b/y', 52)], 52);
  for (let i = 0; i < 20; i++) await tick();
  hub.publish([put('/a/z', 53)], 53);
  const expected = [...Array(50).keys()].map((i) => i + 1).filter((r) => r > 10 && r % 2 === 1);
  assert.ok(src.reads > 2, 'the replay was paged');
  assert.deepEqual(got.slice(0, expected.length), expected);
  // 51 and 52 are beyond the fake history, so only live delivery could bring 53.
  assert.equal(got.at(-1), 53);
});

void it('a watch below the compacted revision ends with CompactedError and nothing else', async () => {
  const hub = new WatchHub({ source: history(10, 5), initialRevision: 10 });
  const errors: Error[] = [];
  hub.watch('/', { fromRevision: 3 }, { onEvents: () => assert.fail('no events'), onError: (e) => errors.push(e) });
  await tick();
  assert.equal(errors.length, 1);
  assert.ok(errors[0] instanceof CompactedError);
});

void it('a throwing listener ends only its own watch; dispose inside onEvents stops delivery at once', async () => {
  const hub = new WatchHub({ source: history(0), initialRevision: 0 });
  const errors: Error[] = [];
  const other: number[] = [];
  hub.watch('/', { fromRevision: 0 }, {
    onEvents: () => {
      throw new Error('listener bug');
    },
    onError: (e) => errors.push(e),
  });
  let selfDisposed = 0;
  const h = hub.watch('/', { fromRevision: 0 }, {
    onEvents: () => {
      selfDisposed++;
      h.dispose();
    },
    onError: assert.fail,
  });
  hub.watch('/', { fromRevision: 0 }, { onEvents: (evs) => other.push(...evs.map((e) => e.kv.modRevision)), onError: assert.fail });
  hub.publish([put('/x', 1)], 1);
  hub.publish([put('/y', 2)], 2);
  assert.deepEqual(errors.map((e) => e.message), ['listener bug']);
  assert.equal(selfDisposed, 1);
  assert.deepEqual(other, [1, 2]);
  assert.equal(hub.size, 1);
});

void it('a watch from a future revision skips everything up to it; progress follows commits; close ends watches', async () => {
  const hub = new WatchHub({ source: history(0), initialRevision: 0 });
  const got: number[] = [];
  const progress: number[] = [];
  const errors: Error[] = [];
  hub.watch('/', { fromRevision: 3, progressNotify: true }, {
    onEvents: (evs) => got.push(...evs.map((e) => e.kv.modRevision)),
    onProgress: (r) => progress.push(r),
    onError: (e) => errors.push(e),
  });
  for (let r = 1; r <= 5; r++) hub.publish([put('/k', r)], r);
  assert.deepEqual(got, [4, 5]);
  assert.deepEqual(progress, [1, 2, 3, 4, 5]);
  hub.closeAll();
  hub.publish([put('/k', 6)], 6);
  assert.deepEqual(got, [4, 5]);
  assert.ok(errors[0] instanceof StoreClosedError);
  const late: Error[] = [];
  hub.watch('/', { fromRevision: 0 }, { onEvents: () => assert.fail('no events after close'), onError: (e) => late.push(e) });
  await tick();
  assert.ok(late[0] instanceof StoreClosedError);
});
