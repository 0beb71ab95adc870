/**
 * A local HA control plane on 127.0.0.1: an etcd cluster (startEtcdCluster), several Keelson processes on it
 * sharing one PKI and service-account key set (one `--cert-dir`, each replica its own `--data-dir`), and the
 * TCP load balancer in front. Used by the HA fault tests, the HA benchmark and `scripts/local-cluster.ts`.
 * Everything started here is stopped by PID in `stop()`.
 *
 * Resolves undefined when no etcd binary is installed (callers skip with a printed reason).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { startTcpLoadBalancer, type TcpLoadBalancer } from '../../src/cli/tcp-load-balancer.ts';
import { readKubeconfig, startKeelson, type AdminCreds, type KeelsonProcess } from '../acceptance/keelson-process.ts';
import { startEtcdCluster, type EtcdCluster } from './etcd.ts';

export interface HaClusterOptions {
  /** Keelson processes (default 3). */
  readonly replicas?: number;
  /** etcd members (default 3). */
  readonly etcdMembers?: number;
  /** Extra flags for every replica. */
  readonly extraArgs?: readonly string[];
  /** Where the PKI, data dirs and kubeconfigs go (default a fresh temporary dir, removed by `stop()`). */
  readonly dir?: string;
  /** Per-replica start timeout (default 120 s). */
  readonly readyTimeoutMs?: number;
}

export interface HaCluster {
  readonly dir: string;
  readonly etcd: EtcdCluster;
  /** Replica i (its own port and kubeconfig); `undefined` once stopped by `stopReplica`. */
  readonly replicas: (KeelsonProcess | undefined)[];
  readonly lb: TcpLoadBalancer;
  /** Admin kubeconfig whose server is the load balancer. */
  readonly kubeconfig: string;
  /** Admin credentials for the load balancer (`server` is its URL). */
  readonly creds: AdminCreds;
  /** Admin credentials for replica i directly. */
  replicaCreds(i: number): AdminCreds;
  /** Stops replica i with `signal` (SIGTERM: graceful) and returns its exit code. */
  stopReplica(i: number, signal?: NodeJS.Signals): Promise<number | null>;
  /** Stops the replicas (SIGTERM), the load balancer and etcd, and removes `dir` if it was made here. */
  stop(): Promise<void>;
}

export async function startHaCluster(opts: HaClusterOptions = {}): Promise<HaCluster | undefined> {
  const etcd = await startEtcdCluster({ members: opts.etcdMembers ?? 3 });
  if (!etcd) return undefined;
  const ownDir = opts.dir === undefined;
  const dir = opts.dir ?? (await mkdtemp(path.join(tmpdir(), 'keelson-ha-')));
  const pki = path.join(dir, 'pki');
  const replicas: (KeelsonProcess | undefined)[] = [];
  let lb: TcpLoadBalancer | undefined;
  const stopAll = async (): Promise<void> => {
    await lb?.close();
    await Promise.all(replicas.map(async (r) => { await r?.stop(); }));
    await etcd.stop();
    if (ownDir) await rm(dir, { recursive: true, force: true });
  };
  try {
    const start = (i: number): Promise<KeelsonProcess> =>
      startKeelson({
        dataDir: path.join(dir, `replica-${i}`),
        kubeconfig: path.join(dir, `replica-${i}`, 'admin.kubeconfig'),
        readyTimeoutMs: opts.readyTimeoutMs ?? 120_000,
        extraArgs: [`--etcd-servers=${etcd.endpoints.join(',')}`, `--cert-dir=${pki}`, ...(opts.extraArgs ?? [])],
      });
    // The first replica creates the shared CA, serving certificate and service-account key; the rest load them.
    replicas.push(await start(0));
    const n = opts.replicas ?? 3;
    replicas.push(...(await Promise.all(Array.from({ length: n - 1 }, (_, i) => start(i + 1)))));
    lb = await startTcpLoadBalancer({ backends: replicas.map((r) => ({ host: '127.0.0.1', port: r!.port })) });
    const kubeconfig = path.join(dir, 'admin.kubeconfig');
    const lbUrl = `https://127.0.0.1:${lb.port}`;
    const first = readFileSync(replicas[0]!.kubeconfig, 'utf8');
    await writeFile(kubeconfig, first.replace(/server: https:\/\/[^\s]+/g, `server: ${lbUrl}`), { mode: 0o600 });
    const creds = readKubeconfig(kubeconfig);
    const theLb = lb;
    return {
      dir,
      etcd,
      replicas,
      lb: theLb,
      kubeconfig,
      creds,
      replicaCreds: (i) => ({ ...creds, server: `https://127.0.0.1:${replicas[i]?.port ?? 0}` }),
      stopReplica: async (i, signal = 'SIGTERM') => {
        const r = replicas[i];
        if (!r) return null;
        replicas[i] = undefined;
        return await r.stop(signal);
      },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
