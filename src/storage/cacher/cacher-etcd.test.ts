import { it } from 'node:test';
import { findEtcdBinary, startEtcd } from '../../../test/support/etcd.ts';
import { openEtcdStore } from '../etcd/etcd-store.ts';
import { Cacher } from './cacher.ts';
import { runReaderContract, type StoreFixture } from './reader-contract.ts';
import { shareWatches } from './shared-watch.ts';
import { codec, PREFIX } from './test-helpers.ts';

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
} else {
  void it('Cacher over etcd', { skip: 'no etcd binary on PATH' }, () => {});
}
