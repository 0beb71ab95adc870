/** Conformance cases: ranges with limit / startKey / keysOnly / countOnly, at current and past revisions. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Store } from '../interface.ts';
import { enc, txt } from './helpers.ts';
import type { SuiteContext } from './helpers.ts';

/** Creates `${p}k00`..`${p}k<n-1>` (zero-padded) with value `v<i>`, in shuffled order. Returns the last revision. */
async function seed(s: Store, p: string, n: number): Promise<number> {
  const order = [...Array(n).keys()].sort((a, b) => ((a * 7919) % n) - ((b * 7919) % n));
  let rev = 0;
  for (const i of order) {
    const r = await s.create(`${p}k${String(i).padStart(2, '0')}`, enc(`v${i}`));
    assert.ok(r.succeeded);
    rev = r.revision;
  }
  return rev;
}

const keys = (items: { key: string }[], p: string): string[] => items.map((kv) => kv.key.slice(p.length));

export function rangeCases(ctx: SuiteContext): void {
  void it('range returns the keys under the prefix in key order with their revisions, and count', () =>
    ctx.withStore('range', async (s, p) => {
      await seed(s, p, 12);
      await s.create(`${p.slice(0, -1)}x/outside`, enc('no'));
      await s.create(`${p.slice(0, -1)}`, enc('no'));
      const r = await s.range(p);
      assert.deepEqual(keys(r.items, p), [...Array(12).keys()].map((i) => `k${String(i).padStart(2, '0')}`));
      assert.equal(r.count, 12);
      assert.equal(r.more, false);
      assert.equal(r.revision, await s.currentRevision());
      for (const kv of r.items) {
        assert.equal(txt(kv.value), `v${Number(kv.key.slice(-2))}`);
        assert.equal(kv.version, 1);
        assert.equal(kv.createRevision, kv.modRevision);
      }
      const empty = await s.range(`${p}nothing/`);
      assert.deepEqual(empty.items, []);
      assert.equal(empty.count, 0);
      assert.equal(empty.more, false);
    }));

  void it('limit cuts the result with more=true and count of the whole range; startKey continues inclusively', () =>
    ctx.withStore('range-limit', async (s, p) => {
      await seed(s, p, 10);
      const page1 = await s.range(p, { limit: 4 });
      assert.deepEqual(keys(page1.items, p), ['k00', 'k01', 'k02', 'k03']);
      assert.equal(page1.more, true);
      assert.equal(page1.count, 10);
      const page2 = await s.range(p, { limit: 4, startKey: `${p}k04`, revision: page1.revision });
      assert.deepEqual(keys(page2.items, p), ['k04', 'k05', 'k06', 'k07']);
      assert.equal(page2.more, true);
      assert.equal(page2.count, 6, 'count is from startKey on');
      const page3 = await s.range(p, { limit: 4, startKey: `${p}k08`, revision: page1.revision });
      assert.deepEqual(keys(page3.items, p), ['k08', 'k09']);
      assert.equal(page3.more, false);
      assert.equal(page3.count, 2);
      const exact = await s.range(p, { limit: 10 });
      assert.equal(exact.items.length, 10);
      assert.equal(exact.more, false);
      const between = await s.range(p, { startKey: `${p}k055` });
      assert.deepEqual(keys(between.items, p), ['k06', 'k07', 'k08', 'k09']);
    }));

  void it('keysOnly returns keys and revisions with empty values; countOnly returns only the count', () =>
    ctx.withStore('range-keys', async (s, p) => {
      await seed(s, p, 5);
      const ko = await s.range(p, { keysOnly: true });
      assert.equal(ko.items.length, 5);
      for (const kv of ko.items) {
        assert.equal(kv.value.byteLength, 0);
        assert.ok(kv.modRevision > 0);
        assert.ok(kv.createRevision > 0);
        assert.equal(kv.version, 1);
      }
      const co = await s.range(p, { countOnly: true });
      assert.deepEqual(co.items, []);
      assert.equal(co.count, 5);
      const coFrom = await s.range(p, { countOnly: true, startKey: `${p}k03` });
      assert.equal(coFrom.count, 2);
    }));

  void it('range at a past revision returns exactly the state after that revision, also paginated', () =>
    ctx.withStore('range-past', async (s, p) => {
      const seeded = await seed(s, p, 8);
      const before = await s.range(p);
      // Change the world: update k01, delete k02, create k99 and k025.
      const k1 = before.items[1]!;
      assert.ok((await s.update(k1.key, enc('changed'), { expectedModRevision: k1.modRevision })).succeeded);
      assert.ok((await s.delete(`${p}k02`)).succeeded);
      assert.ok((await s.create(`${p}k99`, enc('late'))).succeeded);
      assert.ok((await s.create(`${p}k025`, enc('late'))).succeeded);

      const then = await s.range(p, { revision: seeded });
      assert.equal(then.revision, seeded);
      assert.deepEqual(keys(then.items, p), keys(before.items, p));
      assert.deepEqual(then.items.map((kv) => txt(kv.value)), before.items.map((kv) => txt(kv.value)));
      assert.deepEqual(then.items.map((kv) => kv.modRevision), before.items.map((kv) => kv.modRevision));
      assert.equal(then.count, 8);

      const paged = await s.range(p, { revision: seeded, limit: 2, startKey: `${p}k01` });
      assert.deepEqual(keys(paged.items, p), ['k01', 'k02']);
      assert.equal(txt(paged.items[0]!.value), 'v1');
      assert.equal(paged.more, true);
      assert.equal(paged.count, 7);

      const now = await s.range(p);
      assert.deepEqual(keys(now.items, p), ['k00', 'k01', 'k025', 'k03', 'k04', 'k05', 'k06', 'k07', 'k99']);
      assert.equal(txt(now.items[1]!.value), 'changed');
      assert.equal(now.items[1]!.version, 2);

      const ko = await s.range(p, { revision: seeded, keysOnly: true });
      assert.equal(ko.items.length, 8);
      assert.ok(ko.items.every((kv) => kv.value.byteLength === 0));
      const co = await s.range(p, { revision: seeded, countOnly: true });
      assert.equal(co.count, 8);
    }));
}
