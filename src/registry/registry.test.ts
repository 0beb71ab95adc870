import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceDef } from '../api/types.ts';
import { MemoryStore } from '../storage/memory/memory-store.ts';
import { createRegistry } from './registry.ts';
import { cm, configmaps, EventLog, namespaces, sys } from './testing.ts';

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
