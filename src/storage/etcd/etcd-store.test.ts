/**
 * etcd-specific behaviour of the etcd backend, against a throwaway etcd (skipped with a reason when no
 * `etcd` binary is installed). The shared conformance suite runs from ./etcd-conformance.test.ts, fault
 * cases (unreachable member, etcd restart) from ./etcd-faults.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Etcd3 } from 'etcd3';
import { startEtcd, type EtcdProcess } from '../../../test/support/etcd.ts';
import {
  CompactedError,
  FutureRevisionError,
  KeyOutsidePrefixError,
  MAX_VALUE_BYTES,
  StoreClosedError,
  ValueTooLargeError,
  type Store,
} from '../interface.ts';
import { openEtcdStore } from './etcd-store.ts';
import { collector, dec, enc } from './testing/helpers.ts';

let etcd: EtcdProcess | undefined;
let skipReason: string | false = false;
let n = 0;
/** A fresh etcd prefix per test keeps tests independent on one etcd. */
const freshPrefix = (): string => `/t${++n}-${process.pid}`;

before(async () => {
  etcd = await startEtcd();
  if (!etcd) skipReason = 'no etcd binary found (install Debian etcd-server or set KEELSON_ETCD_BIN)';
  if (skipReason) console.log(`# SKIP etcd-store tests: ${skipReason}`);
});
after(async () => {
  await etcd?.stop();
});

async function open(prefix = freshPrefix(), extra: { keyPrefix?: string } = {}): Promise<Store> {
  return await openEtcdStore({ servers: [etcd!.endpoint], prefix, ...extra });
}


describe('etcd store', () => {
  it('create, get, update, delete with guards and revisions', async (t) => {
    if (skipReason) return t.skip(skipReason);
    const s = await open();
    try {
      const c = await s.create('/a', enc('1'));
      assert.ok(c.succeeded);
      assert.equal(c.kv.createRevision, c.revision);
      assert.equal(c.kv.version, 1);
      const dup = await s.create('/a', enc('2'));
      assert.equal(dup.succeeded, false);
      assert.equal(dup.succeeded ? '' : dec(dup.current!.value), '1');

      const stale = await s.update('/a', enc('x'), { expectedModRevision: c.revision - 1 });
      assert.equal(stale.succeeded, false);
      assert.equal(stale.succeeded ? 0 : stale.current!.modRevision, c.revision);

      const u = await s.update('/a', enc('3'), { expectedModRevision: c.revision });
      assert.ok(u.succeeded);
      assert.equal(u.revision, c.revision + 1);
      assert.deepEqual({ ...u.kv, value: dec(u.kv.value) }, { key: '/a', value: '3', createRevision: c.revision, modRevision: u.revision, version: 2 });
      assert.equal(dec(u.prevKv!.value), '1');

      const got = await s.get('/a');
      assert.equal(dec(got!.value), '3');
      assert.equal(dec((await s.get('/a', { revision: c.revision }))!.value), '1');

      const badDel = await s.delete('/a', { expectedModRevision: c.revision });
      assert.equal(badDel.succeeded, false);
      const d = await s.delete('/a', { expectedModRevision: u.revision });
      assert.ok(d.succeeded);
      assert.equal(d.revision, u.revision + 1);
      assert.equal(dec(d.prevKv!.value), '3');
      assert.equal(await s.get('/a'), undefined);
      const missing = await s.delete('/a');
      assert.deepEqual(missing, { succeeded: false, current: undefined });
      assert.equal(await s.currentRevision(), d.revision, 'a failed guard consumes no revision');
      assert.deepEqual(await s.checkIntegrity!(), []);
      await s.ping!();
    } finally {
      await s.close();
    }
  });

  it('isolates prefixes and stores keys under the prefix in etcd', async (t) => {
    if (skipReason) return t.skip(skipReason);
    const p1 = freshPrefix();
    const p2 = freshPrefix();
    const s1 = await open(p1);
    const s2 = await open(p2);
    const raw = new Etcd3({ hosts: etcd!.endpoint });
    try {
      await s1.create('/registry/pods/x', enc('one'));
      await s2.create('/registry/pods/x', enc('two'));
      await s2.create('/registry/pods/y', enc('three'));
      const r1 = await s1.range('/registry/');
      assert.deepEqual(r1.items.map((i) => i.key), ['/registry/pods/x']);
      assert.equal(dec(r1.items[0]!.value), 'one');
      assert.equal((await s2.range('/registry/')).count, 2);
      assert.equal(await raw.get(`${p1}/registry/pods/x`).string(), 'one');
      assert.equal(await raw.get('/registry/pods/x').string(), null);
      // A whole-keyspace range of a prefixed store stays inside its prefix.
      assert.deepEqual((await s1.range('')).items.map((i) => i.key), ['/registry/pods/x']);
    } finally {
      raw.close();
      await s1.close();
      await s2.close();
    }
  });

  it('ranges with limit, startKey, revision, keysOnly and countOnly', async (t) => {
    if (skipReason) return t.skip(skipReason);
    const s = await open();
    try {
      const revs: number[] = [];
      for (const k of ['a', 'b', 'c', 'd']) {
        const r = await s.create(`/p/${k}`, enc(k));
        assert.ok(r.succeeded);
        revs.push(r.revision);
      }
      await s.create('/q/z', enc('z'));
      const page = await s.range('/p/', { limit: 2 });
      assert.deepEqual(page.items.map((i) => i.key), ['/p/a', '/p/b']);
      assert.equal(page.more, true);
      assert.equal(page.count, 4);
      const next = await s.range('/p/', { limit: 2, startKey: '/p/c', revision: revs[1] });
      assert.deepEqual(next.items, [], 'at revision of b, c and d did not exist');
      assert.equal(next.revision, revs[1]);
      const all = await s.range('/p/', { startKey: '/p/b', keysOnly: true });
      assert.deepEqual(all.items.map((i) => [i.key, i.value.byteLength]), [['/p/b', 0], ['/p/c', 0], ['/p/d', 0]]);
      assert.equal(all.more, false);
      const cnt = await s.range('/p/', { countOnly: true });
      assert.deepEqual([cnt.items.length, cnt.count], [0, 4]);
      await assert.rejects(s.range('/p/', { startKey: '/q/' }), KeyOutsidePrefixError);
    } finally {
      await s.close();
    }
  });

  it('maps future revisions, compaction and oversized values to typed errors', async (t) => {
    if (skipReason) return t.skip(skipReason);
    const s = await open();
    const other = await open();
    try {
      const c = await s.create('/k', enc('v1'));
      assert.ok(c.succeeded);
      const u = await s.update('/k', enc('v2'), { expectedModRevision: c.revision });
      assert.ok(u.succeeded);
      const cur = await s.currentRevision();
      await assert.rejects(s.get('/k', { revision: cur + 100 }), (e: unknown) => {
        assert.ok(e instanceof FutureRevisionError);
        assert.equal(e.requestedRevision, cur + 100);
        assert.ok(e.currentRevision >= cur);
        return true;
      });
      // Another client compacts: this store learns the compacted revision from etcd.
      await other.compact(u.revision);
      assert.equal(await s.compactedRevision(), u.revision);
      await assert.rejects(s.get('/k', { revision: c.revision }), (e: unknown) => {
        assert.ok(e instanceof CompactedError);
        assert.equal(e.requestedRevision, c.revision);
        assert.equal(e.compactedRevision, u.revision);
        return true;
      });
      assert.equal(dec((await s.get('/k', { revision: u.revision }))!.value), 'v2', 'the compacted revision stays readable');
      await s.compact(c.revision); // below the compaction: nothing to do
      await assert.rejects(s.compact(cur + 100), FutureRevisionError);

      const before = await s.currentRevision();
      await assert.rejects(s.create('/big', new Uint8Array(MAX_VALUE_BYTES + 1)), ValueTooLargeError);
      await assert.rejects(s.update('/k', new Uint8Array(MAX_VALUE_BYTES + 1), { expectedModRevision: u.revision }), ValueTooLargeError);
      assert.equal(await s.currentRevision(), before, 'nothing was written');
      const max = await s.create('/max', new Uint8Array(MAX_VALUE_BYTES).fill(7));
      assert.ok(max.succeeded, 'a value of exactly MAX_VALUE_BYTES is accepted');
      assert.equal((await s.get('/max'))!.value.byteLength, MAX_VALUE_BYTES);
    } finally {
      await s.close();
      await other.close();
    }
  });

  it('enforces keyPrefix on writes and refuses use after close', async (t) => {
    if (skipReason) return t.skip(skipReason);
    const s = await open(freshPrefix(), { keyPrefix: '/registry/' });
    await assert.rejects(s.create('/other/x', enc('x')), KeyOutsidePrefixError);
    assert.ok((await s.create('/registry/x', enc('x'))).succeeded);
    const c = collector();
    s.watch('/registry/', { fromRevision: 0 }, c.listener);
    await s.close();
    assert.ok(c.error instanceof StoreClosedError);
    await assert.rejects(s.get('/registry/x'), StoreClosedError);
    await assert.rejects(s.create('/registry/y', enc('y')), StoreClosedError);
    assert.throws(() => s.watch('/registry/', { fromRevision: 0 }, collector().listener), StoreClosedError);
    await s.close(); // idempotent
  });

  it('with keyPrefix /registry/, keys live at <etcd-prefix>/<rest> (kube\'s layout); keys outside it do not exist', async (t) => {
    if (skipReason) return t.skip(skipReason);
    const prefix = freshPrefix();
    const s = await open(prefix, { keyPrefix: '/registry/' });
    const raw = new Etcd3({ hosts: etcd!.endpoint });
    try {
      const c = collector();
      s.watch('/registry/configmaps/', { fromRevision: await s.currentRevision() }, c.listener);
      assert.ok((await s.create('/registry/configmaps/default/x', enc('v'))).succeeded);
      assert.equal(await raw.get(`${prefix}/configmaps/default/x`).string(), 'v');
      assert.equal(await raw.get(`${prefix}/registry/configmaps/default/x`).string(), null);
      assert.deepEqual((await s.range('')).items.map((i) => i.key), ['/registry/configmaps/default/x']);
      assert.equal((await s.range('/other/')).count, 0);
      assert.equal(await s.get('/other'), undefined);
      assert.throws(() => s.watch('/other/', { fromRevision: 0 }, collector().listener), KeyOutsidePrefixError);
      await c.until(() => c.events.length >= 1);
      assert.equal(c.events[0]!.kv.key, '/registry/configmaps/default/x');
    } finally {
      raw.close();
      await s.close();
    }
  });

  it('attaches a lease to keys written with a TTL', async (t) => {
    if (skipReason) return t.skip(skipReason);
    const prefix = freshPrefix();
    const s = await open(prefix);
    const raw = new Etcd3({ hosts: etcd!.endpoint });
    try {
      await s.create('/ev/1', enc('e'), { ttlSeconds: 3600 });
      await s.create('/ev/2', enc('e'), { ttlSeconds: 3600 });
      await s.create('/plain', enc('p'));
      const res = await raw.kv.range({ key: Buffer.from(`${prefix}/`), range_end: Buffer.from(`${prefix}0`) });
      const leases = new Map(res.kvs.map((kv) => [kv.key.toString(), kv.lease]));
      assert.notEqual(leases.get(`${prefix}/ev/1`), '0');
      assert.equal(leases.get(`${prefix}/ev/1`), leases.get(`${prefix}/ev/2`), 'one lease is reused');
      assert.equal(leases.get(`${prefix}/plain`), '0');
      // Someone revokes the lease (its keys go): the next TTL write gets a fresh lease instead of failing.
      await raw.leaseClient.leaseRevoke({ ID: leases.get(`${prefix}/ev/1`)! });
      assert.equal(await s.get('/ev/1'), undefined);
      assert.ok((await s.create('/ev/3', enc('e'), { ttlSeconds: 3600 })).succeeded);
      const after = await raw.kv.range({ key: Buffer.from(`${prefix}/ev/3`) });
      assert.notEqual(after.kvs[0]!.lease, '0');
      assert.notEqual(after.kvs[0]!.lease, leases.get(`${prefix}/ev/1`));
    } finally {
      raw.close();
      await s.close();
    }
  });

  it('watches from a past revision with previous values, in order', async (t) => {
    if (skipReason) return t.skip(skipReason);
    const s = await open();
    try {
      const c1 = await s.create('/w/a', enc('1'));
      assert.ok(c1.succeeded);
      const u = await s.update('/w/a', enc('2'), { expectedModRevision: c1.revision });
      assert.ok(u.succeeded);
      await s.create('/x/ignored', enc('x'));
      const d = await s.delete('/w/a');
      assert.ok(d.succeeded);
      const c = collector();
      const h = s.watch('/w/', { fromRevision: c1.revision }, c.listener);
      await c.until(() => c.events.length >= 2);
      await s.create('/w/b', enc('b'));
      await c.until(() => c.events.length >= 3);
      h.dispose();
      assert.deepEqual(
        c.events.map((e) => [e.type, e.kv.key, e.kv.modRevision, e.prevKv ? dec(e.prevKv.value) : null]),
        [
          ['put', '/w/a', u.revision, '1'],
          ['delete', '/w/a', d.revision, '2'],
          ['put', '/w/b', d.revision + 1, null],
        ],
      );
      assert.equal(c.error, undefined);
    } finally {
      await s.close();
    }
  });

  it('reports progress to watches that ask for it (etcd notifies synced watchers)', async (t) => {
    if (skipReason) return t.skip(skipReason);
    const s = await open();
    try {
      const c = await s.create('/pg/a', enc('1'));
      assert.ok(c.succeeded);
      const asked = collector();
      const notAsked = collector();
      const h1 = s.watch('/pg/', { fromRevision: c.revision, progressNotify: true }, asked.listener);
      const h2 = s.watch('/pg/', { fromRevision: c.revision }, notAsked.listener);
      // Another prefix moves the store's revision; the progress notification carries it.
      const other = await s.create('/elsewhere/x', enc('x'));
      assert.ok(other.succeeded);
      // test/support/etcd.ts runs etcd with a 1 s progress-notify interval.
      await asked.until(() => asked.progress.some((r) => r >= other.revision));
      h1.dispose();
      h2.dispose();
      assert.deepEqual(asked.events, []);
      assert.deepEqual(notAsked.progress, []);
      assert.deepEqual(asked.progress, [...asked.progress].sort((a, b) => a - b));
    } finally {
      await s.close();
    }
  });

  it('disposing watches leaves the shared gRPC connection alone (white-box)', async (t) => {
    if (skipReason) return t.skip(skipReason);
    const s = await open();
    try {
      // etcd3 resets every gRPC client of a member it thinks failed; a watch we cancel is no failure.
      const host = (s as unknown as { client: { pool: { hosts: Array<{ resetAllServices(): void }> } } }).client.pool.hosts[0]!;
      let resets = 0;
      const original = host.resetAllServices.bind(host);
      host.resetAllServices = () => {
        resets++;
        original();
      };
      for (let i = 0; i < 5; i++) {
        const c = collector();
        const h = s.watch('/d/', { fromRevision: await s.currentRevision() }, c.listener);
        await s.create(`/d/${i}`, enc('x'));
        await c.until(() => c.events.length === 1);
        h.dispose();
      }
      await s.get('/d/0');
      assert.equal(resets, 0);
    } finally {
      await s.close();
    }
  });

  it('ends a watch below the compacted revision with CompactedError', async (t) => {
    if (skipReason) return t.skip(skipReason);
    const s = await open();
    try {
      const first = await s.create('/c/a', enc('1'));
      assert.ok(first.succeeded);
      for (let i = 0; i < 3; i++) await s.create(`/c/n${i}`, enc('x'));
      const cur = await s.currentRevision();
      await s.compact(cur);
      const c = collector();
      s.watch('/c/', { fromRevision: first.revision }, c.listener);
      await c.until(() => c.error !== undefined);
      assert.ok(c.error instanceof CompactedError);
      assert.equal(c.error.compactedRevision, cur);
      assert.equal(c.error.requestedRevision, first.revision);
      assert.equal(c.events.length, 0);
    } finally {
      await s.close();
    }
  });
});

describe('etcd store against an etcd with its default request limit', () => {
  it("maps etcd's own \"request is too large\" to ValueTooLargeError", async (t) => {
    if (skipReason) return t.skip(skipReason);
    // etcd's default --max-request-bytes (1.5 MiB) counts key and framing too, so a value just under our
    // limit is refused by etcd itself, as kube-apiserver sees it on a default etcd.
    const small = await startEtcd({ extraArgs: ['--max-request-bytes', String(1.5 * 1024 * 1024)] });
    assert.ok(small);
    try {
      const s = await openEtcdStore({ servers: [small.endpoint] });
      try {
        const before = await s.currentRevision();
        await assert.rejects(s.create('/big', new Uint8Array(MAX_VALUE_BYTES - 10)), (e: unknown) => {
          assert.ok(e instanceof ValueTooLargeError, String(e));
          assert.equal(e.size, MAX_VALUE_BYTES - 10);
          return true;
        });
        assert.equal(await s.currentRevision(), before);
        assert.ok((await s.create('/fine', new Uint8Array(1024 * 1024))).succeeded, 'the store still works');
      } finally {
        await s.close();
      }
    } finally {
      await small.stop();
    }
  });
});
