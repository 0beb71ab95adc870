/** Conformance cases: concurrent writers, value size limit, key prefix, close, TTL. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { KeyOutsidePrefixError, MAX_VALUE_BYTES, StoreClosedError, ValueTooLargeError, type Store } from '../interface.ts';
import { collect, enc, txt } from './helpers.ts';
import type { SuiteContext } from './helpers.ts';

/** Increments the integer stored at `key` with the optimistic loop from interface.ts; returns the attempts. */
async function increment(s: Store, key: string): Promise<number> {
  let cur = await s.get(key);
  for (let attempt = 1; ; attempt++) {
    const next = enc(String(Number(txt(cur!.value)) + 1));
    const r = await s.update(key, next, { expectedModRevision: cur!.modRevision });
    if (r.succeeded) return attempt;
    assert.ok(r.current, 'the key is never deleted in this test');
    cur = r.current;
  }
}

export function limitCases(ctx: SuiteContext): void {
  void it('64 concurrent writers × 50 guarded increments of their own keys lose nothing', () =>
    ctx.withStore('concurrent-distinct', async (s, p) => {
      const writers = 64;
      const rounds = 50;
      for (let w = 0; w < writers; w++) assert.ok((await s.create(`${p}w${w}`, enc('0'))).succeeded);
      const before = await s.currentRevision();
      await Promise.all(
        [...Array(writers).keys()].map(async (w) => {
          for (let i = 0; i < rounds; i++) assert.equal(await increment(s, `${p}w${w}`), 1);
        }),
      );
      const all = await s.range(p);
      assert.equal(all.items.length, writers);
      for (const kv of all.items) {
        assert.equal(txt(kv.value), String(rounds));
        assert.equal(kv.version, rounds + 1);
      }
      assert.equal(await s.currentRevision(), before + writers * rounds, 'one revision per successful write, none for anything else');
    }));

  void it('32 concurrent writers × 10 guarded increments of one shared key: exact final value, no lost update', () =>
    ctx.withStore('concurrent-shared', async (s, p) => {
      const writers = 32;
      const rounds = 10;
      const key = `${p}counter`;
      assert.ok((await s.create(key, enc('0'))).succeeded);
      const before = await s.currentRevision();
      let conflicts = 0;
      await Promise.all(
        [...Array(writers).keys()].map(async () => {
          for (let i = 0; i < rounds; i++) conflicts += (await increment(s, key)) - 1;
        }),
      );
      const kv = (await s.get(key))!;
      assert.equal(txt(kv.value), String(writers * rounds));
      assert.equal(kv.version, writers * rounds + 1);
      assert.equal(await s.currentRevision(), before + writers * rounds, 'failed guards consume no revision');
      assert.ok(conflicts > 0, 'the writers really contended');
    }));

  void it(`a value of exactly ${MAX_VALUE_BYTES} bytes is accepted; one byte more is rejected and nothing is written`, () =>
    ctx.withStore('large', async (s, p) => {
      const max = new Uint8Array(MAX_VALUE_BYTES).fill(7);
      max[0] = 1;
      max[MAX_VALUE_BYTES - 1] = 2;
      const ok = await s.create(`${p}max`, max);
      assert.ok(ok.succeeded);
      const back = (await s.get(`${p}max`))!;
      assert.equal(back.value.byteLength, MAX_VALUE_BYTES);
      assert.ok(Buffer.from(back.value).equals(Buffer.from(max)));
      const rev = await s.currentRevision();
      const tooBig = new Uint8Array(MAX_VALUE_BYTES + 1);
      await assert.rejects(s.create(`${p}big`, tooBig), ValueTooLargeError);
      await assert.rejects(s.update(`${p}max`, tooBig, { expectedModRevision: ok.revision }), ValueTooLargeError);
      assert.equal(await s.get(`${p}big`), undefined);
      assert.equal((await s.get(`${p}max`))!.modRevision, ok.revision);
      assert.equal(await s.currentRevision(), rev);
    }));

  void it('writes of keys outside the key prefix are rejected', () =>
    ctx.withStore('outside', async (s) => {
      const outside = `/elsewhere-${process.pid}/x`;
      await assert.rejects(s.create(outside, enc('x')), KeyOutsidePrefixError);
      await assert.rejects(s.update(outside, enc('x'), { expectedModRevision: 1 }), KeyOutsidePrefixError);
      await assert.rejects(s.delete(outside), KeyOutsidePrefixError);
      assert.equal(await s.get(outside), undefined);
    }));

  void it('after close, writes and reads fail with StoreClosedError and watches end', async () => {
    const s = await ctx.factory.open();
    const p = `${ctx.keyPrefix}conformance-closed-${process.pid}/`;
    const c = await s.create(`${p}a-${Date.now()}`, enc('x'));
    assert.ok(c.succeeded);
    const ended = new Promise<Error>((resolve) => {
      s.watch(p, { fromRevision: 0 }, { onEvents: () => {}, onError: resolve });
    });
    await s.close();
    await s.close(); // idempotent
    await assert.rejects(s.create(`${p}b`, enc('x')), StoreClosedError);
    await assert.rejects(s.update(c.kv.key, enc('x'), { expectedModRevision: c.revision }), StoreClosedError);
    await assert.rejects(s.delete(c.kv.key), StoreClosedError);
    await assert.rejects(s.get(c.kv.key), StoreClosedError);
    await assert.rejects(s.range(p), StoreClosedError);
    assert.ok((await ended) instanceof StoreClosedError);
  });

  if (ctx.factory.supports?.ttl) {
    void it('a key written with ttlSeconds disappears after it expires (with a delete event); others stay', () =>
      ctx.withStore('ttl', async (s, p) => {
        const start = await s.currentRevision();
        assert.ok((await s.create(`${p}short`, enc('x'), { ttlSeconds: 1 })).succeeded);
        assert.ok((await s.create(`${p}long`, enc('y'))).succeeded);
        const w = collect(s, p, start);
        try {
          const evs = await w.waitFor(3, 15_000);
          assert.equal(evs[2]!.type, 'delete');
          assert.equal(evs[2]!.kv.key, `${p}short`);
          assert.equal(await s.get(`${p}short`), undefined);
          assert.equal(txt((await s.get(`${p}long`))!.value), 'y');
        } finally {
          w.handle.dispose();
        }
      }));
  } else {
    void it('TTL expiry', { skip: 'the factory says this backend does not implement TTLs (supports.ttl unset)' }, () => {});
  }
}
