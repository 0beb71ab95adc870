/**
 * The collector's start and stop against the real registry: work left while it was not running is picked up
 * after every informer has listed (never on a half-known graph), and nothing happens after stop().
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinCatalog } from '../../registry/resources/groups/index.ts';
import type { KObject, OwnerReference } from '../../machinery/objects.ts';
import { createRegistry } from '../../registry/registry.ts';
import { MemoryStore } from '../../storage/memory/memory-store.ts';
import { systemContext } from '../../registry/system-context.ts';
import { startGarbageCollector } from './index.ts';

const ctx = (namespace = '') => systemContext({ namespace });
const ref = (o: KObject): OwnerReference => ({ apiVersion: o.apiVersion!, kind: o.kind!, name: o.metadata.name!, uid: o.metadata.uid! });
const cm = (name: string, owners: OwnerReference[] = []): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(owners.length ? { ownerReferences: owners } : {}) } });

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

void test('work left while stopped is done after start; stop() ends all activity', async () => {
  const store = new MemoryStore();
  const catalog = builtinCatalog();
  const registry = await createRegistry({ catalog, store });
  try {
    const cms = registry.lookup('', 'v1', 'configmaps')!;
    const sts = registry.lookup('apps', 'v1', 'statefulsets')!;
    await registry.lookup('', 'v1', 'namespaces')!.create(ctx(), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }, {});
    const get = async (name: string) => {
      try {
        return (await cms.get(ctx('default'), name, {})).object;
      } catch {
        return undefined;
      }
    };
    // An owner deleted with Orphan and one deleted in the background while no collector ran.
    const orphanOwner = await cms.create(ctx('default'), cm('o-owner'), {});
    await cms.create(ctx('default'), cm('o-dep', [ref(orphanOwner)]), {});
    const bgOwner = await cms.create(ctx('default'), cm('bg-owner'), {});
    await cms.create(ctx('default'), cm('bg-dep', [ref(bgOwner)]), {});
    // An owner of another resource whose informer lists separately: orphaning must still see the dependent.
    const set = await sts.create(ctx('default'), {
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'set' },
      spec: { selector: { matchLabels: { a: 'b' } }, serviceName: 's', template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    }, {});
    await cms.create(ctx('default'), cm('set-dep', [ref(set)]), {});
    await cms.delete(ctx('default'), 'o-owner', { propagationPolicy: 'Orphan' });
    await cms.delete(ctx('default'), 'bg-owner', { propagationPolicy: 'Background' });
    await sts.delete(ctx('default'), 'set', { propagationPolicy: 'Orphan' });
    assert.ok(await get('o-owner'), 'held by the orphan finalizer');

    const gc = await startGarbageCollector({ registry, catalog });
    try {
      await until('orphan owner gone', async () => !(await get('o-owner')));
      await until('background dependent gone', async () => !(await get('bg-dep')));
      await until('statefulset gone', async () => {
        try {
          await sts.get(ctx('default'), 'set', {});
          return false;
        } catch {
          return true;
        }
      });
      assert.equal((await get('o-dep'))?.metadata.ownerReferences, undefined);
      assert.equal((await get('set-dep'))?.metadata.ownerReferences, undefined);
    } finally {
      await gc.stop();
    }

    // Stopped: a dependent of a missing owner stays.
    await cms.create(ctx('default'), cm('after-stop', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'none', uid: '00000000-0000-0000-0000-00000000000a' }]), {});
    await new Promise((r) => setTimeout(r, 100));
    assert.ok(await get('after-stop'));
    assert.equal(gc.collector.deleteQueue.idleNow(), true);
  } finally {
    await registry.stop();
    await store.close();
  }
});
