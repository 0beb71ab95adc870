/**
 * `npm run local-cluster`: a local HA control plane to try replicas on one machine — a 3-member etcd cluster,
 * three Keelson replicas on 127.0.0.1 sharing one PKI and service-account key set, and a TCP load balancer in
 * front. Prints the admin kubeconfig (its server is the load balancer) and the PIDs; Ctrl-C stops everything.
 *
 *   npm run local-cluster -- [--replicas=3] [--dir=<dir, kept afterwards>] [-- <extra keelson flags>]
 *   kubectl --kubeconfig <printed path> get namespaces
 *
 * Needs the `etcd` binary (Debian: etcd-server; or KEELSON_ETCD_BIN).
 */
import { startHaCluster } from '../test/support/ha-cluster.ts';

const args = process.argv.slice(2);
const sep = args.indexOf('--');
const own = sep < 0 ? args : args.slice(0, sep);
const extraArgs = sep < 0 ? [] : args.slice(sep + 1);
const flag = (name: string): string | undefined => own.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const replicas = Number(flag('replicas') ?? 3);
if (!Number.isInteger(replicas) || replicas < 1) {
  console.error(`--replicas must be a positive integer, got ${flag('replicas')}`);
  process.exit(2);
}

console.log(`starting a 3-member etcd cluster and ${replicas} Keelson replicas on 127.0.0.1 …`);
const cluster = await startHaCluster({ replicas, extraArgs, ...(flag('dir') ? { dir: flag('dir')! } : {}) });
if (!cluster) {
  console.error('no etcd binary found: install etcd (Debian: apt-get install etcd-server) or set KEELSON_ETCD_BIN');
  process.exit(1);
}
console.log(`etcd members:      ${cluster.etcd.endpoints.join(' ')} (pids ${cluster.etcd.members.map((m) => m.pid).join(' ')})`);
cluster.replicas.forEach((r, i) => console.log(`replica ${i}:         https://127.0.0.1:${r!.port} (pid ${r!.pid})`));
console.log(`load balancer:     https://127.0.0.1:${cluster.lb.port}`);
console.log(`\nexport KUBECONFIG=${cluster.kubeconfig}\n\nCtrl-C stops everything.`);

let stopping = false;
const shutdown = (): void => {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping …');
  void cluster.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
