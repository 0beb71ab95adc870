import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from './memory/memory-store.ts';
import { instrumentStore, resourceFromKey, type StorageMetricsSink } from './metrics.ts';
import { ValueTooLargeError, MAX_VALUE_BYTES } from './interface.ts';

function recorder() {
  const requests: string[] = [];
  const lists: string[] = [];
  const events: string[] = [];
  const sink: StorageMetricsSink = {
    observeStorageRequest: (op, type, s, failed) => { assert.ok(s >= 0); requests.push(`${op} ${type}${failed ? ' failed' : ''}`); },
    observeStorageList: (type, c) => { lists.push(`${type} ${c.fetched}/${c.evaluated}/${c.returned}`); },
    observeStorageEvents: (type, n) => { events.push(`${type} ${n}`); },
  };
  return { sink, requests, lists, events };
}

void test('every call is timed under kube operation names and the resource of its key', async () => {
  const r = recorder();
  const store = instrumentStore(new MemoryStore(), r.sink);
  const c = await store.create('/registry/configmaps/ns/a', Buffer.from('1'));
  assert.ok(c.succeeded);
  await store.get('/registry/configmaps/ns/a');
  await store.update('/registry/configmaps/ns/a', Buffer.from('2'), { expectedModRevision: c.revision });
  await store.range('/registry/configmaps/');
  await store.range('/registry/configmaps/', { countOnly: true });
  store.noteList!('/registry/configmaps/', { fetched: 3, evaluated: 2, returned: 1 });
  await store.delete('/registry/configmaps/ns/a');
  await assert.rejects(store.create('/registry/example.com/widgets/ns/b', new Uint8Array(MAX_VALUE_BYTES + 1)), ValueTooLargeError);
  await store.close();
  assert.deepEqual(r.requests, [
    'create configmaps', 'get configmaps', 'update configmaps', 'listWithCount configmaps', 'listWithCount configmaps', 'delete configmaps',
    'create widgets.example.com failed',
  ]);
  // Ranges are timed; the LIST's cost is what its reader reports, once per LIST.
  assert.deepEqual(r.lists, ['configmaps 3/2/1']);
});

void test('watches count the events they deliver and still deliver them', async () => {
  const r = recorder();
  const store = instrumentStore(new MemoryStore(), r.sink, () => 'secrets');
  const got: number[] = [];
  const h = store.watch('/registry/secrets/', { fromRevision: 0 }, { onEvents: (evs) => got.push(evs.length), onError: () => {} });
  await store.create('/registry/secrets/ns/a', Buffer.from('x'));
  await new Promise((res) => setTimeout(res, 20));
  h.dispose();
  await store.close();
  assert.deepEqual(got, [1]);
  assert.deepEqual(r.events, ['secrets 1']);
});

void test('resourceFromKey: kube group-resource strings from the key layout', () => {
  assert.equal(resourceFromKey('/registry/configmaps/ns/a'), 'configmaps');
  assert.equal(resourceFromKey('/registry/example.com/widgets/ns/a'), 'widgets.example.com');
});
