/**
 * What each API server replica does for itself on a shared store, wired from start.ts:
 * - before serving: register its trust material and refuse to start next to a replica with other keys or CAs,
 *   warn about other live `--etcd-prefix`es (./replica-check.ts);
 * - once serving: hold its identity Lease and collect expired ones, and keep the `kubernetes` Endpoints and
 *   EndpointSlice at the live replicas (controllers/apiserver/). Per replica, not under leader election (as kube).
 */
import { hostname } from 'node:os';
import type { ResolvedOptions } from './options.ts';
import type { Pki } from './pki.ts';
import type { ServiceAccountIssuer } from '../authn/serviceaccount/issuer.ts';
import type { Store } from '../storage/interface.ts';
import { openStore } from '../storage/factory.ts';
import type { RestRegistry } from '../registry/rest.ts';
import { startApiServerIdentity } from '../controllers/apiserver/identity-lease.ts';
import { MASTER_LEASE_TTL_SECONDS, RECONCILE_INTERVAL_MS, startEndpointReconciler } from '../controllers/apiserver/endpoint-reconciler.ts';
import { PREFIX_REGISTRY_ROOT, registerReplica, trustFingerprints, type ReplicaRegistration } from './replica-check.ts';

/** Registers this replica; throws ReplicaMismatchError when its trust material differs from a live replica's. */
export async function registerReplicaTrust(o: ResolvedOptions, store: Store, pki: Pki, issuer: ServiceAccountIssuer): Promise<ReplicaRegistration> {
  const fingerprints = trustFingerprints({
    signingKey: issuer.keys.signing.key, verifyingKeys: issuer.keys.verifying.map((k) => k.key), clientCaPems: pki.clientCaPems, servingCaPem: pki.serverCaPem,
  });
  // The prefix registry lives outside --etcd-prefix: a second connection without it, allowed to write there only.
  const rootStore = o.storage === 'etcd'
    ? await openStore({ kind: 'etcd', etcdServers: o.etcdServers, etcdPrefix: '', etcdCaFile: o.etcdCaFile, etcdCertFile: o.etcdCertFile, etcdKeyFile: o.etcdKeyFile, keyPrefix: PREFIX_REGISTRY_ROOT, compactionIntervalMs: 0 })
    : undefined;
  const t = o.replicaTiming;
  try {
    const reg = await registerReplica({
      store, ...(rootStore ? { rootStore } : {}), etcdPrefix: o.etcdPrefix, advertiseAddress: o.advertiseAddress, fingerprints,
      ttlSeconds: t.endpointLeaseTtlSeconds ?? MASTER_LEASE_TTL_SECONDS, renewIntervalMs: t.endpointReconcileIntervalMs ?? RECONCILE_INTERVAL_MS, log: o.log,
    });
    return {
      uid: reg.uid,
      stop: async () => {
        await reg.stop();
        await rootStore?.close();
      },
    };
  } catch (err) {
    await rootStore?.close();
    throw err;
  }
}

/** Starts the identity lease and the endpoint reconciler; `stop()` removes this replica's endpoint (graceful). */
export async function startReplicaHooks(o: ResolvedOptions, deps: { registry: RestRegistry; store: Store; port: number; identity: boolean }): Promise<{ stop(): Promise<void> }> {
  const t = o.replicaTiming;
  const identity = deps.identity
    ? await startApiServerIdentity({
      registry: deps.registry, hostname: hostname(), instance: `${o.bindAddress}:${deps.port}`, log: o.log,
      ...(t.identityLeaseDurationSeconds !== undefined ? { leaseDurationSeconds: t.identityLeaseDurationSeconds } : {}),
      ...(t.identityRenewIntervalMs !== undefined ? { renewIntervalMs: t.identityRenewIntervalMs } : {}),
      ...(t.identityGcPeriodMs !== undefined ? { gcPeriodMs: t.identityGcPeriodMs } : {}),
    })
    : undefined;
  const endpoints = await startEndpointReconciler({
    registry: deps.registry, store: deps.store, type: o.endpointReconcilerType, address: o.advertiseAddress, port: deps.port,
    apiserverCount: o.apiserverCount, log: o.log,
    ...(t.endpointReconcileIntervalMs !== undefined ? { intervalMs: t.endpointReconcileIntervalMs } : {}),
    ...(t.endpointLeaseTtlSeconds !== undefined ? { leaseTtlSeconds: t.endpointLeaseTtlSeconds } : {}),
  });
  return {
    stop: async () => {
      await endpoints.stop();
      await identity?.stop();
    },
  };
}
