/**
 * The shared storage conformance suite against the etcd backend, on a throwaway etcd (skipped with a
 * reason when no `etcd` binary is installed). `reopen()` kills etcd (SIGKILL) and restarts it on the same
 * data dir before opening a new store, so "data survives reopen" also covers an etcd crash.
 */
import { it } from 'node:test';
import { startEtcd, type EtcdProcess } from '../../../test/support/etcd.ts';
import { runStorageConformance } from '../conformance/suite.ts';
import { openEtcdStore } from './etcd-store.ts';

const etcd: EtcdProcess | undefined = await startEtcd();

if (!etcd) {
  const reason = 'no etcd binary found (install Debian etcd-server or set KEELSON_ETCD_BIN)';
  console.log(`# SKIP etcd conformance: ${reason}`);
  void it('storage conformance: etcd', { skip: reason }, () => {});
} else {
  const server = etcd;
  // A per-run etcd prefix, as kube-apiserver's --etcd-prefix, so the suite also exercises prefixing.
  const open = () =>
    openEtcdStore({ servers: [server.endpoint], prefix: `/keelson-conformance-${process.pid}`, keyPrefix: '/registry/' });
  runStorageConformance('etcd', {
    open,
    async reopen() {
      await server.restart();
      return await open();
    },
    cleanup: () => server.stop(),
    supports: { ttl: true },
    keyPrefix: '/registry/',
  });
}
