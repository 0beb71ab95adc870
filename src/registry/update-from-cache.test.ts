/**
 * guaranteedUpdate with `fromCache` (server-side apply's no-op path): the first attempt starts from the watch
 * cache's current revision, and an update that changes nothing answers that cached revision. What must hold:
 * the answer is never older than the latest committed write, a write still goes through the guard, and the
 * shared cached object is never changed.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../machinery/objects.ts';
import { MemoryStore } from '../storage/memory/memory-store.ts';
import type { Store, WatchHandle, WatchListener, WatchOptions } from '../storage/interface.ts';
import { createRegistry, type Registry } from './registry.ts';
import type { Admission, AdmissionAttributes } from './admission.ts';
import { cm, sys, testCatalog } from './testing/registry.ts';

/** The store with its watch events delivered a few milliseconds late: the watch cache lags every write. */
function lateWatches(store: MemoryStore, ms: number): Store {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'watch') {
        return (prefix: string, opts: WatchOptions, l: WatchListener): WatchHandle => target.watch(prefix, opts, {
          onEvents: (e) => { const events = [...e]; setTimeout(() => l.onEvents(events), ms); },
          onProgress: (r) => { setTimeout(() => l.onProgress?.(r), ms); },
          onError: (e) => l.onError(e),
        });
      }
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

void describe('guaranteedUpdate from the watch cache', () => {
  const base = new MemoryStore();
  const env = { store: lateWatches(base, 3) };
  let registry: Registry;
  before(async () => { registry = await createRegistry({ catalog: testCatalog(), store: env.store, cache: true }); });
  after(async () => { await registry.stop(); await base.close(); });
  const cms = () => registry.lookup('', 'v1', 'configmaps')!;
  const deps = () => registry.lookup('apps', 'v1', 'deployments')!;
  const same = (cur: KObject | undefined): KObject => cur!;
  const opts = { keepManagedFields: true, fromCache: true } as const;

  void it('a no-op answers the cached revision itself, frozen and equal to a GET', async () => {
    const created = await cms().create(sys('default'), cm('nc1'), {});
    await cms().get(sys('default'), 'nc1', {}); // a consistent read: the cache has caught up
    const r = await cms().guaranteedUpdate(sys('default'), 'nc1', same, opts);
    assert.equal(r.created, false);
    assert.equal(r.object.metadata.resourceVersion, created.metadata.resourceVersion);
    assert.ok(r.cached, 'answered from the cache');
    assert.equal(r.cached.object, r.object);
    assert.ok(Object.isFrozen(r.object));
    assert.equal(r.cached, await cms().get(sys('default'), 'nc1', {}));
    // Without the option the loop reads the store as before and answers a private copy.
    const plain = await cms().guaranteedUpdate(sys('default'), 'nc1', same, { keepManagedFields: true });
    assert.equal(plain.cached, undefined);
    assert.deepEqual(plain.object, r.object);
  });

  void it('never answers an older revision than the latest write, however far the cache lags', async () => {
    await cms().create(sys('default'), cm('nc2', { n: '0' }), {});
    await cms().get(sys('default'), 'nc2', {}); // the cache holds it
    for (let i = 1; i <= 20; i++) {
      // Written behind the registry's back, straight into the store: the cache learns of it only by its watch.
      const key = '/registry/configmaps/default/nc2';
      const cur = (await env.store.get(key))!;
      const obj = JSON.parse(Buffer.from(cur.value).toString('utf8')) as KObject;
      obj['data'] = { n: String(i) };
      const w = await env.store.update(key, Buffer.from(JSON.stringify(obj)), { expectedModRevision: cur.modRevision });
      assert.ok(w.succeeded);
      // Odd rounds give the cache time to catch up; even rounds ask while it still holds the previous revision.
      if (i % 2 === 1) await new Promise((r) => setTimeout(r, 10));
      const r = await cms().guaranteedUpdate(sys('default'), 'nc2', same, opts);
      assert.equal(r.object.metadata.resourceVersion, String(w.revision), `round ${i}`);
      assert.deepEqual(r.object['data'], { n: String(i) });
    }
  });

  void it('after delete and re-create under the same name, the new object is the current one', async () => {
    const first = await cms().create(sys('default'), cm('nc3', { v: 'old' }), {});
    await cms().guaranteedUpdate(sys('default'), 'nc3', same, opts);
    await cms().delete(sys('default'), 'nc3', {});
    const again = await cms().create(sys('default'), cm('nc3', { v: 'new' }), {});
    assert.notEqual(again.metadata.uid, first.metadata.uid);
    const r = await cms().guaranteedUpdate(sys('default'), 'nc3', same, opts);
    assert.equal(r.object.metadata.uid, again.metadata.uid);
    assert.equal(r.object.metadata.resourceVersion, again.metadata.resourceVersion);
    assert.deepEqual(r.object['data'], { v: 'new' });
    // Deleted and not re-created: the update finds nothing (404), it does not answer the cached past.
    await cms().delete(sys('default'), 'nc3', {});
    await assert.rejects(cms().guaranteedUpdate(sys('default'), 'nc3', same, opts), (e: { code?: number }) => e.code === 404);
  });

  void it('a change is written through the guard and leaves the cached object as it was', async () => {
    const created = await deps().create(sys('default'), {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd1', labels: { app: 'd1' } },
      spec: { replicas: 1, selector: { matchLabels: { app: 'd1' } }, template: { metadata: { labels: { app: 'd1' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
    }, {});
    const before = await deps().get(sys('default'), 'd1', {});
    const snapshot = structuredClone(before.object);
    const r = await deps().guaranteedUpdate(sys('default'), 'd1', (cur) => {
      (cur!['spec'] as { replicas: number }).replicas = 3;
      return cur!;
    }, opts);
    assert.equal(r.cached, undefined);
    assert.equal((r.object['spec'] as { replicas: number }).replicas, 3);
    assert.equal(r.object.metadata.generation, (created.metadata.generation ?? 0) + 1);
    assert.notEqual(r.object.metadata.resourceVersion, created.metadata.resourceVersion);
    assert.deepEqual(before.object, snapshot, 'the shared cached revision was not changed');
    const got = await deps().get(sys('default'), 'd1', {});
    assert.equal(got.object.metadata.resourceVersion, r.object.metadata.resourceVersion);
  });

  void it('dry-run: a change is answered but not stored, a no-op answers the cached revision', async () => {
    const created = await cms().create(sys('default'), cm('nc4', { a: '1' }), {});
    const dry = sys('default', { dryRun: true });
    const changed = await cms().guaranteedUpdate(dry, 'nc4', (cur) => ({ ...cur!, data: { a: '2' } }), opts);
    assert.deepEqual(changed.object['data'], { a: '2' });
    const noop = await cms().guaranteedUpdate(dry, 'nc4', same, opts);
    assert.equal(noop.object.metadata.resourceVersion, created.metadata.resourceVersion);
    assert.deepEqual(noop.object['data'], { a: '1' });
    assert.deepEqual((await cms().get(sys('default'), 'nc4', {})).object['data'], { a: '1' });
  });
});

void describe('guaranteedUpdate from the watch cache: `unchanged` and admission', () => {
  const base = new MemoryStore();
  /** What the test's mutating admission does to attrs.object: nothing, read it, or change it. */
  let admit: (a: AdmissionAttributes) => void = () => {};
  let seen = 0;
  let registry: Registry;
  before(async () => {
    const admission: Admission = { admit: async (a) => { seen++; admit(a); }, validate: async () => {} };
    registry = await createRegistry({ catalog: testCatalog(), store: base, cache: true, admission: () => admission });
  });
  after(async () => { await registry.stop(); await base.close(); });
  const cms = () => registry.lookup('', 'v1', 'configmaps')!;
  const never = (): KObject => { throw new Error('produce ran although unchanged() said it need not'); };
  const opts = { keepManagedFields: true, fromCache: true, unchanged: () => true } as const;

  void it('a known no-op skips produce, still runs admission, and answers the cached revision', async () => {
    const created = await cms().create(sys('default'), cm('u1', { a: '1' }), {});
    await cms().get(sys('default'), 'u1', {});
    admit = () => {};
    // The first no-op teaches the loop that this revision prepares to itself; the next ones are known.
    for (let i = 0; i < 3; i++) {
      const before = seen;
      const r = await cms().guaranteedUpdate(sys('default'), 'u1', never, opts);
      assert.equal(seen, before + 1, 'mutating admission ran');
      assert.equal(r.object.metadata.resourceVersion, created.metadata.resourceVersion);
      assert.ok(r.cached);
    }
    // A plugin that only reads the object gets a copy; nothing changes.
    admit = (a) => { assert.equal(a.object?.metadata.name, 'u1'); };
    const read = await cms().guaranteedUpdate(sys('default'), 'u1', never, opts);
    assert.equal(read.object.metadata.resourceVersion, created.metadata.resourceVersion);
    admit = () => {};
  });

  void it('a mutating plugin that changes the object turns the known no-op into a write; the cache is intact', async () => {
    admit = () => {};
    const created = await cms().create(sys('default'), cm('u2', { a: '1' }), {});
    const live = await cms().get(sys('default'), 'u2', {});
    await cms().guaranteedUpdate(sys('default'), 'u2', never, opts);
    await cms().guaranteedUpdate(sys('default'), 'u2', never, opts);
    admit = (a) => { a.object!.metadata.labels = { stamped: 'yes' }; };
    const r = await cms().guaranteedUpdate(sys('default'), 'u2', never, opts);
    assert.equal(r.cached, undefined);
    assert.deepEqual(r.object.metadata.labels, { stamped: 'yes' });
    assert.notEqual(r.object.metadata.resourceVersion, created.metadata.resourceVersion);
    assert.equal(live.object.metadata.labels, undefined, 'the cached revision was not changed');
    // Replacing the object works the same way.
    admit = (a) => { a.object = { ...structuredClone(a.oldObject!), data: { a: '2' } }; };
    const replaced = await cms().guaranteedUpdate(sys('default'), 'u2', (cur) => cur!, opts);
    assert.deepEqual(replaced.object['data'], { a: '2' });
    assert.notEqual(replaced.object.metadata.resourceVersion, r.object.metadata.resourceVersion);
  });
});

void it('updatesFromCache=false (encryption at rest): every update reads the store, no-ops included', async () => {
  const base = new MemoryStore();
  const registry = await createRegistry({ catalog: testCatalog(), store: base, cache: true, updatesFromCache: false });
  try {
    const cms = registry.lookup('', 'v1', 'configmaps')!;
    const created = await cms.create(sys('default'), cm('enc'), {});
    await cms.get(sys('default'), 'enc', {});
    const r = await cms.guaranteedUpdate(sys('default'), 'enc', (cur) => cur!, { keepManagedFields: true, fromCache: true, unchanged: () => true });
    assert.equal(r.cached, undefined);
    assert.equal(r.object.metadata.resourceVersion, created.metadata.resourceVersion);
    assert.ok(!Object.isFrozen(r.object), 'a private copy decoded from the store');
  } finally {
    await registry.stop();
    await base.close();
  }
});
