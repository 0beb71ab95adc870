/** Conformance cases: create/get/update/delete guards and revision bookkeeping. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { FutureRevisionError } from '../interface.ts';
import { enc, txt, view } from './helpers.ts';
import type { SuiteContext } from './helpers.ts';

export function crudCases(ctx: SuiteContext): void {
  void it('create sets createRevision = modRevision = the new revision and version 1', () =>
    ctx.withStore('create', async (s, p) => {
      const before = await s.currentRevision();
      const r = await s.create(`${p}a`, enc('one'));
      assert.ok(r.succeeded);
      assert.ok(r.revision > before, 'the write gets a revision above the previous current one');
      assert.deepEqual(view(r.kv), { key: `${p}a`, value: 'one', createRevision: r.revision, modRevision: r.revision, version: 1 });
      assert.equal(r.prevKv, undefined);
      assert.equal(await s.currentRevision(), r.revision);
      assert.deepEqual(view(await s.get(`${p}a`)), view(r.kv));
      assert.equal(await s.get(`${p}missing`), undefined);
    }));

  void it('create on an existing key fails with the current value and consumes no revision', () =>
    ctx.withStore('create-exists', async (s, p) => {
      const first = await s.create(`${p}a`, enc('one'));
      assert.ok(first.succeeded);
      const rev = await s.currentRevision();
      const again = await s.create(`${p}a`, enc('two'));
      assert.equal(again.succeeded, false);
      assert.ok(!again.succeeded);
      assert.deepEqual(view(again.current), view(first.kv));
      assert.equal(await s.currentRevision(), rev);
      assert.equal(txt((await s.get(`${p}a`))!.value), 'one');
    }));

  void it('update with the right guard bumps version and modRevision, keeps createRevision, returns prevKv', () =>
    ctx.withStore('update', async (s, p) => {
      const c = await s.create(`${p}a`, enc('v1'));
      assert.ok(c.succeeded);
      const u = await s.update(`${p}a`, enc('v2'), { expectedModRevision: c.kv.modRevision });
      assert.ok(u.succeeded);
      assert.ok(u.revision > c.revision);
      assert.deepEqual(view(u.kv), { key: `${p}a`, value: 'v2', createRevision: c.revision, modRevision: u.revision, version: 2 });
      assert.deepEqual(view(u.prevKv), view(c.kv));
      const u3 = await s.update(`${p}a`, enc('v3'), { expectedModRevision: u.revision });
      assert.ok(u3.succeeded);
      assert.equal(u3.kv.version, 3);
      assert.equal(u3.kv.createRevision, c.revision);
    }));

  void it('update with a stale guard fails with the current value; update of a missing key fails with undefined', () =>
    ctx.withStore('update-guard', async (s, p) => {
      const c = await s.create(`${p}a`, enc('v1'));
      assert.ok(c.succeeded);
      const u = await s.update(`${p}a`, enc('v2'), { expectedModRevision: c.revision });
      assert.ok(u.succeeded);
      const rev = await s.currentRevision();
      const stale = await s.update(`${p}a`, enc('lost'), { expectedModRevision: c.revision });
      assert.ok(!stale.succeeded);
      assert.deepEqual(view(stale.current), view(u.kv));
      const missing = await s.update(`${p}nope`, enc('x'), { expectedModRevision: c.revision });
      assert.ok(!missing.succeeded);
      assert.equal(missing.current, undefined);
      assert.equal(await s.currentRevision(), rev, 'failed guards consume no revision');
      assert.equal(txt((await s.get(`${p}a`))!.value), 'v2');
    }));

  void it('delete: missing key fails, stale guard fails with current, success returns prevKv and re-create starts over', () =>
    ctx.withStore('delete', async (s, p) => {
      const missing = await s.delete(`${p}nope`);
      assert.ok(!missing.succeeded);
      assert.equal(missing.current, undefined);
      const c = await s.create(`${p}a`, enc('v1'));
      assert.ok(c.succeeded);
      const u = await s.update(`${p}a`, enc('v2'), { expectedModRevision: c.revision });
      assert.ok(u.succeeded);
      const stale = await s.delete(`${p}a`, { expectedModRevision: c.revision });
      assert.ok(!stale.succeeded);
      assert.deepEqual(view(stale.current), view(u.kv));
      const d = await s.delete(`${p}a`, { expectedModRevision: u.revision });
      assert.ok(d.succeeded);
      assert.ok(d.revision > u.revision);
      assert.deepEqual(view(d.prevKv), view(u.kv));
      assert.equal(await s.get(`${p}a`), undefined);
      assert.equal(await s.currentRevision(), d.revision);
      const again = await s.delete(`${p}a`);
      assert.ok(!again.succeeded);
      const re = await s.create(`${p}a`, enc('v3'));
      assert.ok(re.succeeded);
      assert.deepEqual(view(re.kv), { key: `${p}a`, value: 'v3', createRevision: re.revision, modRevision: re.revision, version: 1 });
      const unguarded = await s.delete(`${p}a`);
      assert.ok(unguarded.succeeded);
      assert.equal(txt(unguarded.prevKv!.value), 'v3');
    }));

  void it('get at a past revision sees the state after that revision', () =>
    ctx.withStore('get-past', async (s, p) => {
      const before = await s.currentRevision();
      const c = await s.create(`${p}a`, enc('v1'));
      assert.ok(c.succeeded);
      const u = await s.update(`${p}a`, enc('v2'), { expectedModRevision: c.revision });
      assert.ok(u.succeeded);
      const d = await s.delete(`${p}a`);
      assert.ok(d.succeeded);
      assert.equal(await s.get(`${p}a`, { revision: before }), undefined);
      assert.equal(txt((await s.get(`${p}a`, { revision: c.revision }))!.value), 'v1');
      assert.deepEqual(view(await s.get(`${p}a`, { revision: u.revision })), view(u.kv));
      assert.equal(await s.get(`${p}a`, { revision: d.revision }), undefined);
    }));

  void it('reads at a future revision fail with FutureRevisionError', () =>
    ctx.withStore('future', async (s, p) => {
      await s.create(`${p}a`, enc('x'));
      const cur = await s.currentRevision();
      await assert.rejects(s.get(`${p}a`, { revision: cur + 10 }), FutureRevisionError);
      await assert.rejects(s.range(p, { revision: cur + 10 }), FutureRevisionError);
      assert.equal(txt((await s.get(`${p}a`, { revision: cur }))!.value), 'x');
    }));

  void it('values are stored as given, byte for byte (binary, empty, and not aliased to the caller buffer)', () =>
    ctx.withStore('bytes', async (s, p) => {
      const bin = new Uint8Array(256).map((_, i) => i);
      assert.ok((await s.create(`${p}bin`, bin)).succeeded);
      assert.ok((await s.create(`${p}empty`, new Uint8Array(0))).succeeded);
      const mine = enc('original');
      assert.ok((await s.create(`${p}alias`, mine)).succeeded);
      mine.fill(0);
      assert.deepEqual(Buffer.from((await s.get(`${p}bin`))!.value), Buffer.from(bin));
      assert.equal((await s.get(`${p}empty`))!.value.byteLength, 0);
      assert.equal(txt((await s.get(`${p}alias`))!.value), 'original');
    }));

  if (ctx.factory.reopen) {
    const reopen = ctx.factory.reopen.bind(ctx.factory);
    void it('revisions stay monotonic and data survives close + reopen', async () => {
      const s1 = await ctx.factory.open();
      const p = `${ctx.keyPrefix}conformance-reopen-${process.pid}-${Date.now().toString(36)}/`;
      let last: number;
      try {
        const c = await s1.create(`${p}a`, enc('kept'));
        assert.ok(c.succeeded);
        const d1 = await s1.create(`${p}b`, enc('gone'));
        assert.ok(d1.succeeded);
        const d = await s1.delete(`${p}b`);
        assert.ok(d.succeeded);
        last = await s1.currentRevision();
        await s1.compact(last);
      } finally {
        await s1.close();
      }
      const s2 = await reopen();
      try {
        assert.ok((await s2.currentRevision()) >= last, 'the current revision never goes back');
        assert.equal(txt((await s2.get(`${p}a`))!.value), 'kept');
        assert.equal(await s2.get(`${p}b`), undefined);
        const n = await s2.create(`${p}c`, enc('new'));
        assert.ok(n.succeeded);
        assert.ok(n.revision > last, `a write after reopen gets revision ${n.revision} > ${last}`);
      } finally {
        await s2.close();
      }
    });
  } else {
    void it('revisions stay monotonic across reopen', { skip: 'the factory cannot reopen the same data (no reopen())' }, () => {});
  }
}
