/**
 * Keelson as a library: `import { startServer } from 'keelson'` starts a Kubernetes-compatible API server in
 * this process (memory store and random port by default) and returns its URL, kubeconfig and `stop()`.
 */
export { startServer, type RunningServer } from './controlplane/start.ts';
export type { ServerOptions, StorageKind } from './controlplane/options.ts';
export { main } from './cli/main.ts';
