import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../machinery/objects.ts';
import { cm, EventLog, sys, testEnv } from './testing/registry.ts';

void describe('concurrent writers through the watch cache', () => {
  void it('no lost updates; every change reaches a watcher once, in revision order', async () => {
    const env = await testEnv({ cache: true });
    try {
      const cms = env.registry.lookup('', 'v1', 'configmaps')!;
      const names = ['a', 'b', 'c', 'd'];
      for (const n of names) await cms.create(sys('default'), cm(n, { n: '0' }), {});
      const from = await env.store.currentRevision();
      const log = new EventLog();
      const w = await cms.watch(sys('default'), { resourceVersion: String(from) }, log);
      const bump = (o: KObject | undefined) => ({ ...o!, data: { n: String(Number((o!['data'] as { n: string }).n) + 1) } });
      const per = 25;
      await Promise.all(names.flatMap((n) => Array.from({ length: per }, () => cms.guaranteedUpdate(sys('default'), n, bump, {}))));
      try {
        await log.until(names.length * per);
        const revs = log.events.map((e) => e.revision);
        assert.deepEqual(revs, [...revs].sort((x, y) => x - y));
        assert.equal(new Set(revs).size, revs.length);
        for (const n of names) {
          const got = await cms.get(sys('default'), n, {});
          assert.deepEqual(got.object['data'], { n: String(per) });
          const last = log.events.filter((e) => e.object?.object.metadata.name === n).at(-1)!;
          assert.equal(last.object!.object.metadata.resourceVersion, got.object.metadata.resourceVersion);
        }
      } finally {
        w.dispose();
      }
    } finally {
      await env.close();
    }
  });
});
