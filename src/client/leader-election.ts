/**
 * Leader election on a `coordination.k8s.io/v1` Lease, with client-go's leaderelection semantics (what
 * kube-controller-manager runs its controllers under):
 *   - a lease held by someone else is taken only once it has not changed for its leaseDurationSeconds, timed by
 *     this process's own clock from when it last saw the lease change (never by comparing renewTime with our
 *     clock, so clock skew between replicas does not matter); an empty holderIdentity is free at once;
 *   - creating the lease or taking it over writes acquireTime = renewTime = now; a takeover adds one to
 *     leaseTransitions; the holder's renewals keep acquireTime and leaseTransitions and move renewTime;
 *   - every write is guarded by the resourceVersion read, so two candidates never both win;
 *   - the leader renews every retry period; when no renewal has succeeded for the renew deadline it stops
 *     leading (the controllers stop) and goes back to trying to acquire;
 *   - `stop()` stops the controllers and releases the lease (client-go's ReleaseOnCancel: holderIdentity "",
 *     leaseDurationSeconds 1), so another replica takes over on its next try instead of after a lease duration.
 * kube-controller-manager exits when it loses the lease; here the API keeps serving and only the controllers
 * stop, so the replica becomes a candidate again.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { KObject } from '../machinery/objects.ts';
import type { RestStorage } from '../registry/rest.ts';
import { isAlreadyExists, isConflict, isNotFound } from '../machinery/errors.ts';
import { systemContext, type Logger } from '../registry/system-context.ts';

/** client-go's JitterFactor: the acquire loop waits retryPeriod × (1 + up to 1.2). */
export const JITTER_FACTOR = 1.2;

export interface LeaderElectionTiming {
  /** How long a lease not renewed stays valid for the others (`--leader-elect-lease-duration`, 15 s). */
  leaseDurationMs: number;
  /** How long the leader keeps trying to renew before it gives up (`--leader-elect-renew-deadline`, 10 s). */
  renewDeadlineMs: number;
  /** Pause between attempts (`--leader-elect-retry-period`, 2 s). */
  retryPeriodMs: number;
}

export const DEFAULT_LEADER_ELECTION_TIMING: LeaderElectionTiming = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

/** client-go's NewLeaderElector checks; the message names what is wrong, or undefined when the timing is usable. */
export function leaderElectionTimingError(t: LeaderElectionTiming): string | undefined {
  if (t.leaseDurationMs <= t.renewDeadlineMs) return 'leaseDuration must be greater than renewDeadline';
  if (t.renewDeadlineMs <= JITTER_FACTOR * t.retryPeriodMs) return 'renewDeadline must be greater than retryPeriod*JitterFactor';
  if (t.leaseDurationMs < 1) return 'leaseDuration must be greater than zero';
  if (t.renewDeadlineMs < 1) return 'renewDeadline must be greater than zero';
  if (t.retryPeriodMs < 1) return 'retryPeriod must be greater than zero';
  return undefined;
}

/** kube-controller-manager's identity: `<hostname>_<uuid>` (unique per process start). */
export function defaultLeaderIdentity(): string {
  return `${hostname()}_${randomUUID()}`;
}

export interface LeaderCallbacks {
  /** This replica became the leader: start the controllers. Renewals go on while it runs. */
  onStartedLeading(): Promise<void> | void;
  /** Leadership ended (lost or stopped): stop the controllers. Called once per onStartedLeading. */
  onStoppedLeading(): Promise<void> | void;
  /** The holder changed (to this replica or another). */
  onNewLeader?(identity: string): void;
}

export interface LeaderElectorOptions extends LeaderElectionTiming {
  /** The `leases` storage of coordination.k8s.io/v1. */
  leases: RestStorage;
  namespace: string;
  name: string;
  identity: string;
  callbacks: LeaderCallbacks;
  /**
   * The store admits one process only (the embedded store's lock, the memory store): a lease held by another
   * identity is left over from an earlier process and is taken at once instead of after a lease duration.
   */
  exclusiveStore?: boolean;
  log?: Logger;
  /** Wall clock for the lease's times (default Date). */
  now?: () => Date;
  /** Monotonic milliseconds for expiry and deadlines (default performance.now). */
  monotonic?: () => number;
}

/** The lease's spec as client-go's LeaderElectionRecord. */
interface LeaseRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions: number;
}

/** metav1.MicroTime: RFC 3339 with exactly six fraction digits, in UTC. */
export function microTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

function recordOf(lease: KObject): LeaseRecord {
  const spec = (lease['spec'] ?? {}) as Record<string, unknown>;
  return {
    holderIdentity: typeof spec['holderIdentity'] === 'string' ? spec['holderIdentity'] : '',
    leaseDurationSeconds: typeof spec['leaseDurationSeconds'] === 'number' ? spec['leaseDurationSeconds'] : 0,
    ...(typeof spec['acquireTime'] === 'string' ? { acquireTime: spec['acquireTime'] } : {}),
    ...(typeof spec['renewTime'] === 'string' ? { renewTime: spec['renewTime'] } : {}),
    leaseTransitions: typeof spec['leaseTransitions'] === 'number' ? spec['leaseTransitions'] : 0,
  };
}

const sameRecord = (a: LeaseRecord, b: LeaseRecord): boolean =>
  a.holderIdentity === b.holderIdentity && a.leaseDurationSeconds === b.leaseDurationSeconds && a.acquireTime === b.acquireTime
  && a.renewTime === b.renewTime && a.leaseTransitions === b.leaseTransitions;

class Stopped extends Error {}

export class LeaderElector {
  private readonly opts: LeaderElectorOptions;
  private readonly now: () => Date;
  private readonly mono: () => number;
  /** The lease as last read or written (its resourceVersion guards the next write). */
  private lease: KObject | undefined;
  private observed: LeaseRecord | undefined;
  /** Monotonic time the observed record last changed. */
  private observedAt = 0;
  private leading = false;
  private stopping = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private reportedLeader = '';

  constructor(opts: LeaderElectorOptions) {
    const err = leaderElectionTimingError(opts);
    if (err) throw new Error(err);
    this.opts = opts;
    this.now = opts.now ?? (() => new Date());
    this.mono = opts.monotonic ?? (() => performance.now());
  }

  get identity(): string {
    return this.opts.identity;
  }

  /** Whether this replica holds the lease right now (its controllers run). */
  isLeader(): boolean {
    return this.leading;
  }

  /** The holder this replica last saw ('' when none). */
  observedHolder(): string {
    return this.observed?.holderIdentity ?? '';
  }

  /**
   * Starts campaigning. The first attempt is made at once (no wait of a retry period); the promise resolves
   * after it — once the controllers have started when it won — and the campaign goes on in the background.
   */
  async start(): Promise<void> {
    if (this.loop) throw new Error('leader elector already started');
    let firstDone!: () => void;
    const first = new Promise<void>((r) => { firstDone = r; });
    this.loop = this.run(firstDone).catch((err: unknown) => {
      if (!(err instanceof Stopped)) this.opts.log?.(`leader election: ${(err as Error).message}`);
      firstDone();
    });
    await first;
  }

  /** Stops campaigning; when leading, stops the controllers and releases the lease. Idempotent. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
  }

  private async run(firstDone: () => void): Promise<void> {
    let first = true;
    while (!this.stopping) {
      // Acquire: at once, then every retry period with client-go's jitter.
      for (;;) {
        if (this.stopping) throw new Stopped();
        const won = await this.attempt();
        if (won) break;
        if (first) {
          first = false;
          firstDone();
        }
        await this.sleep(this.opts.retryPeriodMs * (1 + Math.random() * JITTER_FACTOR));
      }
      this.leading = true;
      this.opts.log?.(`leader election: successfully acquired lease ${this.opts.namespace}/${this.opts.name} as ${this.opts.identity}`);
      const started = Promise.resolve().then(() => this.opts.callbacks.onStartedLeading());
      const startedOk = started.then(() => true, (err: unknown) => {
        this.opts.log?.(`leader election: starting the controllers failed: ${(err as Error).message}`);
        return false;
      });
      if (first) {
        first = false;
        await startedOk;
        firstDone();
      }
      const end = await this.renewUntilLostOrStopped(startedOk);
      await startedOk;
      this.leading = false;
      try {
        await this.opts.callbacks.onStoppedLeading();
      } catch (err) {
        this.opts.log?.(`leader election: stopping the controllers failed: ${(err as Error).message}`);
      }
      if (end === 'lost') {
        this.opts.log?.(`leader election: lost lease ${this.opts.namespace}/${this.opts.name}`);
        continue;
      }
      await this.release();
      // Controllers that could not start: let another replica try before this one tries again.
      if (end === 'failed') await this.sleep(this.opts.retryPeriodMs * (1 + Math.random() * JITTER_FACTOR));
    }
  }

  /** Renews every retry period until leadership is lost, the elector stops, or the controllers failed to start. */
  private async renewUntilLostOrStopped(startedOk: Promise<boolean>): Promise<'lost' | 'stopped' | 'failed'> {
    let failedStart = false;
    void startedOk.then((ok) => {
      if (!ok) {
        failedStart = true;
        this.wake?.();
      }
    });
    let lastRenew = this.mono();
    for (;;) {
      await this.sleep(this.opts.retryPeriodMs);
      if (this.stopping) return 'stopped';
      if (failedStart) return 'failed';
      // client-go retries within one renew deadline; a hanging call counts against it too.
      const remaining = this.opts.renewDeadlineMs - (this.mono() - lastRenew);
      const ok = remaining > 0 && await this.withTimeout(this.attempt(), remaining);
      if (this.stopping) return 'stopped';
      if (ok) {
        lastRenew = this.mono();
        continue;
      }
      if (this.mono() - lastRenew >= this.opts.renewDeadlineMs) return 'lost';
      // A failed renewal within the deadline: the next try comes after one more retry period, as client-go's poll.
    }
  }

  private async withTimeout(p: Promise<boolean>, ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((r) => { timer = setTimeout(() => r(false), ms); });
    try {
      return await Promise.race([p, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.stopping) {
        resolve();
        return;
      }
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  /** One tryAcquireOrRenew; errors (store down, conflicts) count as a failed attempt. */
  private async attempt(): Promise<boolean> {
    try {
      return await this.tryAcquireOrRenew();
    } catch (err) {
      // Another candidate wrote first (replicas starting together): a lost race, not an error worth a line.
      if (isConflict(err) || isAlreadyExists(err)) return false;
      this.opts.log?.(`leader election: error retrieving or updating lease ${this.opts.namespace}/${this.opts.name}: ${(err as Error).message}`);
      return false;
    }
  }

  /** client-go's tryAcquireOrRenew. Exported through the class for tests. */
  async tryAcquireOrRenew(): Promise<boolean> {
    const { leases, namespace, name, identity } = this.opts;
    const now = microTime(this.now());
    const want: LeaseRecord = {
      holderIdentity: identity, leaseDurationSeconds: Math.max(1, Math.floor(this.opts.leaseDurationMs / 1000)), acquireTime: now, renewTime: now, leaseTransitions: 0,
    };
    let current: KObject | undefined;
    try {
      current = (await leases.get(systemContext({ namespace }), name, {})).object;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    if (!current) {
      const created = await leases.create(systemContext({ namespace }), this.leaseObject(undefined, want), {});
      this.observe(created, want);
      return true;
    }
    const old = recordOf(current);
    if (!this.observed || !sameRecord(this.observed, old)) {
      this.observed = old;
      this.observedAt = this.mono();
      this.reportLeader(old.holderIdentity);
    }
    this.lease = current;
    const mine = old.holderIdentity === identity;
    const valid = this.observedAt + old.leaseDurationSeconds * 1000 > this.mono();
    if (old.holderIdentity !== '' && !mine && valid && !this.opts.exclusiveStore) return false;
    if (mine) {
      if (old.acquireTime) want.acquireTime = old.acquireTime;
      want.leaseTransitions = old.leaseTransitions;
    } else {
      want.leaseTransitions = old.leaseTransitions + 1;
    }
    const res = await leases.update(systemContext({ namespace }), name, this.leaseObject(current, want), {});
    this.observe(res.object, want);
    return true;
  }

  private observe(lease: KObject, rec: LeaseRecord): void {
    this.lease = lease;
    this.observed = rec;
    this.observedAt = this.mono();
    this.reportLeader(rec.holderIdentity);
  }

  private reportLeader(holder: string): void {
    if (holder === this.reportedLeader) return;
    this.reportedLeader = holder;
    if (holder) this.opts.callbacks.onNewLeader?.(holder);
  }

  /** The lease to write: the current object (its resourceVersion guards the write) with the record as spec. */
  private leaseObject(current: KObject | undefined, rec: LeaseRecord): KObject {
    const base: KObject = current
      ? structuredClone(current)
      : { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.opts.name, namespace: this.opts.namespace } };
    const spec = { ...((base['spec'] ?? {}) as Record<string, unknown>) };
    spec['holderIdentity'] = rec.holderIdentity;
    spec['leaseDurationSeconds'] = rec.leaseDurationSeconds;
    spec['acquireTime'] = rec.acquireTime;
    spec['renewTime'] = rec.renewTime;
    spec['leaseTransitions'] = rec.leaseTransitions;
    base['spec'] = spec;
    return base;
  }

  /** client-go's release: holderIdentity "" and a one-second duration, only if we still hold the lease. */
  private async release(): Promise<void> {
    const current = this.lease;
    if (!current || this.observed?.holderIdentity !== this.opts.identity) return;
    const now = microTime(this.now());
    const rec: LeaseRecord = { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaseTransitions: this.observed.leaseTransitions };
    try {
      const res = await this.opts.leases.update(systemContext({ namespace: this.opts.namespace }), this.opts.name, this.leaseObject(current, rec), {});
      this.observe(res.object, rec);
    } catch (err) {
      // Someone else wrote it meanwhile (then it is not ours to release) or the store is gone: it expires instead.
      this.opts.log?.(`leader election: failed to release lease ${this.opts.namespace}/${this.opts.name}: ${(err as Error).message}`);
    }
  }
}
