/**
 * API server identity (kube's APIServerIdentity, GA in 1.33): every replica holds a Lease `apiserver-<hash>` in
 * `kube-system`, labelled `apiserver.kubernetes.io/identity=kube-apiserver` and `kubernetes.io/hostname`, and renews
 * it every 10 s with a 3600 s duration. Independently each replica garbage-collects identity leases whose
 * renewTime + leaseDurationSeconds lies in the past (kube's apiserverleasegc, hourly). Per replica, never under
 * leader election: as in kube-apiserver.
 *
 * Difference from kube: kube hashes (hostname, "kube-apiserver"), so one host has one identity. Several Keelson
 * replicas may share a host (tests, the local cluster script), so the hash also covers this replica's listening
 * endpoint (`instance`, e.g. `127.0.0.2:6443`): still stable across restarts of the same replica, distinct
 * between replicas on one host.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { KObject } from '../../machinery/objects.ts';
import { isConflict, isNotFound } from '../../machinery/errors.ts';
import type { RestRegistry, RestStorage } from '../../registry/rest.ts';
import { systemContext, type Logger } from '../../registry/system-context.ts';

export const IDENTITY_LABEL = 'apiserver.kubernetes.io/identity';
export const IDENTITY_VALUE = 'kube-apiserver';
export const HOSTNAME_LABEL = 'kubernetes.io/hostname';
export const IDENTITY_LEASE_DURATION_SECONDS = 3600;
export const IDENTITY_RENEW_INTERVAL_MS = 10_000;
export const IDENTITY_GC_PERIOD_MS = 3_600_000;

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32 (lower case, no padding), as kube renders the hash. */
export function base32NoPad(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let acc = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(acc >>> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(acc << (5 - bits)) & 31];
  return out;
}

/** Each field with a 2-byte big-endian length first (kube builds the hash input with cryptobyte the same way). */
function lengthPrefixed(fields: readonly string[]): Buffer {
  return Buffer.concat(fields.flatMap((f) => {
    const body = Buffer.from(f, 'utf8');
    const len = Buffer.alloc(2);
    len.writeUInt16BE(body.length);
    return [len, body];
  }));
}

/**
 * `apiserver-` + base32 of the first 16 bytes of SHA-256 over (hostname, "kube-apiserver"[, instance]).
 * Without `instance` this is exactly kube-apiserver's name for the host.
 */
export function identityLeaseName(hostname: string, instance?: string): string {
  const fields = [hostname, IDENTITY_VALUE, ...(instance ? [instance] : [])];
  const hash = createHash('sha256').update(lengthPrefixed(fields)).digest();
  return `apiserver-${base32NoPad(hash.subarray(0, 16))}`;
}

/** MicroTime as the API renders it: RFC 3339 with six fractional digits. */
export function microTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** kube's apiserverleasegc test: renewTime + leaseDurationSeconds is before now (a lease never renewed is kept). */
export function isExpiredLease(lease: KObject, now: Date): boolean {
  const spec = (lease['spec'] ?? {}) as { renewTime?: string; leaseDurationSeconds?: number };
  if (!spec.renewTime || typeof spec.leaseDurationSeconds !== 'number') return false;
  const renewed = Date.parse(spec.renewTime);
  if (Number.isNaN(renewed)) return false;
  return renewed + spec.leaseDurationSeconds * 1000 < now.getTime();
}

export interface IdentityLeaseOptions {
  registry: RestRegistry;
  hostname: string;
  /** What makes this replica unique on its host (its listening endpoint). */
  instance: string;
  /** Internal knobs for tests; defaults are kube's. */
  leaseDurationSeconds?: number;
  renewIntervalMs?: number;
  gcPeriodMs?: number;
  now?: () => Date;
  log?: Logger;
}

export interface ApiServerIdentity {
  /** The Lease's name (`apiserver-…`): kube's APIServerID. */
  readonly id: string;
  /** `<id>_<uuid>`: a new holder per process start, as kube's. */
  readonly holderIdentity: string;
  /** Renews once now (tests; the loop calls it). */
  renew(): Promise<void>;
  /** One garbage-collection pass; resolves to the names deleted. */
  collectExpired(): Promise<string[]>;
  stop(): Promise<void>;
}

function leasesOf(registry: RestRegistry): RestStorage {
  const s = registry.lookup('coordination.k8s.io', 'v1', 'leases');
  if (!s) throw new Error('API server identity needs coordination.k8s.io/v1 leases, which are not served');
  return s;
}

/** Creates the lease (or takes it over after a restart), starts renewing it and the garbage collector. */
export async function startApiServerIdentity(opts: IdentityLeaseOptions): Promise<ApiServerIdentity> {
  const leases = leasesOf(opts.registry);
  const now = opts.now ?? (() => new Date());
  const log = opts.log ?? (() => {});
  const duration = opts.leaseDurationSeconds ?? IDENTITY_LEASE_DURATION_SECONDS;
  const id = identityLeaseName(opts.hostname, opts.instance);
  const holderIdentity = `${id}_${randomUUID()}`;
  const ctx = () => systemContext({ namespace: 'kube-system' });

  const desired = (current: KObject | undefined): KObject => {
    const t = microTime(now());
    const base: KObject = current ? structuredClone(current) : { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: id, namespace: 'kube-system' } };
    base.metadata = { ...base.metadata, labels: { ...(base.metadata.labels ?? {}), [IDENTITY_LABEL]: IDENTITY_VALUE, [HOSTNAME_LABEL]: opts.hostname } };
    const spec = { ...((base['spec'] ?? {}) as Record<string, unknown>) };
    spec['holderIdentity'] = holderIdentity;
    spec['leaseDurationSeconds'] = duration;
    spec['renewTime'] = t;
    if (!current || (current['spec'] as { holderIdentity?: string } | undefined)?.holderIdentity !== holderIdentity) spec['acquireTime'] = t;
    base['spec'] = spec;
    return base;
  };

  const renew = async (): Promise<void> => {
    await leases.guaranteedUpdate(ctx(), id, desired, { allowCreate: true });
  };

  const collectExpired = async (): Promise<string[]> => {
    const list = await leases.list(ctx(), { labelSelector: `${IDENTITY_LABEL}=${IDENTITY_VALUE}` });
    const deleted: string[] = [];
    for (const item of list.items) {
      const lease = item.object;
      const name = lease.metadata.name ?? '';
      if (name === id || !isExpiredLease(lease, now())) continue;
      try {
        // Guarded by the version judged expired: a replica that renewed it meanwhile keeps it.
        await leases.delete(ctx(), name, { preconditions: { resourceVersion: lease.metadata.resourceVersion ?? '' } });
        deleted.push(name);
      } catch (err) {
        if (!isNotFound(err) && !isConflict(err)) log(`apiserver identity: could not delete expired lease ${name}: ${(err as Error).message}`);
      }
    }
    return deleted;
  };

  // A failed first renewal is retried by the loop (kube's lease controller logs and retries too).
  await renew().catch((err: unknown) => log(`apiserver identity: creating lease ${id} failed: ${(err as Error)?.message ?? String(err)}`));
  let stopped = false;
  const loop = (every: number, what: string, run: () => Promise<unknown>): NodeJS.Timeout => {
    const t = setInterval(() => {
      if (stopped) return;
      run().catch((err: unknown) => log(`apiserver identity: ${what} failed: ${(err as Error)?.message ?? String(err)}`));
    }, every);
    t.unref();
    return t;
  };
  const renewTimer = loop(opts.renewIntervalMs ?? IDENTITY_RENEW_INTERVAL_MS, `renewing lease ${id}`, renew);
  const gcTimer = loop(opts.gcPeriodMs ?? IDENTITY_GC_PERIOD_MS, 'garbage collection', collectExpired);
  return {
    id,
    holderIdentity,
    renew,
    collectExpired,
    stop: () => {
      // kube leaves its identity lease behind on shutdown: it expires and another replica collects it.
      stopped = true;
      clearInterval(renewTimer);
      clearInterval(gcTimer);
      return Promise.resolve();
    },
  };
}
