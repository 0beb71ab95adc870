import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CompactedError, FutureRevisionError, StoreClosedError, type RangeOptions, type RangeResult, type Store } from '../interface.ts';
import { openSqliteStore } from './sqlite-store.ts';

const enc = new TextEncoder();
const P = '/registry/things/';

/** The parts of a range answer a caller sees, values as text. */
function plain(r: RangeResult) {
  return {
    more: r.more, count: r.count, revision: r.revision,
    items: r.items.map((kv) => ({ key: kv.key, value: Buffer.from(kv.value).toString(), createRevision: kv.createRevision, modRevision: kv.modRevision, version: kv.version })),
  };
}

void describe('sqlite bulk pages (range thread)', () => {
  let dir: string;
  let store: Store;
  let before2ndWrite = 0;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'keelson-range-thread-'));
    store = await openSqliteStore({ path: join(dir, 'keelson.db'), keyPrefix: '/registry/' });
    for (let i = 0; i < 40; i++) await store.create(`${P}k${String(i).padStart(2, '0')}`, enc.encode(`{"i":${i},"s":"${'é'.repeat(i)}"}`));
    await store.create('/registry/other/x', enc.encode('{}'));
    await store.create(`${P}empty`, new Uint8Array(0));
    before2ndWrite = (await store.range(P, { limit: 1 })).revision;
    // Updates and deletes after that revision: a bulk page at it must read the past, not the present.
    for (let i = 0; i < 40; i += 3) await store.update(`${P}k${String(i).padStart(2, '0')}`, enc.encode(`{"i":${i},"v":2}`), { expectedModRevision: (await store.get(`${P}k${String(i).padStart(2, '0')}`))!.modRevision });
    for (let i = 1; i < 40; i += 7) await store.delete(`${P}k${String(i).padStart(2, '0')}`);
  });

  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const cases: [string, RangeOptions][] = [
    ['the whole prefix', {}],
    ['a first page', { limit: 7 }],
    ['a middle page', { limit: 7, startKey: `${P}k10` }],
    ['the last page', { limit: 7, startKey: `${P}k35` }],
    ['past the last key', { limit: 7, startKey: `${P}zz` }],
    ['a page at a past revision', { limit: 9, startKey: `${P}k05` }],
    ['everything at a past revision', {}],
  ];
  for (const [name, opts] of cases) {
    void it(`answers ${name} as the main-thread reader does`, async () => {
      const o = name.includes('past') && !name.includes('last key') ? { ...opts, revision: before2ndWrite } : opts;
      const main = await store.range(P, o);
      const bulk = await store.range(P, { ...o, bulk: true });
      assert.deepEqual(plain(bulk), plain(main));
      assert.equal(bulk.items.length === 0, name === 'past the last key');
      if (name === 'a middle page') assert.equal(bulk.items.length, 7);
      // Before the updates every key still held its first value.
      if (o.revision) assert.ok(bulk.items.every((kv) => kv.version === 1 && !Buffer.from(kv.value).toString().includes('"v":2')));
    });
  }

  void it('gives each value its own bytes: writing one leaves its neighbours alone', async () => {
    const r = await store.range(P, { limit: 3, bulk: true });
    const first = Buffer.from(r.items[1]!.value).toString();
    r.items[0]!.value.fill(0);
    assert.equal(Buffer.from(r.items[1]!.value).toString(), first);
  });

  void it('a scan page by page (each page read ahead on the thread) matches one range, writes between pages included', async () => {
    const whole = await store.range(P, {});
    const seen: RangeResult['items'] = [];
    let page = await store.range(P, { limit: 5 });
    seen.push(...page.items);
    let n = 0;
    while (page.more) {
      // A write after the scan's revision must not show up in its later pages (read ahead or not).
      if (n++ === 2) await store.update(`${P}k39`, enc.encode('{"late":true}'), { expectedModRevision: (await store.get(`${P}k39`))!.modRevision });
      page = await store.range(P, { limit: 5, revision: whole.revision, startKey: `${seen[seen.length - 1]!.key}\0`, bulk: true });
      assert.equal(page.revision, whole.revision);
      seen.push(...page.items);
    }
    assert.deepEqual(plain({ ...whole, items: seen }), plain(whole));
  });

  void it('fails a future revision and a compacted one as the reader does', async () => {
    const cur = (await store.range(P, { limit: 1 })).revision;
    await assert.rejects(store.range(P, { revision: cur + 5, bulk: true, limit: 2 }), (e) => e instanceof FutureRevisionError && e.currentRevision === cur);
    await store.compact(cur - 1);
    await assert.rejects(store.range(P, { revision: 2, bulk: true, limit: 2 }), (e) => e instanceof CompactedError && e.compactedRevision === cur - 1);
  });

  void it('pages at once are answered in order, each with its own items', async () => {
    const starts = ['k00', 'k12', 'k24', 'k36'];
    const pages = await Promise.all(starts.map((s) => store.range(P, { limit: 4, startKey: `${P}${s}`, bulk: true })));
    const expect = await Promise.all(starts.map((s) => store.range(P, { limit: 4, startKey: `${P}${s}` })));
    assert.deepEqual(pages.map(plain), expect.map(plain));
  });
});

void it('a closed store refuses bulk pages', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'keelson-range-thread-'));
  try {
    const s = await openSqliteStore({ path: join(dir, 'keelson.db') });
    await s.create('/a/1', enc.encode('1'));
    assert.equal((await s.range('/a/', { bulk: true, limit: 5 })).items.length, 1);
    await s.close();
    await assert.rejects(s.range('/a/', { bulk: true }), StoreClosedError);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
