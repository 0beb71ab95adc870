import { Cacher } from './cacher.ts';
import { runReaderContract } from './testing/reader-contract.ts';
import { codec, PREFIX } from './testing/helpers.ts';

runReaderContract('Cacher', async (store) => {
  const cache = await Cacher.start({ store, prefix: PREFIX, codec, loadPageSize: 2 });
  return { reader: cache, close: () => cache.stop() };
});
