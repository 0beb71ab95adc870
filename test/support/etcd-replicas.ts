/**
 * Several in-process servers on one fresh etcd, sharing one cert dir (replicas with other keys or CAs are refused
 * at start), started one after another and stopped in reverse order with the etcd and the cert dir.
 * Resolves undefined when no etcd binary is installed (callers skip with a printed reason).
 */
import { rmSync } from 'node:fs';
import { startEtcd } from './etcd.ts';
import { sharedCertDir, startTestServer, type TestServer, type TestServerOptions } from './server.ts';

export interface EtcdReplicas {
  readonly servers: readonly TestServer[];
  stop(): Promise<void>;
}

export async function startReplicasOnEtcd(count: number, opts: TestServerOptions & { etcdPrefix: string }): Promise<EtcdReplicas | undefined> {
  const etcd = await startEtcd();
  if (!etcd) return undefined;
  const servers: TestServer[] = [];
  let certDir: string | undefined;
  const stop = async (): Promise<void> => {
    for (const s of [...servers].reverse()) await s.stop();
    await etcd.stop();
    if (certDir) rmSync(certDir, { recursive: true, force: true });
  };
  try {
    certDir = await sharedCertDir();
    for (let i = 0; i < count; i++) servers.push(await startTestServer({ ...opts, certDir, storage: 'etcd', etcdServers: [etcd.endpoint] }));
  } catch (err) {
    await stop();
    throw err;
  }
  return { servers, stop };
}
