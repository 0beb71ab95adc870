import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../sqlite/sqlite-store.ts';
import { Cacher } from './cacher.ts';
import { runReaderContract } from './testing/reader-contract.ts';
import { codec, PREFIX } from './testing/helpers.ts';

// The same contract over the embedded durable backend (its own watch hub, worker-thread commits).
runReaderContract('Cacher over sqlite', async (store) => {
  const cache = await Cacher.start({ store, prefix: PREFIX, codec, loadPageSize: 2 });
  return { reader: cache, close: () => cache.stop() };
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'keelson-cacher-'));
  const store = await openSqliteStore({ path: join(dir, 'db.sqlite') });
  return {
    store,
    close: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
