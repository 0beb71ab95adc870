import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import type { ResourceDef } from '../../api/types.ts';
import type { RestRegistry, RestStorage } from '../../registry/rest.ts';
import type { CachedObject } from '../../storage/cacher/types.ts';
import { collectorView, Monitors } from './monitors.ts';

// Retry timers are unref'd (they must not hold a server process open): keep this test's event loop alive.
const keepAlive = setInterval(() => {}, 1000);
after(() => clearInterval(keepAlive));

const def = { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true, storagePrefix: '/registry/deployments/' } as ResourceDef;
const obj: KObject = {
  apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 1 },
  metadata: { name: 'd', namespace: 'ns', uid: 'u1', resourceVersion: '5', managedFields: [{ manager: 'm', operation: 'Update' }] },
};

function fakeRegistry(failures: number): { registry: RestRegistry; lists: () => number; watches: () => number } {
  let lists = 0;
  let watches = 0;
  const storage = {
    def,
    async list() {
      lists++;
      if (lists <= failures) throw new Error('storage unavailable');
      return { items: [{ object: obj } as CachedObject], resourceVersion: '5' };
    },
    async watch() {
      watches++;
      return { dispose() {} };
    },
  } as unknown as RestStorage;
  return { registry: { lookup: (g, v, r) => (g === 'apps' && v === 'v1' && r === 'deployments' ? storage : undefined) }, lists: () => lists, watches: () => watches };
}

void test('a failed first list is retried; synced() waits for it; cached() reads the copy by group and kind', async () => {
  const f = fakeRegistry(2);
  const seen: string[] = [];
  const logs: string[] = [];
  const m = new Monitors({ registry: f.registry, handler: { onUpsert: (d, o) => seen.push(`${d.kind} ${o.metadata.name}`), onDelete: () => {} }, log: (l) => logs.push(l) });
  m.add(def);
  m.add({ ...def, version: 'v1beta2' });
  assert.equal(m.cached('apps/v1', 'Deployment', 'ns', 'd'), undefined, 'not synced yet');
  await m.synced();
  assert.equal(f.lists(), 3);
  assert.equal(f.watches(), 1, 'one informer per storage location');
  assert.deepEqual(seen, ['Deployment d']);
  assert.equal(logs.length, 2);
  assert.match(logs[0]!, /cannot list deployments\.apps \(retry in 50 ms\): storage unavailable/);
  // The copy is metadata only (kube's GC watches with metadata informers), without managedFields.
  assert.deepEqual(m.cached('apps/v1beta1', 'Deployment', 'ns', 'd'), { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'ns', uid: 'u1', resourceVersion: '5' } }, 'any version of the kind');
  assert.equal(m.cached('apps/v1', 'Deployment', 'other', 'd'), undefined);
  assert.equal(m.cached('extensions/v1beta1', 'Deployment', 'ns', 'd'), undefined);
  m.stop();
});

void test('stop() during a retry wait ends it: synced() resolves, no more lists', async () => {
  const f = fakeRegistry(1000);
  const m = new Monitors({ registry: f.registry, handler: { onUpsert: () => {}, onDelete: () => {} } });
  m.add(def);
  while (f.lists() < 1) await new Promise((r) => setImmediate(r));
  m.stop();
  await m.synced();
  const n = f.lists();
  await new Promise((r) => setTimeout(r, 120));
  assert.equal(f.lists(), n);
});

void test('collectorView keeps identity, version, owners, finalizers and deletion state, nothing else', () => {
  const owners = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u0', blockOwnerDeletion: true }];
  const full: KObject = {
    apiVersion: 'v1', kind: 'Secret', data: { k: 'dg==' },
    metadata: {
      name: 's', namespace: 'ns', uid: 'u2', resourceVersion: '9', labels: { a: 'b' }, annotations: { big: 'x'.repeat(1000) },
      creationTimestamp: '2026-11-27T00:00:00Z', deletionTimestamp: '2026-11-27T00:01:00Z', deletionGracePeriodSeconds: 0,
      finalizers: ['foregroundDeletion'], ownerReferences: owners, managedFields: [{ manager: 'm', operation: 'Update' }],
    },
  };
  assert.deepEqual(collectorView(full), {
    apiVersion: 'v1', kind: 'Secret',
    metadata: { name: 's', namespace: 'ns', uid: 'u2', resourceVersion: '9', ownerReferences: owners, finalizers: ['foregroundDeletion'], deletionTimestamp: '2026-11-27T00:01:00Z' },
  });
  // Cluster-scoped, nothing optional: no namespace key, no empty owner or finalizer lists.
  assert.deepEqual(collectorView({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', uid: 'u3', resourceVersion: '2', labels: { x: 'y' } } }), {
    apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', uid: 'u3', resourceVersion: '2' },
  });
});
