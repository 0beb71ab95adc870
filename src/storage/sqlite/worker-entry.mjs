// Worker threads do not inherit the parent's `--import tsx` loader: register it, then load the TypeScript
// module named by workerData.module (relative to this directory).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(new URL(workerData.module, import.meta.url).href);
