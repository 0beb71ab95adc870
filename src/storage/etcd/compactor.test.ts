/** The periodic compactor, against a throwaway etcd (skipped with a reason when no etcd binary exists). */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Etcd3 } from 'etcd3';
import { startEtcd, type EtcdProcess } from '../../../test/support/etcd.ts';
import { CompactedError } from '../interface.ts';
import { COMPACT_REV_KEY, Compactor } from './compactor.ts';
import { openEtcdStore } from './etcd-store.ts';
import { enc } from './testing/helpers.ts';

let etcd: EtcdProcess | undefined;
let skipReason: string | false = false;

before(async () => {
  etcd = await startEtcd();
  if (!etcd) skipReason = 'no etcd binary found (install Debian etcd-server or set KEELSON_ETCD_BIN)';
  if (skipReason) console.log(`# SKIP etcd compactor tests: ${skipReason}`);
});
after(async () => {
  await etcd?.stop();
});

void it('two servers sharing etcd take turns: one compacts per round, at the revision of its previous round', async (t) => {
  if (skipReason) return t.skip(skipReason);
  const clientA = new Etcd3({ hosts: etcd!.endpoint });
  const clientB = new Etcd3({ hosts: etcd!.endpoint });
  const store = await openEtcdStore({ servers: [etcd!.endpoint], prefix: '/cmp', compactionIntervalMs: 0 });
  const compactedA: number[] = [];
  const compactedB: number[] = [];
  const errors: unknown[] = [];
  // Huge intervals: the test drives the rounds itself.
  const a = new Compactor({ client: clientA, intervalMs: 3_600_000, onCompacted: (r) => compactedA.push(r), onError: (e) => errors.push(e) });
  const b = new Compactor({ client: clientB, intervalMs: 3_600_000, onCompacted: (r) => compactedB.push(r), onError: (e) => errors.push(e) });
  try {
    const write = async (k: string): Promise<number> => {
      const r = await store.create(k, enc(k));
      assert.ok(r.succeeded);
      return r.revision;
    };
    await a.tick(); // A creates the coordination key and records where history starts
    const afterA1 = await store.currentRevision();
    await b.tick(); // B loses the round (stale view) and adopts A's
    await write('/x1');
    await a.tick(); // A wins again: compacts at what it recorded last round
    assert.deepEqual(compactedA, [afterA1]);
    assert.deepEqual(compactedB, []);
    assert.equal(await store.compactedRevision(), afterA1);
    await b.tick(); // B's view is stale again (A moved the key): no compaction
    assert.deepEqual(compactedB, []);
    const old = await write('/x2');
    await b.tick(); // now B's view is current: B compacts at the revision it recorded
    assert.equal(compactedB.length, 1);
    assert.ok(compactedB[0]! > afterA1 && compactedB[0]! < old + 1, `B compacted at ${compactedB[0]}`);
    await assert.rejects(store.get('/x1', { revision: afterA1 }), CompactedError);
    assert.deepEqual(errors, []);
    const key = await clientA.get(COMPACT_REV_KEY).string();
    assert.equal(key, String(compactedB[0]));
  } finally {
    await a.stop();
    await b.stop();
    clientA.close();
    clientB.close();
    await store.close();
  }
});

void it('a store with a compaction interval compacts by itself and stops on close', async (t) => {
  if (skipReason) return t.skip(skipReason);
  const store = await openEtcdStore({ servers: [etcd!.endpoint], prefix: '/auto', compactionIntervalMs: 100 });
  try {
    const start = await store.compactedRevision();
    // Keep writing until a round compacts past where we started (bounded: the test fails, not hangs).
    for (let i = 0; i < 200 && (await store.compactedRevision()) <= start; i++) {
      assert.ok((await store.create(`/k${i}`, enc('v'))).succeeded);
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.ok((await store.compactedRevision()) > start);
  } finally {
    await store.close();
  }
});
