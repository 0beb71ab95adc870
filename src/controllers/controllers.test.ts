import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../machinery/objects.ts';
import { defaultFakeRegistry, fakeDef, FakeRegistry } from './testing/fake-registry.ts';
import { type RunningControllers, startControllers } from './index.ts';
import { systemContext } from '../registry/system-context.ts';
import { DESCRIPTION, DESCRIPTION_ANNOTATION } from './root-ca-publisher.ts';

const CA = '-----BEGIN CERTIFICATE-----\nMIIfake\n-----END CERTIFICATE-----\n';

/** Polls `check` until it returns a value (bounded: the controllers react to events, not timers). */
async function until<T>(what: string, check: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function withControllers(fn: (reg: FakeRegistry, c: RunningControllers) => Promise<void>, setup?: (reg: FakeRegistry) => Promise<void>) {
  const reg = defaultFakeRegistry();
  await setup?.(reg);
  const c = await startControllers({ registry: reg, catalog: reg.catalog(), rootCaPem: CA, apiServer: { host: '127.0.0.1', port: 6443 } });
  try {
    await fn(reg, c);
  } finally {
    await c.stop();
  }
}

const get = (reg: FakeRegistry, prefix: string, ns: string, name: string): KObject | undefined =>
  reg.objects.get(`/registry/${prefix}/${ns ? `${ns}/` : ''}${name}`)?.obj;

function storage(reg: FakeRegistry, resource: string, group = '') {
  return reg.lookup(group, 'v1', resource)!;
}

void test('bootstrap creates the system namespaces and the kubernetes service', async () => {
  await withControllers(async (reg, c) => {
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) assert.ok(reg.namespace(ns), ns);
    const svc = get(reg, 'services', 'default', 'kubernetes');
    assert.equal((svc?.spec as { clusterIP: string }).clusterIP, '10.96.0.1');
    assert.deepEqual((svc?.spec as { ports: unknown[] }).ports, [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }]);
    await c.whenIdle();
    // Every system namespace gets its default SA and root CA too.
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      await until(`sa in ${ns}`, () => get(reg, 'serviceaccounts', ns, 'default'));
      await until(`ca in ${ns}`, () => get(reg, 'configmaps', ns, 'kube-root-ca.crt'));
    }
  });
});

void test('bootstrap leaves existing system namespaces alone', async () => {
  await withControllers(async (reg) => {
    assert.deepEqual(get(reg, 'namespaces', '', 'default')?.metadata.labels, { keep: 'me' });
    assert.equal(reg.calls.filter((c) => c.startsWith('create namespaces')).length, 4);
  }, async (reg) => {
    await storage(reg, 'namespaces').create(systemContext(), { metadata: { name: 'default', labels: { keep: 'me' } } }, {});
  });
});

void test('a new namespace gets the default service account and kube-root-ca.crt', async () => {
  await withControllers(async (reg) => {
    await storage(reg, 'namespaces').create(systemContext(), { metadata: { name: 'team-a' } }, {});
    const sa = await until('sa', () => get(reg, 'serviceaccounts', 'team-a', 'default'));
    assert.equal(sa.kind, 'ServiceAccount');
    const cm = await until('cm', () => get(reg, 'configmaps', 'team-a', 'kube-root-ca.crt'));
    assert.deepEqual(cm.data, { 'ca.crt': CA });
    assert.equal(cm.metadata.annotations?.[DESCRIPTION_ANNOTATION], DESCRIPTION);
  });
});

void test('deleted default SA and root CA are recreated; a changed root CA is restored', async () => {
  await withControllers(async (reg) => {
    await storage(reg, 'namespaces').create(systemContext(), { metadata: { name: 'b' } }, {});
    const sa1 = await until('sa', () => get(reg, 'serviceaccounts', 'b', 'default'));
    await until('cm', () => get(reg, 'configmaps', 'b', 'kube-root-ca.crt'));

    await storage(reg, 'serviceaccounts').delete(systemContext({ namespace: 'b' }), 'default', {});
    const sa2 = await until('sa again', () => { const s = get(reg, 'serviceaccounts', 'b', 'default'); return s && s.metadata.uid !== sa1.metadata.uid ? s : undefined; });
    assert.ok(sa2);

    await storage(reg, 'configmaps').delete(systemContext({ namespace: 'b' }), 'kube-root-ca.crt', {});
    await until('cm again', () => get(reg, 'configmaps', 'b', 'kube-root-ca.crt'));

    await storage(reg, 'configmaps').guaranteedUpdate(systemContext({ namespace: 'b' }), 'kube-root-ca.crt', (cur) => {
      const c = structuredClone(cur!);
      c.data = { 'ca.crt': 'tampered', extra: 'x' };
      return c;
    }, {});
    const fixed = await until('cm restored', () => { const c = get(reg, 'configmaps', 'b', 'kube-root-ca.crt'); return (c?.data as Record<string, string>)?.['ca.crt'] === CA ? c : undefined; });
    assert.deepEqual(fixed.data, { 'ca.crt': CA });
  });
});

void test('a deleted namespace is emptied, then finalized and removed', async () => {
  await withControllers(async (reg) => {
    const nsStore = storage(reg, 'namespaces');
    await nsStore.create(systemContext(), { metadata: { name: 'gone' } }, {});
    await until('sa', () => get(reg, 'serviceaccounts', 'gone', 'default'));
    await storage(reg, 'secrets').create(systemContext({ namespace: 'gone' }), { metadata: { name: 's1' } }, {});
    await reg.lookup('apps', 'v1', 'deployments')!.create(systemContext({ namespace: 'gone' }), { metadata: { name: 'd1' } }, {});
    await storage(reg, 'configmaps').create(systemContext({ namespace: 'default' }), { metadata: { name: 'keep' } }, {});

    const r = await nsStore.delete(systemContext(), 'gone', {});
    assert.equal(r.deleted, false);
    await until('namespace removed', () => !reg.namespace('gone'));
    const left = [...reg.objects.values()].filter((e) => e.obj.metadata.namespace === 'gone');
    assert.deepEqual(left, []);
    assert.ok(get(reg, 'configmaps', 'default', 'keep'), 'other namespaces untouched');
    assert.ok(reg.calls.includes('update namespaces/finalize /gone'), reg.calls.join('\n'));
  });
});

void test('namespace deletion waits for objects with finalizers and reports them in conditions', async () => {
  await withControllers(async (reg) => {
    const nsStore = storage(reg, 'namespaces');
    const cms = storage(reg, 'configmaps');
    await nsStore.create(systemContext(), { metadata: { name: 'slow' } }, {});
    await cms.create(systemContext({ namespace: 'slow' }), { metadata: { name: 'held', finalizers: ['example.com/hold'] } }, {});
    await nsStore.delete(systemContext(), 'slow', {});

    const cond = await until('conditions', () => {
      const ns = reg.namespace('slow');
      const cs = (ns?.status as { conditions?: Array<{ type: string; status: string; message: string; reason: string; lastTransitionTime: string }> })?.conditions;
      return cs?.find((c) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True') ? cs : undefined;
    });
    assert.equal(cond.length, 5);
    assert.deepEqual(cond.find((c) => c.type === 'NamespaceContentRemaining'),
      { type: 'NamespaceContentRemaining', status: 'True', reason: 'SomeResourcesRemain', message: 'Some resources are remaining: configmaps. has 1 resource instances', lastTransitionTime: cond[0]!.lastTransitionTime });
    assert.equal(cond.find((c) => c.type === 'NamespaceFinalizersRemaining')?.message, 'Some finalizers are remaining: example.com/hold in 1 resource instances');
    assert.equal((reg.namespace('slow')?.status as { phase: string }).phase, 'Terminating');
    assert.ok(get(reg, 'configmaps', 'slow', 'held')?.metadata.deletionTimestamp);

    // Creation in a terminating namespace is refused; the controllers must not fight it.
    await assert.rejects(cms.create(systemContext({ namespace: 'slow' }), { metadata: { name: 'new' } }, {}), /being terminated/);

    // Release the finalizer: the object goes, then the namespace.
    await cms.guaranteedUpdate(systemContext({ namespace: 'slow' }), 'held', (cur) => {
      const c = structuredClone(cur!);
      c.metadata.finalizers = [];
      return c;
    }, {});
    await until('namespace removed', () => !reg.namespace('slow'));
  });
});

void test('informers recover after the registry closes their watches', async () => {
  await withControllers(async (reg) => {
    reg.closeWatches(new Error('slow consumer'));
    await storage(reg, 'namespaces').create(systemContext(), { metadata: { name: 'after-close' } }, {});
    await until('sa after relist', () => get(reg, 'serviceaccounts', 'after-close', 'default'));
    await until('cm after relist', () => get(reg, 'configmaps', 'after-close', 'kube-root-ca.crt'));
  });
});

void test('stop is idempotent and stops reacting', async () => {
  const reg = defaultFakeRegistry();
  const c = await startControllers({ registry: reg, catalog: reg.catalog(), rootCaPem: CA });
  await c.whenIdle();
  await Promise.all([c.stop(), c.stop()]);
  await storage(reg, 'namespaces').create(systemContext(), { metadata: { name: 'late' } }, {});
  await new Promise((r) => setImmediate(r));
  assert.equal(get(reg, 'serviceaccounts', 'late', 'default'), undefined);
  assert.equal(get(reg, 'services', 'default', 'kubernetes'), undefined, 'no service without apiServer');
});

void test('resources without deletecollection are emptied one object at a time', async () => {
  const reg = new FakeRegistry([
    fakeDef('namespaces', 'Namespace', false),
    fakeDef('configmaps', 'ConfigMap', true),
    fakeDef('serviceaccounts', 'ServiceAccount', true),
    { ...fakeDef('widgets', 'Widget', true, 'example.com'), verbs: ['get', 'list', 'watch', 'create', 'delete'] },
  ]);
  const c = await startControllers({ registry: reg, catalog: reg.catalog(), rootCaPem: CA });
  try {
    await storage(reg, 'namespaces').create(systemContext(), { metadata: { name: 'w' } }, {});
    const widgets = reg.lookup('example.com', 'v1', 'widgets')!;
    for (const n of ['a', 'b']) await widgets.create(systemContext({ namespace: 'w' }), { metadata: { name: n } }, {});
    await storage(reg, 'namespaces').delete(systemContext(), 'w', {});
    await until('namespace removed', () => !reg.namespace('w'));
    assert.ok(reg.calls.includes('delete widgets w/a') && reg.calls.includes('delete widgets w/b'), reg.calls.join('\n'));
  } finally {
    await c.stop();
  }
});
