import assert from 'node:assert/strict';
import { it } from 'node:test';
import { findEtcdBinary, startEtcd } from '../../../test/support/etcd.ts';
import { openEtcdStore } from '../etcd/etcd-store.ts';
import { Cacher } from './cacher.ts';
import { runReaderContract, type StoreFixture } from './testing/reader-contract.ts';
import { shareWatches } from './shared-watch.ts';
import { codec, keyOf, PREFIX, putPod } from './testing/helpers.ts';

// Over etcd the cache gets no prompt progress notifications, so consistent reads of an idle prefix take the
// fallback path: the contract must hold there too. Runs when an etcd binary is installed.
async function etcdStore(shared: boolean): Promise<StoreFixture> {
  const etcd = await startEtcd();
  if (!etcd) throw new Error('etcd binary found but it did not start');
  const raw = await openEtcdStore({ servers: [etcd.endpoint] });
  const store = shared ? await shareWatches(raw) : raw;
  return {
    store,
    close: async () => {
      await store.close();
      await etcd.stop();
    },
  };
}

if (findEtcdBinary()) {
  for (const shared of [false, true]) {
    runReaderContract(`Cacher over etcd${shared ? ' (shared watch)' : ''}`, async (store) => {
      const cache = await Cacher.start({ store, prefix: PREFIX, codec, loadPageSize: 2, consistentWaitMs: 50 });
      return { reader: cache, close: () => cache.stop() };
    }, () => etcdStore(shared));
  }
  void it('over a shared etcd watch an idle cache serves consistent reads itself while others change', async () => {
    const fx = await etcdStore(true);
    const cache = await Cacher.start({ store: fx.store, prefix: PREFIX, codec, consistentWaitMs: 5000 });
    try {
      await putPod(fx.store, 'a', 'p1');
      await fx.store.create('/registry/configmaps/a/x', Buffer.from('{}'));
      const res = await cache.list(PREFIX, { read: { kind: 'consistent' } });
      assert.equal(res.revision, await fx.store.currentRevision());
      assert.equal(res.items[0], await cache.get(keyOf('a', 'p1'), { read: { kind: 'any' } }));
    } finally {
      await cache.stop();
      await fx.close();
    }
  });
} else {
  void it('Cacher over etcd', { skip: 'no etcd binary on PATH' }, () => {});
}
