/**
 * The collector's decisions with a fake registry (operations recorded, no watch timing): when work starts, which
 * reads and writes each case issues, retries.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject, OwnerReference } from '../../machinery/objects.ts';
import type { ResourceDef } from '../../api/types.ts';
import { GarbageCollector } from './collector.ts';
import type { Identity } from './graph.ts';
import type { GcOperations, Policy } from './operations.ts';
import { type ResourceResolver, UnknownKindError } from './resources.ts';

const configmaps = { group: '', version: 'v1', kind: 'ConfigMap', namespaced: true } as ResourceDef;

class FakeWorld {
  readonly objects = new Map<string, KObject>();
  readonly calls: string[] = [];
  failOrphanOf = new Set<string>();

  private key(i: { kind: string; namespace: string; name: string }): string {
    return `${i.kind}/${i.namespace}/${i.name}`;
  }

  put(obj: KObject): KObject {
    this.objects.set(this.key({ kind: obj.kind!, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name! }), obj);
    return obj;
  }

  readonly ops = {
    get: async (i: Identity) => {
      this.calls.push(`get ${i.name}`);
      return this.objects.get(this.key(i));
    },
    delete: async (i: Identity, _rv: string, _owners: readonly OwnerReference[], policy: Policy) => {
      this.calls.push(`delete ${i.name} ${policy}`);
      return this.objects.delete(this.key(i));
    },
    removeOwnerReferences: async (i: Identity, uids: readonly string[]) => {
      if (this.failOrphanOf.has(i.name)) {
        this.failOrphanOf.delete(i.name);
        throw new Error('conflict');
      }
      this.calls.push(`strip ${i.name} ${uids.join(',')}`);
      return true;
    },
    unblockOwnerReferences: async (i: Identity) => {
      this.calls.push(`unblock ${i.name}`);
      return true;
    },
    removeFinalizer: async (i: Identity, f: string) => {
      this.calls.push(`unfinalize ${i.name} ${f}`);
      return true;
    },
  };

  readonly resolver = {
    resolve: (apiVersion: string, kind: string) => {
      if (kind === 'Widget') throw new UnknownKindError(apiVersion, kind);
      return { def: { namespaced: kind !== 'ClusterRole' } };
    },
  };

  collector(): GarbageCollector {
    return new GarbageCollector({ ops: this.ops as unknown as GcOperations, resolver: this.resolver as unknown as ResourceResolver, baseDelayMs: 1, maxDelayMs: 5 });
  }
}

let uidSeq = 0;
function cm(name: string, owners: OwnerReference[] = [], extra: Partial<KObject['metadata']> = {}): KObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', uid: `uid-${name}-${++uidSeq}`, resourceVersion: '1', ...(owners.length ? { ownerReferences: owners } : {}), ...extra } };
}
const ref = (o: KObject, extra: Partial<OwnerReference> = {}): OwnerReference => ({ apiVersion: 'v1', kind: o.kind!, name: o.metadata.name!, uid: o.metadata.uid!, ...extra });
const now = '2026-01-01T00:00:00Z';

async function idle(gc: GarbageCollector): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await Promise.all([gc.deleteQueue.whenIdle(), gc.orphanQueue.whenIdle()]);
    await new Promise((r) => setImmediate(r));
  }
}

void test('nothing runs before activate(); then a dependent of a missing owner is deleted in the background', async () => {
  const w = new FakeWorld();
  const gc = w.collector();
  const dep = w.put(cm('dep', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'gone', uid: 'uid-gone' }]));
  gc.onUpsert(configmaps, dep);
  await idle(gc);
  assert.deepEqual(w.calls, []);
  gc.activate();
  await idle(gc);
  assert.deepEqual(w.calls, ['get dep', 'get gone', 'delete dep Background']);
  await gc.stop();
});

void test('objects with no links are not tracked; a deleted owner queues its dependents, one GET for many', async () => {
  const w = new FakeWorld();
  const gc = w.collector();
  gc.activate();
  const owner = w.put(cm('owner'));
  gc.onUpsert(configmaps, owner);
  assert.equal(gc.graph.size, 0);
  const d1 = w.put(cm('d1', [ref(owner)]));
  const d2 = w.put(cm('d2', [ref(owner)]));
  gc.onUpsert(configmaps, d1);
  gc.onUpsert(configmaps, d2);
  await idle(gc);
  // The virtual owner is verified through its dependents: both find it.
  assert.deepEqual(w.calls.filter((c) => c.startsWith('delete')), []);
  w.calls.length = 0;
  w.objects.delete('ConfigMap/ns/owner');
  gc.onDelete(owner);
  await idle(gc);
  assert.deepEqual(w.calls.sort(), ['delete d1 Background', 'delete d2 Background', 'get d1', 'get d2']);
  gc.onDelete(d1);
  gc.onDelete(d2);
  assert.equal(gc.graph.size, 0);
  await gc.stop();
});

void test('an existing orphan or foregroundDeletion finalizer on a garbage dependent decides the policy', async () => {
  const w = new FakeWorld();
  const gc = w.collector();
  gc.activate();
  const missing = { apiVersion: 'v1', kind: 'ConfigMap', name: 'missing', uid: 'uid-missing' };
  gc.onUpsert(configmaps, w.put(cm('keep-kids', [missing], { finalizers: ['orphan'] })));
  gc.onUpsert(configmaps, w.put(cm('fg-kids', [missing], { finalizers: ['foregroundDeletion'] })));
  await idle(gc);
  assert.ok(w.calls.includes('delete keep-kids Orphan'), w.calls.join('; '));
  assert.ok(w.calls.includes('delete fg-kids Foreground'), w.calls.join('; '));
  await gc.stop();
});

void test('orphaning: every dependent is stripped before the finalizer goes; a failure retries the whole item', async () => {
  const w = new FakeWorld();
  const gc = w.collector();
  gc.activate();
  const owner = w.put(cm('owner'));
  const a = w.put(cm('a', [ref(owner)]));
  const b = w.put(cm('b', [ref(owner)]));
  gc.onUpsert(configmaps, a);
  gc.onUpsert(configmaps, b);
  await idle(gc);
  w.calls.length = 0;
  w.failOrphanOf.add('b');
  const deleting = w.put({ ...owner, metadata: { ...owner.metadata, deletionTimestamp: now, finalizers: ['orphan'] } });
  gc.onUpsert(configmaps, deleting);
  // The retry runs after a backoff timer: wait for it rather than for the queue.
  for (let i = 0; i < 200 && !w.calls.includes('unfinalize owner orphan'); i++) await new Promise((r) => setTimeout(r, 5));
  const strips = w.calls.filter((c) => c.startsWith('strip'));
  assert.deepEqual([...new Set(strips)].sort(), [`strip a ${owner.metadata.uid}`, `strip b ${owner.metadata.uid}`]);
  assert.equal(w.calls.at(-1), 'unfinalize owner orphan');
  assert.equal(w.calls.filter((c) => c.startsWith('unfinalize')).length, 1);
  await gc.stop();
});

void test('foreground: dependents are queued; the finalizer goes only when the last blocking dependent is gone', async () => {
  const w = new FakeWorld();
  const gc = w.collector();
  gc.activate();
  const owner = w.put(cm('owner'));
  const blocking = w.put(cm('blocking', [ref(owner, { blockOwnerDeletion: true })], { finalizers: ['hold'] }));
  gc.onUpsert(configmaps, blocking);
  await idle(gc);
  w.calls.length = 0;
  const deleting = w.put({ ...owner, metadata: { ...owner.metadata, deletionTimestamp: now, finalizers: ['foregroundDeletion'] } });
  gc.onUpsert(configmaps, deleting);
  await idle(gc);
  assert.ok(w.calls.includes('delete blocking Background'), w.calls.join('; '));
  assert.ok(!w.calls.some((c) => c.startsWith('unfinalize')));
  // The dependent is terminating (its own finalizer holds it): nothing more happens until it is gone.
  gc.onUpsert(configmaps, { ...blocking, metadata: { ...blocking.metadata, deletionTimestamp: now } });
  await idle(gc);
  assert.ok(!w.calls.some((c) => c.startsWith('unfinalize')));
  gc.onDelete(blocking);
  await idle(gc);
  assert.equal(w.calls.at(-1), 'unfinalize owner foregroundDeletion');
  await gc.stop();
});

void test('a live owner keeps the dependent; its dangling and waiting references are stripped', async () => {
  const w = new FakeWorld();
  const gc = w.collector();
  gc.activate();
  const live = w.put(cm('live'));
  const waiting = w.put(cm('waiting', [], { deletionTimestamp: now, finalizers: ['foregroundDeletion'] }));
  const dep = w.put(cm('dep', [ref(live), ref(waiting), { apiVersion: 'v1', kind: 'ConfigMap', name: 'gone', uid: 'uid-gone2' }]));
  gc.onUpsert(configmaps, dep);
  await idle(gc);
  assert.ok(w.calls.includes(`strip dep uid-gone2,${waiting.metadata.uid}`), w.calls.join('; '));
  assert.ok(!w.calls.some((c) => c.startsWith('delete')));
  await gc.stop();
});

void test('unknown owner kinds are retried with backoff, never deleted; stop() cancels the retries', async () => {
  const w = new FakeWorld();
  const logs: string[] = [];
  const gc = new GarbageCollector({ ops: w.ops as unknown as GcOperations, resolver: w.resolver as unknown as ResourceResolver, baseDelayMs: 1, maxDelayMs: 2, log: (m) => logs.push(m) });
  gc.activate();
  gc.onUpsert(configmaps, w.put(cm('dep', [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'uid-w' }])));
  for (let i = 0; i < 200 && logs.length < 3; i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(logs.length >= 3, 'retried');
  assert.match(logs[0]!, /unable to find the resource for Widget in example\.com\/v1/);
  assert.ok(!w.calls.some((c) => c.startsWith('delete')));
  await gc.stop();
  const n = logs.length;
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(logs.length, n);
});

void test('owners found in the informers\' copy need no registry read; a miss is checked with the registry', async () => {
  const w = new FakeWorld();
  const owner = w.put(cm('owner'));
  const cachedCalls: string[] = [];
  const gc = new GarbageCollector({
    ops: w.ops as unknown as GcOperations, resolver: w.resolver as unknown as ResourceResolver,
    cached: (r, ns) => {
      cachedCalls.push(`${ns}/${r.name}`);
      return r.name === 'owner' ? owner : undefined;
    },
  });
  gc.activate();
  gc.onUpsert(configmaps, w.put(cm('kept', [ref(owner)])));
  gc.onUpsert(configmaps, w.put(cm('stale', [{ ...ref(owner), name: 'gone', uid: 'uid-gone3' }])));
  await idle(gc);
  assert.deepEqual(cachedCalls.sort(), ['ns/gone', 'ns/owner']);
  assert.ok(!w.calls.includes('get owner'), w.calls.join('; '));
  assert.ok(w.calls.includes('get gone') && w.calls.includes('delete stale Background'), w.calls.join('; '));
  await gc.stop();
});
