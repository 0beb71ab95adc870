import { DirectReader } from './direct-reader.ts';
import { runReaderContract } from './reader-contract.ts';
import { codec } from './test-helpers.ts';

runReaderContract('DirectReader', async (store) => ({ reader: new DirectReader({ store, codec }), close: async () => {} }));
