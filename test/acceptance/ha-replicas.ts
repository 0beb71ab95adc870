/**
 * Keelson replicas as separate processes on one etcd, sharing one PKI (CA, serving and client certificates,
 * service account key): the first replica makes it in its data dir and every later one starts on a copy of
 * that dir, so tokens and client certificates work against any replica. Used by the failover acceptance test
 * and bench/leader-failover.ts.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { httpsGet, readKubeconfig, startKeelson, type AdminCreds, type KeelsonProcess } from './keelson-process.ts';

export interface Replica {
  readonly name: string;
  readonly process: KeelsonProcess;
  readonly creds: AdminCreds;
  readonly kubeconfig: string;
  /** The leader election identity it logged when it acquired the lease ('' until then). */
  identity(): string;
}

export interface ReplicaSet {
  start(name: string): Promise<Replica>;
  /** Stops every replica still running (SIGKILL) and removes the directories. */
  close(): Promise<void>;
}

export function replicaSet(opts: { etcdEndpoint: string; extraArgs?: string[] }): ReplicaSet {
  const root = mkdtempSync(path.join(tmpdir(), 'keelson-ha-'));
  const running: KeelsonProcess[] = [];
  let first: string | undefined;
  return {
    async start(name) {
      const dataDir = path.join(root, name);
      if (first) cpSync(first, dataDir, { recursive: true });
      const kubeconfig = path.join(root, `${name}.kubeconfig`);
      const p = await startKeelson({ dataDir, kubeconfig, extraArgs: [`--etcd-servers=${opts.etcdEndpoint}`, ...(opts.extraArgs ?? [])] });
      running.push(p);
      first ??= dataDir;
      return {
        name, process: p, creds: readKubeconfig(kubeconfig), kubeconfig,
        identity: () => /successfully acquired lease \S+ as (\S+)/.exec(p.output())?.[1] ?? '',
      };
    },
    async close() {
      await Promise.all(running.map((p) => p.stop('SIGKILL').catch(() => null)));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The controller lease's spec as read through `creds` (undefined when it does not exist yet). */
export async function leaseSpec(creds: AdminCreds, name = 'kube-controller-manager'): Promise<{ holderIdentity?: string; leaseTransitions?: number; leaseDurationSeconds?: number } | undefined> {
  const r = await httpsGet(creds, `/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/${name}`, 5_000);
  if (r.status === 404) return undefined;
  if (r.status !== 200) throw new Error(`GET lease: ${r.status} ${r.text}`);
  return JSON.parse(r.text).spec;
}

/** Polls every 20 ms until the lease is held by someone other than `former`; returns the new holder. */
export async function waitForNewHolder(creds: AdminCreds, former: string, timeoutMs: number): Promise<string> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      const holder = (await leaseSpec(creds))?.holderIdentity ?? '';
      if (holder && holder !== former) return holder;
    } catch {
      // a slow answer under load: ask again
    }
    if (Date.now() > end) throw new Error(`no new lease holder within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
