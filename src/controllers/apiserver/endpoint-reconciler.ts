/**
 * The `default/kubernetes` Endpoints and EndpointSlice: which API server replicas clients inside the cluster reach
 * (kube-apiserver's `--endpoint-reconciler-type`).
 *
 * - `lease` (default): every replica keeps a key `/registry/masterleases/<ip>` alive with a 15 s TTL (the store's
 *   TTL: an etcd lease, or the embedded stores' expiry), and every 10 s writes exactly the live replicas' addresses,
 *   sorted, into the Endpoints and EndpointSlice. A graceful stop deletes the key and rewrites the list without this
 *   replica (kube's RemoveEndpoints); a killed replica drops out once its key expired. As kube, an empty lease list
 *   never erases the Endpoints (the last replica to stop leaves its address behind).
 * - `master-count`: no leases; each replica adds its own address and keeps at most `--apiserver-count` addresses,
 *   dropping the ones after its own (kube's masterCountEndpointReconciler). Dead replicas are never removed.
 * - `none`: the Endpoints are left alone.
 *
 * Ports: Endpoints carry one port list for all addresses, and kube assumes every replica serves the same secure
 * port; a replica rewrites the port to its own when they differ. Replicas on one host therefore bind distinct
 * addresses (127.0.0.x) on the same port. Loopback addresses are refused by Endpoints validation, so a replica
 * advertised on loopback (the local default) takes no part.
 */
import type { KObject } from '../../machinery/objects.ts';
import { isAlreadyExists, isNotFound } from '../../machinery/errors.ts';
import type { Store } from '../../storage/interface.ts';
import type { RestRegistry, RestStorage } from '../../registry/rest.ts';
import { systemContext, type Logger } from '../../registry/system-context.ts';

export type EndpointReconcilerType = 'lease' | 'master-count' | 'none';

export const ENDPOINT_RECONCILER_TYPES: readonly EndpointReconcilerType[] = ['master-count', 'lease', 'none'];
/** kube's DefaultEndpointReconcilerInterval and DefaultEndpointReconcilerTTL. */
export const RECONCILE_INTERVAL_MS = 10_000;
export const MASTER_LEASE_TTL_SECONDS = 15;
export const MASTER_LEASES_PREFIX = '/registry/masterleases/';

export interface ServiceEndpoints {
  /** Addresses in stored order. */
  readonly addresses: readonly string[];
  readonly port: number | undefined;
  /** One subset, one `https`/TCP port, no not-ready addresses: the shape the reconciler writes. */
  readonly wellFormed: boolean;
}

/** What an Endpoints object currently says, and whether it has the reconciler's shape. */
export function readEndpoints(obj: KObject | undefined): ServiceEndpoints {
  const subsets = (obj?.['subsets'] ?? []) as Array<{ addresses?: Array<{ ip: string }>; notReadyAddresses?: unknown[]; ports?: Array<{ name?: string; port: number; protocol?: string }> }>;
  const first = subsets[0];
  const addresses = (first?.addresses ?? []).map((a) => a.ip);
  const ports = first?.ports ?? [];
  const wellFormed = subsets.length === 1 && (first?.notReadyAddresses ?? []).length === 0 && ports.length === 1 && ports[0]!.name === 'https' && (ports[0]!.protocol ?? 'TCP') === 'TCP';
  return { addresses, port: ports[0]?.port, wellFormed };
}

/** Lease reconciler: the live replicas (plus this one unless it is leaving), sorted as kube sorts (by string). */
export function leaseAddresses(live: readonly string[], self: string | undefined): string[] {
  const set = new Set(live);
  if (self) set.add(self);
  return [...set].sort();
}

/**
 * master-count reconciler: this replica's address is always added; above `count`, addresses after it (wrapping
 * around) are dropped, which converges once every replica has written.
 */
export function masterCountAddresses(current: ServiceEndpoints, self: string, count: number): string[] {
  if (!current.wellFormed) return [self];
  const addrs = [...new Set([...current.addresses, self])].sort();
  while (addrs.length > Math.max(1, count)) addrs.splice((addrs.indexOf(self) + 1) % addrs.length, 1);
  return addrs;
}

/** True when `current` already lists exactly `addresses` (in order) with `port`. */
export function endpointsMatch(current: ServiceEndpoints, addresses: readonly string[], port: number): boolean {
  return current.wellFormed && current.port === port && current.addresses.length === addresses.length && current.addresses.every((a, i) => a === addresses[i]);
}

const ENDPOINTS_LABELS = { 'endpointslice.kubernetes.io/skip-mirror': 'true' };

/** `current` (or a new object) with its subsets replaced by the reconciler's one subset. */
export function endpointsObject(current: KObject | undefined, addresses: readonly string[], port: number): KObject {
  const base: KObject = current ? structuredClone(current) : { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'kubernetes', namespace: 'default', labels: ENDPOINTS_LABELS } };
  base['subsets'] = [{ addresses: addresses.map((ip) => ({ ip })), ports: [{ name: 'https', port, protocol: 'TCP' }] }];
  return base;
}

export function endpointSliceObject(current: KObject | undefined, addresses: readonly string[], port: number): KObject {
  const base: KObject = current ? structuredClone(current) : {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
  };
  base['addressType'] = addresses.some((a) => a.includes(':')) ? 'IPv6' : 'IPv4';
  base['endpoints'] = addresses.map((ip) => ({ addresses: [ip], conditions: { ready: true } }));
  base['ports'] = [{ name: 'https', port, protocol: 'TCP' }];
  return base;
}

function sliceAddresses(obj: KObject | undefined): { addresses: string[]; port: number | undefined } {
  const eps = (obj?.['endpoints'] ?? []) as Array<{ addresses?: string[] }>;
  const ports = (obj?.['ports'] ?? []) as Array<{ port?: number }>;
  return { addresses: eps.flatMap((e) => e.addresses ?? []), port: ports.length === 1 ? ports[0]!.port : undefined };
}

export function isLoopback(ip: string): boolean {
  return ip.startsWith('127.') || ip === '::1';
}

export interface EndpointReconcilerOptions {
  registry: RestRegistry;
  /** The backend the master leases live in (raw keys with a TTL, outside the registry, as kube's). */
  store: Store;
  type: EndpointReconcilerType;
  /** This replica's advertise address and secure port. */
  address: string;
  port: number;
  /** `--apiserver-count` (master-count only). Default 1. */
  apiserverCount?: number;
  /** Internal knobs for tests; defaults are kube's. */
  intervalMs?: number;
  leaseTtlSeconds?: number;
  log?: Logger;
}

export interface EndpointReconciler {
  /** One pass (renew this replica's lease, rewrite Endpoints/EndpointSlice when they differ). */
  reconcile(): Promise<void>;
  /** Graceful stop: the lease is deleted and the list rewritten without this replica. Idempotent. */
  stop(): Promise<void>;
}

async function getOrUndefined(storage: RestStorage, name: string): Promise<KObject | undefined> {
  try {
    return (await storage.get(systemContext({ namespace: 'default' }), name, {})).object;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** Creates or replaces `default/<name>` with `build(current)` unless `same(current)`. */
async function writeIfChanged(storage: RestStorage, same: (cur: KObject | undefined) => boolean, build: (cur: KObject | undefined) => KObject): Promise<void> {
  const current = await getOrUndefined(storage, 'kubernetes');
  if (same(current)) return;
  try {
    await storage.guaranteedUpdate(systemContext({ namespace: 'default' }), 'kubernetes', (cur) => build(cur), { allowCreate: true });
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
}

/** The masterlease value: an Endpoints object naming the address, as kube stores it. */
function masterLeaseValue(ip: string): Uint8Array {
  return Buffer.from(JSON.stringify({ kind: 'Endpoints', apiVersion: 'v1', metadata: { name: ip, creationTimestamp: null }, subsets: [{ addresses: [{ ip }] }] }));
}

/** Starts the configured reconciler; `none` (or a loopback address) returns one that does nothing. */
export async function startEndpointReconciler(opts: EndpointReconcilerOptions): Promise<EndpointReconciler> {
  const log = opts.log ?? (() => {});
  if (opts.type === 'none') return { reconcile: () => Promise.resolve(), stop: () => Promise.resolve() };
  if (isLoopback(opts.address)) {
    log(`endpoint reconciler: the advertise address ${opts.address} is a loopback address, which Endpoints may not hold; the kubernetes Service gets no endpoints from this server`);
    return { reconcile: () => Promise.resolve(), stop: () => Promise.resolve() };
  }
  const endpoints = opts.registry.lookup('', 'v1', 'endpoints');
  const slices = opts.registry.lookup('discovery.k8s.io', 'v1', 'endpointslices');
  const ttl = opts.leaseTtlSeconds ?? MASTER_LEASE_TTL_SECONDS;
  const leaseKey = MASTER_LEASES_PREFIX + opts.address;
  let leaving = false;

  const renewLease = async (): Promise<void> => {
    const cur = await opts.store.get(leaseKey);
    const res = cur
      ? await opts.store.update(leaseKey, masterLeaseValue(opts.address), { expectedModRevision: cur.modRevision, ttlSeconds: ttl })
      : await opts.store.create(leaseKey, masterLeaseValue(opts.address), { ttlSeconds: ttl });
    if (!res.succeeded) throw new Error(`master lease ${leaseKey} changed while being renewed`);
  };

  const liveAddresses = async (): Promise<string[]> => {
    const res = await opts.store.range(MASTER_LEASES_PREFIX, { keysOnly: true });
    return res.items.map((kv) => kv.key.slice(MASTER_LEASES_PREFIX.length)).filter((ip) => ip !== '');
  };

  const desiredAddresses = async (current: ServiceEndpoints): Promise<string[] | undefined> => {
    if (opts.type === 'master-count') {
      if (!leaving) return masterCountAddresses(current, opts.address, opts.apiserverCount ?? 1);
      const rest = current.addresses.filter((a) => a !== opts.address);
      return rest.length > 0 ? rest : undefined;
    }
    const addrs = leaseAddresses((await liveAddresses()).filter((a) => !leaving || a !== opts.address), leaving ? undefined : opts.address);
    // kube refuses to erase every endpoint when no lease is listed (its error is logged, not fatal).
    return addrs.length > 0 ? addrs : undefined;
  };

  let running: Promise<void> = Promise.resolve();
  const pass = async (): Promise<void> => {
    if (opts.type === 'lease' && !leaving) await renewLease();
    if (!endpoints) return;
    const current = await getOrUndefined(endpoints, 'kubernetes');
    const want = await desiredAddresses(readEndpoints(current));
    if (!want) {
      if (leaving) log('endpoint reconciler: no other API server is listed; leaving the kubernetes endpoints as they are');
      return;
    }
    await writeIfChanged(endpoints, (cur) => endpointsMatch(readEndpoints(cur), want, opts.port), (cur) => endpointsObject(cur, want, opts.port));
    if (slices) {
      await writeIfChanged(slices, (cur) => {
        if (!cur) return false;
        const s = sliceAddresses(cur);
        return s.port === opts.port && s.addresses.length === want.length && s.addresses.every((a, i) => a === want[i]);
      }, (cur) => endpointSliceObject(cur, want, opts.port));
    }
  };
  // Passes never overlap: the timer's and stop()'s are chained.
  const reconcile = (): Promise<void> => (running = running.then(pass, pass));

  const report = (err: unknown): void => log(`endpoint reconciler: ${(err as Error)?.message ?? String(err)}`);
  await reconcile().catch(report);
  const timer = setInterval(() => {
    reconcile().catch(report);
  }, opts.intervalMs ?? RECONCILE_INTERVAL_MS);
  timer.unref();
  let stopping: Promise<void> | undefined;
  return {
    reconcile,
    stop: () => (stopping ??= (async () => {
      clearInterval(timer);
      leaving = true;
      try {
        if (opts.type === 'lease') await opts.store.delete(leaseKey);
        await reconcile();
      } catch (err) {
        log(`endpoint reconciler: removing this server's endpoint failed: ${(err as Error)?.message ?? String(err)}`);
      }
    })()),
  };
}
