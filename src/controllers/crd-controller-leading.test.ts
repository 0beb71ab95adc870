/**
 * The CRD controller under leader election: a replica that does not lead writes nothing (no accepted names, no
 * finalizer work) but serves what the stored status says; once it leads, it does the writes.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinCatalog } from '../registry/resources/groups/index.ts';
import { createRegistry, type Registry } from '../registry/registry.ts';
import { MemoryStore } from '../storage/memory/memory-store.ts';
import { systemContext } from '../registry/system-context.ts';
import type { KObject } from '../machinery/objects.ts';
import type { Catalog } from '../api/catalog.ts';
import { startCrdController, type RunningCrdController } from './crd-controller.ts';
import { crdManifest } from '../../test/api/crd-support.ts';

let store: MemoryStore;
let catalog: Catalog;
let registry: Registry;
let follower: RunningCrdController;

before(async () => {
  store = new MemoryStore();
  catalog = builtinCatalog();
  registry = await createRegistry({ catalog, store });
  follower = await startCrdController({ registry, catalog, leading: false });
});

after(async () => {
  await follower?.stop();
  await registry?.stop();
  await store?.close();
});

const crds = () => registry.lookup('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;
const read = async (name: string): Promise<KObject> => (await crds().get(systemContext(), name, {})).object;
const established = (o: KObject) => ((o['status'] as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? [])
  .some((c) => c.type === 'Established' && c.status === 'True');

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

void test('not leading: no status written and nothing served; leading: names accepted, established, served', async () => {
  await crds().create(systemContext(), crdManifest({ group: 'lead.example.com' }) as KObject, {});
  await new Promise((r) => setTimeout(r, 200));
  await follower.whenIdle();
  assert.equal(established(await read('widgets.lead.example.com')), false);
  assert.equal(catalog.lookup('lead.example.com', 'v1', 'widgets'), undefined);

  follower.setLeading(true);
  await until('established', async () => established(await read('widgets.lead.example.com')));
  await until('served', () => catalog.lookup('lead.example.com', 'v1', 'widgets') !== undefined);
});

void test('a replica that does not lead serves a CRD another replica established', async () => {
  const own = builtinCatalog();
  const other = await startCrdController({ registry, catalog: own, leading: false });
  try {
    await other.whenIdle();
    assert.equal(established(await read('widgets.lead.example.com')), true);
    assert.ok(own.lookup('lead.example.com', 'v1', 'widgets'), 'served from the stored status');
    // It still writes nothing: a new CRD stays without conditions until someone leads.
    follower.setLeading(false);
    await crds().create(systemContext(), crdManifest({ group: 'idle.example.com' }) as KObject, {});
    await new Promise((r) => setTimeout(r, 200));
    await other.whenIdle();
    assert.equal(established(await read('widgets.idle.example.com')), false);
    assert.equal(own.lookup('idle.example.com', 'v1', 'widgets'), undefined);
  } finally {
    await other.stop();
  }
});
