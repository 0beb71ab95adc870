import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../machinery/objects.ts';
import type { ResourceDef } from '../api/types.ts';
import { MemoryStore } from '../storage/memory/memory-store.ts';
import { createRegistry } from './registry.ts';
import { cm, configmaps, EventLog, namespaces, sys } from './testing/registry.ts';

const coreEvents: ResourceDef = {
  group: '', version: 'v1', resource: 'events', singular: 'event', kind: 'Event', listKind: 'EventList', namespaced: true,
  verbs: ['create', 'delete', 'get', 'list', 'watch'], nameRule: 'dns1123-subdomain', storagePrefix: '/registry/events/',
  selectableFields: { reason: (o) => o['reason'] as string | undefined },
};
const newEvents: ResourceDef = { ...coreEvents, group: 'events.k8s.io', selectableFields: { 'regarding.kind': (o) => (o['regarding'] as { kind?: string } | undefined)?.kind } };
const review: ResourceDef = { ...configmaps, group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview', namespaced: false, virtual: true, storagePrefix: '/none/' };

function catalogWithChanges(defs: ResourceDef[]) {
  const listeners = new Set<(c: { type: 'added' | 'removed'; def: ResourceDef }) => void>();
  return {
    all: () => defs,
    lookup: (g: string, v: string, r: string) => defs.find((d) => d.group === g && d.version === v && d.resource === r),
    onChange(cb: (c: { type: 'added' | 'removed'; def: ResourceDef }) => void) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    emit(type: 'added' | 'removed', def: ResourceDef) {
      if (type === 'added') defs.push(def);
      else defs.splice(defs.indexOf(def), 1);
      for (const l of listeners) l({ type, def });
    },
  };
}

void describe('createRegistry', () => {
  void it('serves each def, shares one reader per storage prefix, skips virtual kinds', async () => {
    const store = new MemoryStore();
    const reg = await createRegistry({ catalog: catalogWithChanges([namespaces, configmaps, coreEvents, newEvents, review]), store });
    try {
      assert.equal(reg.lookup('authorization.k8s.io', 'v1', 'selfsubjectaccessreviews'), undefined);
      await reg.lookup('', 'v1', 'namespaces')!.create(sys(''), { metadata: { name: 'default' } }, {});
      await reg.lookup('', 'v1', 'events')!.create(sys('default'), { metadata: { name: 'e1' }, reason: 'Started' }, {});
      // Both event APIs see the same storage; each keeps its own field selectors.
      const viaNew = await reg.lookup('events.k8s.io', 'v1', 'events')!.get(sys('default'), 'e1', {});
      assert.equal(viaNew.object.metadata.name, 'e1');
      const byReason = await reg.lookup('', 'v1', 'events')!.list(sys('default'), { fieldSelector: 'reason=Started' });
      assert.equal(byReason.items.length, 1);
      assert.equal(reg.storageFor(configmaps).def, configmaps);
      assert.throws(() => reg.storageFor(review));
    } finally {
      await reg.stop();
      await store.close();
    }
  });

  void it('adds storage for defs the catalog adds later, and removes it', async () => {
    const store = new MemoryStore();
    const catalog = catalogWithChanges([namespaces]);
    const reg = await createRegistry({ catalog, store });
    try {
      await reg.lookup('', 'v1', 'namespaces')!.create(sys(''), { metadata: { name: 'default' } }, {});
      const widgets: ResourceDef = { ...configmaps, group: 'example.com', resource: 'widgets', kind: 'Widget', storagePrefix: '/registry/example.com/widgets/' };
      catalog.emit('added', widgets);
      const w = reg.lookup('example.com', 'v1', 'widgets')!;
      const log = new EventLog();
      const watch = await w.watch(sys('default'), {}, log);
      await w.create(sys('default'), { metadata: { name: 'w1' }, spec: {} }, {});
      await log.until(1);
      assert.deepEqual(log.summary(), ['ADDED w1']);
      watch.dispose();
      catalog.emit('removed', widgets);
      assert.equal(reg.lookup('example.com', 'v1', 'widgets'), undefined);
    } finally {
      await reg.stop();
      await store.close();
    }
  });

  void it('converts resources stored in another version on the way in and out (reads, lists, watches)', async () => {
    const store = new MemoryStore();
    const rename = (o: Record<string, unknown>, from: string, to: string, apiVersion: string) => {
      const out: Record<string, unknown> = { ...o, apiVersion };
      delete out[from];
      if (o[from] !== undefined) out[to] = o[from];
      return out;
    };
    const catalog = {
      ...catalogWithChanges([namespaces, coreEvents, newEvents]),
      converter: (def: ResourceDef) => (def === newEvents ? {
        toStorage: (o: KObject) => rename(o, 'note', 'message', 'v1') as KObject,
        fromStorage: (o: KObject) => rename(o, 'message', 'note', 'events.k8s.io/v1') as KObject,
      } : undefined),
    };
    const reg = await createRegistry({ catalog, store });
    try {
      await reg.lookup('', 'v1', 'namespaces')!.create(sys(''), { metadata: { name: 'default' } }, {});
      const ev = reg.lookup('events.k8s.io', 'v1', 'events')!;
      const log = new EventLog();
      const w = await ev.watch(sys('default'), { resourceVersion: String(await store.currentRevision()) }, log);
      const created = await ev.create(sys('default'), { metadata: { name: 'e' }, note: 'hello' }, {});
      assert.equal(created['note'], 'hello');
      assert.equal(created.apiVersion, 'events.k8s.io/v1');
      const stored = JSON.parse(Buffer.from((await store.get('/registry/events/default/e'))!.value).toString()) as Record<string, unknown>;
      assert.deepEqual([stored['apiVersion'], stored['message'], stored['note']], ['v1', 'hello', undefined]);
      assert.equal((await reg.lookup('', 'v1', 'events')!.get(sys('default'), 'e', {})).object['message'], 'hello');
      const got = await ev.get(sys('default'), 'e', {});
      assert.equal(got.object['note'], 'hello');
      assert.equal(got, await ev.get(sys('default'), 'e', {}), 'one converted view per revision');
      assert.equal((await ev.list(sys('default'), {})).items[0]!.object['note'], 'hello');
      await ev.update(sys('default'), 'e', { ...got.object, note: 'again' }, {});
      await log.until(2);
      assert.deepEqual(log.events.map((e) => e.object!.object['note']), ['hello', 'again']);
      w.dispose();
    } finally {
      await reg.stop();
      await store.close();
    }
  });

  void it('stop() ends open watches', async () => {
    const store = new MemoryStore();
    const reg = await createRegistry({ catalog: catalogWithChanges([namespaces, configmaps]), store });
    await reg.lookup('', 'v1', 'namespaces')!.create(sys(''), { metadata: { name: 'default' } }, {});
    await reg.lookup('', 'v1', 'configmaps')!.create(sys('default'), cm('a'), {});
    const log = new EventLog();
    await reg.lookup('', 'v1', 'configmaps')!.watch(sys(''), {}, log);
    await log.until(1);
    await reg.stop();
    await log.untilClosed();
    await store.close();
  });
});
