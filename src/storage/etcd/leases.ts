/**
 * Leases for keys written with a TTL (Kubernetes uses them for Events).
 *
 * Granting one lease per write would flood etcd, so, like kube-apiserver's lease manager, a lease is reused
 * for writes arriving within a short window: a lease is granted for `ttl + reuse` seconds (reuse = 5% of
 * the TTL, at most 60 s) and handed to later writes with the same or a shorter TTL as long as it still
 * outlives their TTL and does not overshoot it by more than the reuse window. Keys therefore live at least
 * their TTL and at most TTL + reuse.
 */
import type { Etcd3 } from 'etcd3';

/** Distinct TTLs whose leases are kept for reuse. */
const MAX_CACHED = 64;

interface CachedLease {
  readonly id: string;
  readonly expiresAt: number;
}

export class LeaseManager {
  private readonly byTtl = new Map<number, CachedLease>();
  private readonly pending = new Map<number, Promise<string>>();

  constructor(
    private readonly client: Etcd3,
    private readonly now: () => number = Date.now,
  ) {}

  /** A lease id (as etcd's decimal string) that keeps a key alive for at least `ttlSeconds`. */
  async leaseFor(ttlSeconds: number): Promise<string> {
    const ttl = Math.max(1, Math.ceil(ttlSeconds));
    const now = this.now();
    const cached = this.byTtl.get(ttl);
    if (cached && cached.expiresAt - now >= ttl * 1000) return cached.id;
    const inflight = this.pending.get(ttl);
    if (inflight) return await inflight;
    const reuse = Math.min(60, Math.ceil(ttl * 0.05));
    const grant = (async () => {
      const res = await this.client.leaseClient.leaseGrant({ TTL: ttl + reuse, ID: 0 });
      if (this.byTtl.size >= MAX_CACHED) this.prune(now);
      this.byTtl.set(ttl, { id: String(res.ID), expiresAt: now + (ttl + reuse) * 1000 });
      return String(res.ID);
    })();
    this.pending.set(ttl, grant);
    try {
      return await grant;
    } finally {
      this.pending.delete(ttl);
    }
  }

  /** Drops expired leases, or everything if none has expired (TTLs are few in practice: Events use one). */
  private prune(now: number): void {
    for (const [ttl, lease] of this.byTtl) if (lease.expiresAt <= now) this.byTtl.delete(ttl);
    if (this.byTtl.size >= MAX_CACHED) this.byTtl.clear();
  }

  clear(): void {
    this.byTtl.clear();
  }
}
