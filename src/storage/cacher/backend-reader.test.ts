import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from '../memory/memory-store.ts';
import type { ListCost, StoreReader } from '../interface.ts';
import { backendList } from './backend-reader.ts';
import { PREFIX, codec, putPod } from './testing/helpers.ts';
import type { SelectionPredicate } from './types.ts';

/** The store as a reader that records the LIST costs reported to it. */
function recording(store: MemoryStore): { reader: StoreReader; costs: ListCost[] } {
  const costs: ListCost[] = [];
  const reader: StoreReader = {
    get: (k, o) => store.get(k, o), range: (p, o) => store.range(p, o), currentRevision: () => store.currentRevision(),
    watch: (p, o, l) => store.watch(p, o, l), noteList: (p, c) => { assert.equal(p, PREFIX); costs.push(c); },
  };
  return { reader, costs };
}

const blue: SelectionPredicate = { empty: false, matches: (a) => a.labels['color'] === 'blue' };

void test('one LIST reports what it fetched, tested and returned, as kube\'s storage list counters', async () => {
  const store = new MemoryStore();
  for (let i = 0; i < 6; i++) await putPod(store, 'ns', `p${i}`, { color: i % 3 === 0 ? 'blue' : 'red' });
  await store.create(`${PREFIX}ns/bad`, Buffer.from('not json'));
  const { reader, costs } = recording(store);

  const all = await backendList(reader, codec, PREFIX, { revision: 0 });
  assert.equal(all.items.length, 6);
  const filtered = await backendList(reader, codec, PREFIX, { revision: 0, predicate: blue });
  assert.equal(filtered.items.length, 2);
  const page = await backendList(reader, codec, PREFIX, { revision: 0, limit: 2 });
  assert.equal(page.items.length, 2);
  // Undecodable values are fetched but never tested; `bad` sorts first, so the page of 2 needed a second range.
  assert.deepEqual(costs, [
    { fetched: 7, evaluated: 6, returned: 6 },
    { fetched: 7, evaluated: 6, returned: 2 },
    { fetched: 3, evaluated: 2, returned: 2 },
  ]);
  await store.close();
});

void test('a LIST that fails part way still reports its cost', async () => {
  const store = new MemoryStore();
  await putPod(store, 'ns', 'a');
  const { reader, costs } = recording(store);
  const failing: StoreReader = { ...reader, range: () => Promise.reject(new Error('store down')) };
  await assert.rejects(backendList(failing, codec, PREFIX, { revision: 0 }), /store down/);
  assert.deepEqual(costs, [{ fetched: 0, evaluated: 0, returned: 0 }]);
  await store.close();
});
