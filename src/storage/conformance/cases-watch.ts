/** Conformance cases: watch replay and ordering, prefix isolation, dispose, compaction. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CompactedError } from '../interface.ts';
import { collect, enc, txt } from './helpers.ts';
import type { SuiteContext } from './helpers.ts';

export function watchCases(ctx: SuiteContext): void {
  void it('watch from a past revision replays every change in order with prevKv, then follows live changes', () =>
    ctx.withStore('watch-past', async (s, p) => {
      const start = await s.currentRevision();
      const c = await s.create(`${p}a`, enc('a1'));
      assert.ok(c.succeeded);
      const u = await s.update(`${p}a`, enc('a2'), { expectedModRevision: c.revision });
      assert.ok(u.succeeded);
      const b = await s.create(`${p}b`, enc('b1'));
      assert.ok(b.succeeded);
      const d = await s.delete(`${p}a`);
      assert.ok(d.succeeded);
      const w = collect(s, p, start);
      try {
        await w.waitFor(4);
        const live = await s.create(`${p}c`, enc('c1'));
        assert.ok(live.succeeded);
        const evs = await w.waitFor(5);
        assert.equal(evs.length, 5);
        assert.deepEqual(evs.map((e) => [e.type, e.kv.key.slice(p.length), e.kv.modRevision]), [
          ['put', 'a', c.revision],
          ['put', 'a', u.revision],
          ['put', 'b', b.revision],
          ['delete', 'a', d.revision],
          ['put', 'c', live.revision],
        ]);
        assert.equal(evs[0]!.prevKv, undefined);
        assert.equal(txt(evs[0]!.kv.value), 'a1');
        assert.equal(evs[0]!.kv.version, 1);
        assert.equal(txt(evs[1]!.kv.value), 'a2');
        assert.equal(evs[1]!.kv.version, 2);
        assert.equal(evs[1]!.kv.createRevision, c.revision);
        assert.equal(txt(evs[1]!.prevKv!.value), 'a1');
        assert.equal(evs[1]!.prevKv!.modRevision, c.revision);
        assert.equal(evs[3]!.kv.value.byteLength, 0);
        assert.equal(txt(evs[3]!.prevKv!.value), 'a2');
        assert.equal(evs[3]!.prevKv!.modRevision, u.revision);
        assert.deepEqual(w.errors, []);
      } finally {
        w.handle.dispose();
      }
    }));

  void it('watch from a revision in the middle delivers only later changes; fromRevision 0 only new ones', () =>
    ctx.withStore('watch-mid', async (s, p) => {
      const first = await s.create(`${p}a`, enc('1'));
      assert.ok(first.succeeded);
      const second = await s.create(`${p}b`, enc('2'));
      assert.ok(second.succeeded);
      const mid = collect(s, p, first.revision);
      const now = collect(s, p, 0);
      try {
        const third = await s.create(`${p}c`, enc('3'));
        assert.ok(third.succeeded);
        assert.deepEqual((await mid.waitFor(2)).map((e) => e.kv.modRevision), [second.revision, third.revision]);
        // A backend may establish a "from now" watch asynchronously (etcd): write markers until it sees one.
        const markers: number[] = [];
        for (let i = 0; i < 100 && now.events.length === 0 && now.errors.length === 0; i++) {
          const m = await s.create(`${p}marker-${i}`, enc('m'));
          assert.ok(m.succeeded);
          markers.push(m.revision);
          await new Promise((r) => setTimeout(r, i < 10 ? 0 : 20));
        }
        const last = await s.create(`${p}last`, enc('end'));
        assert.ok(last.succeeded);
        await mid.waitFor(3 + markers.length);
        await now.waitFor(1);
        for (let i = 0; i < 500 && now.events.at(-1)!.kv.modRevision !== last.revision && now.errors.length === 0; i++) {
          await new Promise((r) => setTimeout(r, 10));
        }
        const revs = now.events.map((e) => e.kv.modRevision);
        assert.ok(revs[0]! > second.revision, `fromRevision 0 replays nothing old (first event at ${revs[0]})`);
        const expected = [third.revision, ...markers, last.revision].filter((r) => r >= revs[0]!);
        assert.deepEqual(revs, expected, 'every change after the watch started, once, in order');
        assert.deepEqual(mid.events.map((e) => e.kv.modRevision), [second.revision, third.revision, ...markers, last.revision]);
      } finally {
        mid.handle.dispose();
        now.handle.dispose();
      }
    }));

  void it('watches only see their own prefix', () =>
    ctx.withStore('watch-prefix', async (s, p) => {
      const start = await s.currentRevision();
      const pods = collect(s, `${p}pods/`, start);
      const all = collect(s, p, start);
      try {
        await s.create(`${p}podsx`, enc('not a pod'));
        await s.create(`${p}services/a`, enc('svc'));
        const pod = await s.create(`${p}pods/a`, enc('pod'));
        assert.ok(pod.succeeded);
        await all.waitFor(3);
        const evs = await pods.waitFor(1);
        assert.deepEqual(evs.map((e) => e.kv.key), [`${p}pods/a`]);
        assert.equal(pods.events.length, 1);
      } finally {
        pods.handle.dispose();
        all.handle.dispose();
      }
    }));

  void it('dispose stops delivery', () =>
    ctx.withStore('watch-dispose', async (s, p) => {
      // An explicit start revision: a "from now" watch may be established asynchronously on some backends.
      const start = await s.currentRevision();
      const gone = collect(s, p, start);
      const witness = collect(s, p, start);
      try {
        await s.create(`${p}a`, enc('1'));
        await gone.waitFor(1);
        gone.handle.dispose();
        gone.handle.dispose(); // idempotent
        await s.create(`${p}b`, enc('2'));
        await s.create(`${p}c`, enc('3'));
        await witness.waitFor(3);
        assert.equal(gone.events.length, 1);
        assert.deepEqual(gone.errors, []);
      } finally {
        witness.handle.dispose();
      }
    }));

  void it('compaction: reads and watches below the compacted revision get CompactedError, later ones work', () =>
    ctx.withStore('compact', async (s, p) => {
      const c = await s.create(`${p}a`, enc('v1'));
      assert.ok(c.succeeded);
      const u = await s.update(`${p}a`, enc('v2'), { expectedModRevision: c.revision });
      assert.ok(u.succeeded);
      const gone = await s.create(`${p}gone`, enc('x'));
      assert.ok(gone.succeeded);
      const del = await s.delete(`${p}gone`);
      assert.ok(del.succeeded);
      const after = await s.update(`${p}a`, enc('v3'), { expectedModRevision: u.revision });
      assert.ok(after.succeeded);
      await s.compact(del.revision);
      const compacted = await s.compactedRevision();
      assert.ok(compacted >= del.revision && compacted <= del.revision + 1, `compactedRevision() = ${compacted} after compact(${del.revision})`);

      await assert.rejects(s.get(`${p}a`, { revision: c.revision }), CompactedError);
      await assert.rejects(s.range(p, { revision: u.revision }), CompactedError);
      const old = collect(s, p, c.revision);
      const err = await old.waitError();
      assert.ok(err instanceof CompactedError, `watch error is a CompactedError: ${err.name}: ${err.message}`);
      assert.equal(old.events.length, 0);

      // The latest state survives compaction, and the history above the compacted revision is intact.
      assert.equal(txt((await s.get(`${p}a`))!.value), 'v3');
      assert.equal(await s.get(`${p}gone`), undefined);
      // Reading at exactly the compacted revision still works (as in etcd): the state after it is kept.
      const atDel = await s.range(p, { revision: del.revision });
      assert.deepEqual(atDel.items.map((kv) => [kv.key.slice(p.length), txt(kv.value)]), [['a', 'v2']]);
      const fresh = collect(s, p, del.revision);
      try {
        const evs = await fresh.waitFor(1);
        assert.equal(evs[0]!.kv.modRevision, after.revision);
        assert.equal(txt(evs[0]!.prevKv!.value), 'v2', 'prevKv of the first change after compaction is kept');
      } finally {
        fresh.handle.dispose();
      }
    }));
}
