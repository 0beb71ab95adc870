/**
 * Keelson as a library: `import { startServer } from 'keelson'` starts a Kubernetes-compatible API server in
 * this process (memory store and random port by default) and returns its URL, kubeconfig and `stop()`.
 */
export { startServer, type RunningServer } from './server/start.ts';
export type { ServerOptions, StorageKind } from './server/options.ts';
export { main } from './cli/main.ts';
