/**
 * The `ObjectReader` behaviour both readers must show (Cacher and DirectReader run it over a MemoryStore):
 * key order, namespace prefixes, consistent and exact reads, pagination with and without predicates,
 * watch initial state, replay, predicate transitions and DELETED revisions. Not a test file by itself.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makePredicate } from '../../../registry/predicate.ts';
import { CompactedError, type Store } from '../../interface.ts';
import { MemoryStore } from '../../memory/memory-store.ts';
import { deletePod, keyOf, PREFIX, putPod, RecordingSink, until } from './helpers.ts';
import type { ObjectReader } from '../types.ts';

export interface ReaderFixture {
  readonly reader: ObjectReader;
  close(): Promise<void>;
}

const FIELDS = new Set(['metadata.name', 'metadata.namespace', 'spec.nodeName']);
const consistent = { kind: 'consistent' } as const;
const names = (items: readonly { object: { metadata: { name?: string } } }[]): string[] => items.map((i) => i.object.metadata.name ?? '');

export interface StoreFixture {
  readonly store: Store;
  close(): Promise<void>;
}

const memoryStore = async (): Promise<StoreFixture> => {
  const store = new MemoryStore();
  return { store, close: () => store.close() };
};

export function runReaderContract(label: string, make: (store: Store) => Promise<ReaderFixture>, openStore: () => Promise<StoreFixture> = memoryStore): void {
  void describe(`${label}: ObjectReader contract`, () => {
    let sfx: StoreFixture;
    let store: Store;
    let fx: ReaderFixture;
    let r: ObjectReader;

    before(async () => {
      sfx = await openStore();
      store = sfx.store;
      // Out of key order on purpose, in two namespaces.
      for (const [ns, n, app] of [['b', 'p3', 'web'], ['a', 'p2', 'db'], ['a', 'p1', 'web'], ['b', 'p4', 'db'], ['a', 'p0', 'web']] as const) {
        await putPod(store, ns, n, { app });
      }
      fx = await make(store);
      r = fx.reader;
    });
    after(async () => {
      await fx.close();
      await sfx.close();
    });

    void it('lists in key order with the store revision', async () => {
      const res = await r.list(PREFIX, { read: consistent });
      assert.deepEqual(names(res.items), ['p0', 'p1', 'p2', 'p3', 'p4']);
      assert.equal(res.revision, await store.currentRevision());
      assert.equal(res.lastKey, undefined);
      assert.equal(res.remaining, undefined);
    });

    void it('a namespace prefix lists only that namespace', async () => {
      assert.deepEqual(names((await r.list(`${PREFIX}b/`, { read: consistent })).items), ['p3', 'p4']);
    });

    void it('objects are decoded, frozen, with resourceVersion = modRevision', async () => {
      const o = await r.get(keyOf('a', 'p1'), { read: consistent });
      assert.ok(o);
      assert.equal(o.object.metadata.resourceVersion, String(o.kv.modRevision));
      assert.ok(Object.isFrozen(o.object) && Object.isFrozen(o.object.metadata) && Object.isFrozen(o.object.metadata.labels));
      assert.equal(o.attrs.name, 'p1');
      assert.equal(await r.get(keyOf('a', 'nope'), { read: consistent }), undefined);
    });

    void it('a consistent read sees a write made just before it', async () => {
      await putPod(store, 'a', 'p1', { app: 'web', v: '2' });
      const o = await r.get(keyOf('a', 'p1'), { read: consistent });
      assert.equal(o?.object.metadata.labels?.['v'], '2');
      const l = await r.list(PREFIX, { read: consistent, predicate: makePredicate({ labelSelector: 'v=2', allowedFields: FIELDS }) });
      assert.deepEqual(names(l.items), ['p1']);
    });

    void it('exact reads at a past revision see that revision', async () => {
      const before = await store.currentRevision();
      await putPod(store, 'a', 'p2', { app: 'db', v: 'later' });
      await r.get(keyOf('a', 'p2'), { read: consistent });
      const old = await r.get(keyOf('a', 'p2'), { read: { kind: 'exact', revision: before } });
      assert.equal(old?.object.metadata.labels?.['v'], undefined);
      const l = await r.list(PREFIX, { read: { kind: 'exact', revision: before } });
      assert.equal(l.revision, before);
      assert.equal(l.items.find((i) => i.object.metadata.name === 'p2')?.object.metadata.labels?.['v'], undefined);
    });

    void it('paginates with limit/afterKey and reports remaining', async () => {
      const p1 = await r.list(PREFIX, { read: consistent, limit: 2 });
      assert.deepEqual(names(p1.items), ['p0', 'p1']);
      assert.equal(p1.lastKey, keyOf('a', 'p1'));
      assert.equal(p1.remaining, 3);
      const p2 = await r.list(PREFIX, { read: { kind: 'exact', revision: p1.revision }, limit: 2, afterKey: p1.lastKey! });
      assert.deepEqual(names(p2.items), ['p2', 'p3']);
      assert.equal(p2.remaining, 1);
      const p3 = await r.list(PREFIX, { read: { kind: 'exact', revision: p1.revision }, limit: 2, afterKey: p2.lastKey! });
      assert.deepEqual(names(p3.items), ['p4']);
      assert.equal(p3.lastKey, undefined);
      assert.equal(p3.remaining, undefined);
    });

    void it('paginates with a predicate: fills each page, no remaining count', async () => {
      const predicate = makePredicate({ labelSelector: 'app=web', allowedFields: FIELDS });
      const seen: string[] = [];
      let afterKey: string | undefined;
      let pages = 0;
      const first = await r.list(PREFIX, { read: consistent, limit: 1, predicate });
      let page = first;
      for (;;) {
        pages++;
        assert.equal(page.remaining, undefined);
        assert.ok(page.items.length <= 1);
        seen.push(...names(page.items));
        if (!page.lastKey) break;
        afterKey = page.lastKey;
        page = await r.list(PREFIX, { read: { kind: 'exact', revision: first.revision }, limit: 1, afterKey, predicate });
      }
      assert.deepEqual(seen, ['p0', 'p1', 'p3']);
      assert.ok(pages >= 3);
    });

    void it('exact read below the compacted revision fails with CompactedError', async () => {
      const old = (await store.currentRevision()) - 1;
      await putPod(store, 'b', 'p9');
      await store.compact(await store.currentRevision());
      await assert.rejects(r.list(PREFIX, { read: { kind: 'exact', revision: old } }), CompactedError);
      await deletePod(store, 'b', 'p9');
    });

    void it('watch from unset rv: ADDED for the state, then changes; DELETED at the delete revision', async () => {
      const sink = new RecordingSink();
      const w = r.watch(`${PREFIX}b/`, {}, sink);
      try {
        await until(() => sink.events.length >= 2, 5000, 'initial events');
        assert.deepEqual(sink.lines.map((l) => l.split('@')[0]), ['ADDED p3', 'ADDED p4']);
        const rc = await putPod(store, 'b', 'p5');
        const rd = await deletePod(store, 'b', 'p3');
        await putPod(store, 'a', 'elsewhere');
        await until(() => sink.events.length >= 4, 5000, 'live events');
        assert.deepEqual(sink.lines.slice(2), [`ADDED p5@${rc}`, `DELETED p3@${rd}`]);
        assert.equal(sink.events[3]!.revision, rd);
        await putPod(store, 'b', 'p3', { app: 'web' });
      } finally {
        w.dispose();
      }
    });

    void it('watch from a revision replays later changes only, with predicate transitions', async () => {
      const from = await store.currentRevision();
      const sink = new RecordingSink();
      const w = r.watch(PREFIX, { fromRevision: from, predicate: makePredicate({ labelSelector: 'tier=fe', allowedFields: FIELDS }) }, sink);
      try {
        const r1 = await putPod(store, 'a', 't1', { tier: 'fe' }); // created matching → ADDED
        const r2 = await putPod(store, 'a', 't1', { tier: 'fe', x: '1' }); // still matching → MODIFIED
        const r3 = await putPod(store, 'a', 't1', { tier: 'be' }); // stops matching → DELETED (new state)
        await putPod(store, 'a', 't1', { tier: 'be', x: '2' }); // invisible
        const r5 = await putPod(store, 'a', 't1', { tier: 'fe' }); // matches again → ADDED
        const r6 = await deletePod(store, 'a', 't1'); // deleted while matching → DELETED
        await until(() => sink.events.length >= 5, 5000, 'transitions');
        assert.deepEqual(sink.lines, [`ADDED t1@${r1}`, `MODIFIED t1@${r2}`, `DELETED t1@${r3}`, `ADDED t1@${r5}`, `DELETED t1@${r6}`]);
        assert.equal(sink.events[2]!.object!.object.metadata.labels?.['tier'], 'be');
        assert.equal(sink.events[4]!.object!.object.metadata.labels?.['tier'], 'fe');
      } finally {
        w.dispose();
      }
    });

    void it('sendInitialEvents: state, then a BOOKMARK marking the end at the state revision', async () => {
      const sink = new RecordingSink();
      const w = r.watch(`${PREFIX}a/`, { sendInitialEvents: true, bookmarks: true, fromRevision: 0 }, sink);
      try {
        await until(() => sink.events.some((e) => e.initialEventsEnd), 5000, 'end bookmark');
        const end = sink.events.at(-1)!;
        assert.equal(end.type, 'BOOKMARK');
        assert.equal(end.object, undefined);
        const adds = sink.events.slice(0, -1);
        assert.ok(adds.every((e) => e.type === 'ADDED'));
        assert.deepEqual(names(adds.map((e) => e.object!)), ['elsewhere', 'p0', 'p1', 'p2']);
        assert.ok(end.revision >= Math.max(...adds.map((e) => e.revision)));
      } finally {
        w.dispose();
      }
    });
    void it('sendInitialEvents=false with rv unset: no state, only later changes', async () => {
      const sink = new RecordingSink();
      const w = r.watch(`${PREFIX}b/`, { sendInitialEvents: false }, sink);
      try {
        // Registration is asynchronous: keep writing until the watch shows a change, then check no state came.
        let rev = 0;
        for (let i = 0; i < 200 && sink.events.length === 0; i++) {
          rev = await putPod(store, 'b', 'sie', { i: String(i) });
          await new Promise((res) => setTimeout(res, 5));
        }
        await until(() => sink.events.some((e) => e.revision === rev), 5000, 'latest change');
        assert.ok(sink.events.every((e) => e.object?.object.metadata.name === 'sie'));
        await deletePod(store, 'b', 'sie');
      } finally {
        w.dispose();
      }
    });
  });
}
