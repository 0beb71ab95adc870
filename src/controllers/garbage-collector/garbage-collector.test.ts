/**
 * The garbage collector against the real registry (GenericStore + watch caches over MemoryStore) and the
 * built-in catalog: background cascades, orphaning, foreground waits, dangling and invalid references.
 */
import { builtinCatalog } from '../../registry/resources/groups/index.ts';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Catalog } from '../../api/catalog.ts';
import type { KObject, OwnerReference } from '../../machinery/objects.ts';
import { createRegistry, type Registry } from '../../registry/registry.ts';
import { MemoryStore } from '../../storage/memory/memory-store.ts';
import { systemContext } from '../../registry/system-context.ts';
import { type RunningGarbageCollector, startGarbageCollector } from './index.ts';

let store: MemoryStore;
let catalog: Catalog;
let registry: Registry;
let gc: RunningGarbageCollector;
const logs: string[] = [];

const s = (resource: string, group = '') => {
  const st = registry.lookup(group, 'v1', resource);
  assert.ok(st, `${resource}.${group} is served`);
  return st;
};
const ctx = (namespace = '') => systemContext({ namespace });

before(async () => {
  store = new MemoryStore();
  catalog = builtinCatalog();
  registry = await createRegistry({ catalog, store });
  for (const name of ['default', 'other']) {
    await s('namespaces').create(ctx(), { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, {});
  }
  gc = await startGarbageCollector({ registry, catalog, log: (m) => logs.push(m) });
  await gc.whenSynced();
});

after(async () => {
  await gc?.stop();
  await registry?.stop();
  await store?.close();
});

function ref(obj: KObject, extra: Partial<OwnerReference> = {}): OwnerReference {
  return { apiVersion: obj.apiVersion!, kind: obj.kind!, name: obj.metadata.name!, uid: obj.metadata.uid!, ...extra };
}

const podSpec = { containers: [{ name: 'c', image: 'busybox' }] };
const template = { metadata: { labels: { app: 'a' } }, spec: podSpec };

function deployment(name: string): KObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { selector: { matchLabels: { app: 'a' } }, template } };
}
function replicaSet(name: string, owners: OwnerReference[], finalizers?: string[]): KObject {
  return { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name, ownerReferences: owners, ...(finalizers ? { finalizers } : {}) }, spec: { selector: { matchLabels: { app: 'a' } }, template } };
}
function pod(name: string, owners: OwnerReference[]): KObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'a' }, ownerReferences: owners }, spec: podSpec };
}
function configMap(name: string, owners: OwnerReference[] = [], finalizers?: string[]): KObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(owners.length ? { ownerReferences: owners } : {}), ...(finalizers ? { finalizers } : {}) } };
}

async function create(resource: string, group: string, ns: string, obj: KObject): Promise<KObject> {
  return s(resource, group).create(ctx(ns), obj, {});
}

async function find(resource: string, group: string, ns: string, name: string): Promise<KObject | undefined> {
  try {
    return (await s(resource, group).get(ctx(ns), name, {})).object;
  } catch {
    return undefined;
  }
}

/** Polls (bounded) until `check` holds; the collector works from watch events, so outcomes are eventual. */
async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; collector log:\n${logs.join('\n')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function settle(): Promise<void> {
  // Let watch events reach the informers, then let the queues drain.
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setTimeout(r, 20));
    await gc.whenIdle();
  }
}

async function removeFinalizers(resource: string, group: string, ns: string, name: string): Promise<void> {
  await s(resource, group).guaranteedUpdate(ctx(ns), name, (cur) => ({ ...cur!, metadata: { ...cur!.metadata, finalizers: [] } }), {});
}

void test('background: deleting a deployment removes its replicaset, then the replicaset\'s pods', async () => {
  const d = await create('deployments', 'apps', 'default', deployment('web'));
  const rs = await create('replicasets', 'apps', 'default', replicaSet('web-1', [ref(d, { controller: true, blockOwnerDeletion: true })]));
  const p1 = await create('pods', '', 'default', pod('web-1-a', [ref(rs, { controller: true, blockOwnerDeletion: true })]));
  await create('pods', '', 'default', pod('web-1-b', [ref(rs, { controller: true, blockOwnerDeletion: true })]));
  const bystander = await create('pods', '', 'default', pod('bystander', []));
  await settle();
  assert.ok(await find('replicasets', 'apps', 'default', 'web-1'), 'a live owner keeps its dependents');

  const res = await s('deployments', 'apps').delete(ctx('default'), 'web', { propagationPolicy: 'Background' });
  assert.equal(res.deleted, true);
  await until('replicaset gone', async () => !(await find('replicasets', 'apps', 'default', 'web-1')));
  await until('pods gone', async () => !(await find('pods', '', 'default', 'web-1-a')) && !(await find('pods', '', 'default', 'web-1-b')));
  assert.equal((await find('pods', '', 'default', 'bystander'))?.metadata.uid, bystander.metadata.uid);
  assert.ok(p1.metadata.uid);
});

void test('orphan: the owner goes, dependents stay without the reference to it', async () => {
  const d = await create('deployments', 'apps', 'default', deployment('orph'));
  const other = await create('configmaps', '', 'default', configMap('orph-other-owner'));
  await create('replicasets', 'apps', 'default', replicaSet('orph-1', [ref(d, { controller: true, blockOwnerDeletion: true }), ref(other)]));
  await create('replicasets', 'apps', 'default', replicaSet('orph-2', [ref(d, { controller: true, blockOwnerDeletion: true })]));
  await settle();

  const res = await s('deployments', 'apps').delete(ctx('default'), 'orph', { propagationPolicy: 'Orphan' });
  assert.equal(res.deleted, false);
  assert.deepEqual(res.object.metadata.finalizers, ['orphan']);
  await until('owner gone', async () => !(await find('deployments', 'apps', 'default', 'orph')));
  const rs1 = await find('replicasets', 'apps', 'default', 'orph-1');
  const rs2 = await find('replicasets', 'apps', 'default', 'orph-2');
  assert.deepEqual(rs1?.metadata.ownerReferences, [ref(other)]);
  assert.ok(rs2, 'orphaned replicaset stays');
  assert.equal(rs2.metadata.ownerReferences, undefined);
  await settle();
  assert.ok(await find('replicasets', 'apps', 'default', 'orph-2'), 'an orphan is not collected later');
});

void test('foreground: the owner waits for blocking dependents; non-blocking ones are deleted without waiting', async () => {
  const d = await create('deployments', 'apps', 'default', deployment('fg'));
  await create('replicasets', 'apps', 'default', replicaSet('fg-held', [ref(d, { controller: true, blockOwnerDeletion: true })], ['test.keelson.io/hold']));
  await create('configmaps', '', 'default', configMap('fg-loose', [ref(d)]));
  await create('configmaps', '', 'default', configMap('fg-loose-held', [ref(d, { blockOwnerDeletion: false })], ['test.keelson.io/hold']));
  await settle();

  const res = await s('deployments', 'apps').delete(ctx('default'), 'fg', { propagationPolicy: 'Foreground' });
  assert.equal(res.deleted, false);
  assert.deepEqual(res.object.metadata.finalizers, ['foregroundDeletion']);
  await until('non-blocking dependent deleted', async () => !(await find('configmaps', '', 'default', 'fg-loose')));
  const held = await until('blocking dependent terminating', async () => {
    const o = await find('replicasets', 'apps', 'default', 'fg-held');
    return o?.metadata.deletionTimestamp ? o : undefined;
  });
  assert.deepEqual(held.metadata.finalizers, ['test.keelson.io/hold']);
  await settle();
  const owner = await find('deployments', 'apps', 'default', 'fg');
  assert.ok(owner?.metadata.deletionTimestamp, 'owner stays while a blocking dependent exists');
  assert.deepEqual(owner.metadata.finalizers, ['foregroundDeletion']);

  await removeFinalizers('replicasets', 'apps', 'default', 'fg-held');
  await until('owner gone', async () => !(await find('deployments', 'apps', 'default', 'fg')));
  const loose = await find('configmaps', '', 'default', 'fg-loose-held');
  assert.ok(loose?.metadata.deletionTimestamp, 'a non-blocking dependent is deleted but not waited for');
  await removeFinalizers('configmaps', '', 'default', 'fg-loose-held');
});

void test('foreground through a cycle of blocking references: both objects go (references unblocked)', async () => {
  const a = await create('configmaps', '', 'default', configMap('cycle-a'));
  const b = await create('configmaps', '', 'default', configMap('cycle-b', [ref(a, { blockOwnerDeletion: true })]));
  await s('configmaps').guaranteedUpdate(ctx('default'), 'cycle-a', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, ownerReferences: [ref(b, { blockOwnerDeletion: true })] } }), {});
  await settle();
  await s('configmaps').delete(ctx('default'), 'cycle-a', { propagationPolicy: 'Foreground' });
  await until('both gone', async () => !(await find('configmaps', '', 'default', 'cycle-a')) && !(await find('configmaps', '', 'default', 'cycle-b')));
});

void test('orphanDependents=true (the deprecated option) orphans like propagationPolicy=Orphan', async () => {
  const owner = await create('configmaps', '', 'default', configMap('legacy-owner'));
  await create('configmaps', '', 'default', configMap('legacy-dep', [ref(owner)]));
  await settle();
  await s('configmaps').delete(ctx('default'), 'legacy-owner', { orphanDependents: true });
  await until('owner gone', async () => !(await find('configmaps', '', 'default', 'legacy-owner')));
  await settle();
  const dep = await find('configmaps', '', 'default', 'legacy-dep');
  assert.ok(dep);
  assert.equal(dep.metadata.ownerReferences, undefined);
});

void test('foreground through a chain: deployment → replicaset → pod all go, the owner last', async () => {
  const d = await create('deployments', 'apps', 'default', deployment('chain'));
  const rs = await create('replicasets', 'apps', 'default', replicaSet('chain-1', [ref(d, { controller: true, blockOwnerDeletion: true })]));
  await create('pods', '', 'default', pod('chain-1-a', [ref(rs, { controller: true, blockOwnerDeletion: true })]));
  await settle();
  await s('deployments', 'apps').delete(ctx('default'), 'chain', { propagationPolicy: 'Foreground' });
  await until('all gone', async () => !(await find('deployments', 'apps', 'default', 'chain')));
  assert.equal(await find('replicasets', 'apps', 'default', 'chain-1'), undefined);
  assert.equal(await find('pods', '', 'default', 'chain-1-a'), undefined);
});

void test('dangling references: an owner that never existed, or exists under another uid, is absent', async () => {
  await create('configmaps', '', 'default', configMap('dangle-never', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'no-such', uid: '00000000-0000-0000-0000-000000000001' }]));
  const live = await create('configmaps', '', 'default', configMap('dangle-live'));
  await create('configmaps', '', 'default', configMap('dangle-uid', [{ ...ref(live), uid: '00000000-0000-0000-0000-000000000002' }]));
  await create('configmaps', '', 'default', configMap('dangle-mixed', [ref(live), { apiVersion: 'v1', kind: 'ConfigMap', name: 'gone', uid: '00000000-0000-0000-0000-000000000003' }]));
  await until('never-existing owner: collected', async () => !(await find('configmaps', '', 'default', 'dangle-never')));
  await until('uid mismatch: collected', async () => !(await find('configmaps', '', 'default', 'dangle-uid')));
  const mixed = await until('dangling reference dropped, live one kept', async () => {
    const o = await find('configmaps', '', 'default', 'dangle-mixed');
    return o?.metadata.ownerReferences?.length === 1 ? o : undefined;
  });
  assert.deepEqual(mixed.metadata.ownerReferences, [ref(live)]);
  assert.ok(await find('configmaps', '', 'default', 'dangle-live'));
});

void test('scopes: a namespaced owner does not own objects in other namespaces; a cluster-scoped owner does', async () => {
  const owner = await create('configmaps', '', 'default', configMap('ns-owner'));
  await create('configmaps', '', 'other', configMap('ns-cross', [ref(owner)]));
  await until('cross-namespace dependent collected', async () => !(await find('configmaps', '', 'other', 'ns-cross')));
  assert.ok(await find('configmaps', '', 'default', 'ns-owner'));

  const cr = await create('clusterroles', 'rbac.authorization.k8s.io', '', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'gc-owner' } });
  await create('configmaps', '', 'other', configMap('cluster-owned', [ref(cr)]));
  await settle();
  assert.ok(await find('configmaps', '', 'other', 'cluster-owned'), 'live cluster-scoped owner keeps it');
  await s('clusterroles', 'rbac.authorization.k8s.io').delete(ctx(), 'gc-owner', {});
  await until('dependent of a cluster-scoped owner collected', async () => !(await find('configmaps', '', 'other', 'cluster-owned')));
});

void test('invalid references are left alone: cluster-scoped object naming a namespaced owner, unknown kinds', async () => {
  await create('clusterroles', 'rbac.authorization.k8s.io', '', {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole',
    metadata: { name: 'gc-invalid', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: '00000000-0000-0000-0000-000000000004' }] },
  });
  await create('configmaps', '', 'default', configMap('unknown-kind', [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: '00000000-0000-0000-0000-000000000005' }]));
  await until('invalid reference reported', async () => logs.some((l) => l.includes('refers to namespaced owner')));
  await until('unknown kind reported', async () => logs.some((l) => l.includes('unable to find the resource for Widget')));
  assert.ok(await find('clusterroles', 'rbac.authorization.k8s.io', '', 'gc-invalid'));
  assert.ok(await find('configmaps', '', 'default', 'unknown-kind'));
});

void test('graph: deleted owners and their virtual nodes leave the graph once no dependent names them', async () => {
  const owner = await create('configmaps', '', 'default', configMap('graph-owner'));
  const dep = await create('configmaps', '', 'default', configMap('graph-dep', [ref(owner)]));
  await settle();
  const graph = gc.collector.graph;
  assert.ok(graph.get(owner.metadata.uid!)?.dependents.size === 1);
  await s('configmaps').delete(ctx('default'), 'graph-owner', {});
  await until('dependent collected', async () => !(await find('configmaps', '', 'default', 'graph-dep')));
  await settle();
  assert.equal(graph.get(owner.metadata.uid!), undefined);
  assert.equal(graph.get(dep.metadata.uid!), undefined);
});

void test('foreground and orphan deletes of an object without dependents finish at once', async () => {
  await create('configmaps', '', 'default', configMap('solo-fg'));
  await create('configmaps', '', 'default', configMap('solo-orphan'));
  const fg = await s('configmaps').delete(ctx('default'), 'solo-fg', { propagationPolicy: 'Foreground' });
  const or = await s('configmaps').delete(ctx('default'), 'solo-orphan', { propagationPolicy: 'Orphan' });
  assert.equal(fg.deleted, false);
  assert.equal(or.deleted, false);
  await until('both gone', async () => !(await find('configmaps', '', 'default', 'solo-fg')) && !(await find('configmaps', '', 'default', 'solo-orphan')));
  await settle();
  assert.equal(gc.collector.graph.get(fg.object.metadata.uid!), undefined);
});

void test('resources added to the catalog later (CRDs) are watched: their dependents are collected too', async () => {
  const base = catalog.lookup('', 'v1', 'configmaps')!;
  const gadgets = {
    ...base, group: 'gc.example.com', version: 'v1', resource: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList',
    storagePrefix: '/registry/gc.example.com/gadgets/', shortNames: [], categories: [],
  };
  catalog.add(gadgets);
  try {
    await gc.whenSynced();
    const st = () => registry.lookup('gc.example.com', 'v1', 'gadgets')!;
    const owner = await create('configmaps', '', 'default', configMap('gadget-owner'));
    await st().create(ctx('default'), { apiVersion: 'gc.example.com/v1', kind: 'Gadget', metadata: { name: 'g', ownerReferences: [ref(owner)] } }, {});
    const g2 = await st().create(ctx('default'), { apiVersion: 'gc.example.com/v1', kind: 'Gadget', metadata: { name: 'g2' } }, {});
    await create('configmaps', '', 'default', configMap('gadget-dep', [ref(g2)]));
    await settle();
    await s('configmaps').delete(ctx('default'), 'gadget-owner', {});
    await st().delete(ctx('default'), 'g2', {});
    await until('gadget collected', async () => {
      try {
        await st().get(ctx('default'), 'g', {});
        return false;
      } catch {
        return true;
      }
    });
    await until('dependent of a gadget collected', async () => !(await find('configmaps', '', 'default', 'gadget-dep')));
  } finally {
    catalog.remove(gadgets);
  }
});
