/** The bootstrap ensurer against the real registry (GenericStore + watch caches over MemoryStore). */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../machinery/objects.ts';
import { builtinCatalog } from '../registry/resources/groups/index.ts';
import { createRegistry, type Registry } from '../registry/registry.ts';
import { MemoryStore } from '../storage/memory/memory-store.ts';
import { systemContext } from '../registry/system-context.ts';
import { desiredUpdate, ensureBootstrapConfiguration } from './ensurer.ts';
import { AUTO_UPDATE_ANNOTATION, SUGGESTED_PRIORITY_LEVELS } from './bootstrap.ts';

let store: MemoryStore;
let registry: Registry;
before(async () => {
  store = new MemoryStore();
  registry = await createRegistry({ catalog: builtinCatalog(), store });
});
after(async () => {
  await registry?.stop();
  await store?.close();
});

const G = 'flowcontrol.apiserver.k8s.io';
const fs = () => registry.lookup(G, 'v1', 'flowschemas')!;
const pl = () => registry.lookup(G, 'v1', 'prioritylevelconfigurations')!;
const get = async (s: ReturnType<typeof fs>, name: string): Promise<KObject | undefined> => {
  try {
    return (await s.get(systemContext(), name, {})).object;
  } catch {
    return undefined;
  }
};
const put = async (s: ReturnType<typeof fs>, o: KObject): Promise<KObject> => (await s.update(systemContext(), o.metadata.name!, o, {})).object;

void test('creates every object, then a second round changes nothing', async () => {
  await ensureBootstrapConfiguration(registry);
  const names = (await fs().list(systemContext(), {})).items.map((i) => i.object.metadata.name);
  assert.equal(names.length, 13);
  assert.equal((await pl().list(systemContext(), {})).items.length, 8);
  const before = (await fs().list(systemContext(), {})).resourceVersion;
  await ensureBootstrapConfiguration(registry);
  assert.equal((await fs().list(systemContext(), {})).resourceVersion, before, 'no write when nothing changed');
});

void test('mandatory objects are restored when changed or deleted; the exempt level keeps its tunables', async () => {
  const catchAll = (await get(fs(), 'catch-all'))!;
  await put(fs(), { ...catchAll, metadata: { ...catchAll.metadata, annotations: { [AUTO_UPDATE_ANNOTATION]: 'false' } }, spec: { ...(catchAll['spec'] as object), matchingPrecedence: 9000 } });
  await fs().delete(systemContext(), 'exempt', {});
  const exemptPl = (await get(pl(), 'exempt'))!;
  await put(pl(), { ...exemptPl, spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 7, lendablePercent: 10 } } });
  await ensureBootstrapConfiguration(registry);
  const restored = (await get(fs(), 'catch-all'))!;
  assert.equal((restored['spec'] as any).matchingPrecedence, 10000);
  assert.equal(restored.metadata.annotations![AUTO_UPDATE_ANNOTATION], 'true');
  assert.ok(await get(fs(), 'exempt'), 'deleted mandatory schema re-created');
  assert.deepEqual((await get(pl(), 'exempt'))!['spec'], { type: 'Exempt', exempt: { nominalConcurrencyShares: 7, lendablePercent: 10 } });
});

void test('suggested objects: re-created when deleted, updated only with autoupdate-spec true', async () => {
  await fs().delete(systemContext(), 'probes', {});
  const wl = (await get(pl(), 'workload-low'))!;
  const changed = { ...(wl['spec'] as any), limited: { ...(wl['spec'] as any).limited, nominalConcurrencyShares: 1 } };
  await put(pl(), { ...wl, metadata: { ...wl.metadata, annotations: { [AUTO_UPDATE_ANNOTATION]: 'false' } }, spec: changed });
  const gd = (await get(pl(), 'global-default'))!;
  await put(pl(), { ...gd, spec: { ...(gd['spec'] as any), limited: { ...(gd['spec'] as any).limited, nominalConcurrencyShares: 1 } } });
  await ensureBootstrapConfiguration(registry);
  assert.ok(await get(fs(), 'probes'));
  assert.equal(((await get(pl(), 'workload-low'))!['spec'] as any).limited.nominalConcurrencyShares, 1, 'the operator opted out');
  assert.equal(((await get(pl(), 'global-default'))!['spec'] as any).limited.nominalConcurrencyShares, 20, 'annotation true: stomped');
});

void test('retired objects that carry the annotation true are deleted; others stay', async () => {
  const mk = (name: string, annotations?: Record<string, string>): KObject => ({
    apiVersion: `${G}/v1`, kind: 'PriorityLevelConfiguration', metadata: { name, ...(annotations ? { annotations } : {}) },
    spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } },
  });
  await pl().create(systemContext(), mk('retired', { [AUTO_UPDATE_ANNOTATION]: 'true' }), {});
  await pl().create(systemContext(), mk('mine'), {});
  await pl().create(systemContext(), mk('kept', { [AUTO_UPDATE_ANNOTATION]: 'false' }), {});
  await ensureBootstrapConfiguration(registry);
  assert.equal(await get(pl(), 'retired'), undefined);
  assert.ok(await get(pl(), 'mine'));
  assert.ok(await get(pl(), 'kept'));
});

void test('without the annotation: generation 1 means untouched (auto-update on), later generations are the operator\'s', () => {
  const boot = SUGGESTED_PRIORITY_LEVELS.find((p) => p.metadata.name === 'system')!;
  const stored = (generation: number): KObject => ({ ...structuredClone(boot), metadata: { name: 'system', generation }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 3, lendablePercent: 0, limitResponse: { type: 'Reject' } } } });
  const fresh = desiredUpdate(stored(1), boot, false)!;
  assert.equal(fresh.metadata.annotations![AUTO_UPDATE_ANNOTATION], 'true');
  assert.equal((fresh['spec'] as any).limited.nominalConcurrencyShares, 30);
  const edited = desiredUpdate(stored(2), boot, false)!;
  assert.equal(edited.metadata.annotations![AUTO_UPDATE_ANNOTATION], 'false');
  assert.equal((edited['spec'] as any).limited.nominalConcurrencyShares, 3);
  const same = { ...structuredClone(boot), metadata: { ...boot.metadata, generation: 4 } } as KObject;
  assert.equal(desiredUpdate(same, boot, false), undefined);
});
