import { DirectReader } from './direct-reader.ts';
import { runReaderContract } from './testing/reader-contract.ts';
import { codec } from './testing/helpers.ts';

runReaderContract('DirectReader', async (store) => ({ reader: new DirectReader({ store, codec }), close: async () => {} }));
