/**
 * The controllers against the real registry (GenericStore + watch caches over MemoryStore) and the built-in
 * catalog: what the fake registry unit tests cannot prove (real namespace lifecycle, finalize sub-resource,
 * deletecollection across every namespaced resource).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinCatalog } from '../registry/resources/groups/index.ts';
import type { KObject } from '../machinery/objects.ts';
import { createRegistry, type Registry } from '../registry/registry.ts';
import { MemoryStore } from '../storage/memory/memory-store.ts';
import { type RunningControllers, startControllers } from './index.ts';
import { systemContext } from '../registry/system-context.ts';

const CA = '-----BEGIN CERTIFICATE-----\nMIIreal\n-----END CERTIFICATE-----\n';
let store: MemoryStore;
let registry: Registry;
let controllers: RunningControllers;
const logs: string[] = [];

before(async () => {
  store = new MemoryStore();
  const catalog = builtinCatalog();
  registry = await createRegistry({ catalog, store });
  controllers = await startControllers({
    registry, catalog, rootCaPem: CA, apiServer: { host: '127.0.0.1', port: 6443 }, log: (m) => logs.push(m), systemNamespacesIntervalMs: 50,
  });
});

after(async () => {
  await controllers?.stop();
  await registry?.stop();
  await store?.close();
});

const s = (resource: string, group = '', version = 'v1') => registry.lookup(group, version, resource)!;

async function find(resource: string, ns: string, name: string, group = ''): Promise<KObject | undefined> {
  try {
    return (await s(resource, group).get(systemContext({ namespace: ns }), name, {})).object;
  } catch {
    return undefined;
  }
}

async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; controller log:\n${logs.join('\n')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

void test('system namespaces, kubernetes service, default SA and root CA everywhere', async () => {
  for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    const o = await find('namespaces', '', ns);
    assert.equal((o?.status as { phase?: string })?.phase, 'Active', ns);
    await until(`SA in ${ns}`, () => find('serviceaccounts', ns, 'default'));
    const cm = await until(`CA in ${ns}`, () => find('configmaps', ns, 'kube-root-ca.crt'));
    assert.deepEqual(cm.data, { 'ca.crt': CA });
  }
  const svc = await find('services', 'default', 'kubernetes');
  assert.ok(svc, `kubernetes service; log:\n${logs.join('\n')}`);
  assert.equal((svc.spec as { clusterIP?: string }).clusterIP, '10.96.0.1');
});

void test('a deleted namespace with content across groups is emptied, finalized and removed', async () => {
  const ns = 'gone';
  await s('namespaces').create(systemContext(), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }, {});
  await s('configmaps').create(systemContext({ namespace: ns }), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, {});
  await s('configmaps').create(systemContext({ namespace: ns }), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', finalizers: ['example.com/hold'] } }, {});
  await s('deployments', 'apps').create(systemContext({ namespace: ns }), {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' },
    spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
  }, {});
  await until('SA', () => find('serviceaccounts', ns, 'default'));

  const del = await s('namespaces').delete(systemContext(), ns, {});
  assert.equal(del.deleted, false);
  await until('content gone but held', async () => !(await find('configmaps', ns, 'c')) && !(await find('deployments', ns, 'd', 'apps')) && !(await find('serviceaccounts', ns, 'default')));
  const waiting = await until('conditions', async () => {
    const o = await find('namespaces', '', ns);
    const cs = (o?.status as { conditions?: Array<{ type: string; status: string; message: string }> })?.conditions;
    return cs?.find((c) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True');
  });
  assert.equal(waiting.message, 'Some finalizers are remaining: example.com/hold in 1 resource instances');
  assert.ok(await find('namespaces', '', ns));

  await s('configmaps').guaranteedUpdate(systemContext({ namespace: ns }), 'held', (cur) => {
    const c = structuredClone(cur!);
    c.metadata.finalizers = [];
    return c;
  }, {});
  await until('namespace removed', async () => !(await find('namespaces', '', ns)));
});

void test('a deleted kube-node-lease namespace comes back (system-namespaces controller)', async () => {
  const before = await find('namespaces', '', 'kube-node-lease');
  assert.ok(before?.metadata.uid);
  await s('namespaces').delete(systemContext({ namespace: '' }), 'kube-node-lease', {});
  // The namespace controller empties and removes it; the periodic resync then creates a new one (new uid).
  const back = await until('kube-node-lease re-created', async () => {
    const o = await find('namespaces', '', 'kube-node-lease');
    return o && o.metadata.uid !== before.metadata.uid && !o.metadata.deletionTimestamp ? o : undefined;
  });
  assert.equal((back.status as { phase?: string }).phase, 'Active');
});
