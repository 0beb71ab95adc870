/**
 * API Priority and Fairness's configuration consumer (k8s.io/apiserver pkg/util/flowcontrol/apf_controller.go):
 * watches FlowSchemas and PriorityLevelConfigurations, keeps one QueueSet per priority level with its share
 * of the server's seats (`--max-requests-inflight` + `--max-mutating-requests-inflight`), re-divides borrowed
 * seats every 10 s, keeps each FlowSchema's `Dangling` condition, and classifies and admits requests for the
 * filter. Schemas that point at a missing level are ignored; a missing exempt or catch-all object is imagined
 * from the bootstrap configuration, so classification always ends somewhere.
 */
import type { KObject } from '../machinery/objects.ts';
import type { RestRegistry, RestStorage } from '../registry/rest.ts';
import type { RequestInfo } from '../request/context.ts';
import { Informer } from '../client/informer.ts';
import { systemContext, type Logger } from '../registry/system-context.ts';
import { isConflict, isNotFound } from '../machinery/errors.ts';
import { FLOWCONTROL_GROUP, MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS } from './bootstrap.ts';
import { ClassificationCache, compileFlowSchema, flowDistinguisher, sortFlowSchemas, type CompiledFlowSchema, type RequestDigest } from './classify.ts';
import { QueueSet, type Admission, type QueueSetStats, type QueuingConfig, type RejectReason } from './queue-set.ts';
import { hashFlow, MAX_HASH_BITS, requiredEntropyBits } from './shuffle-sharding.ts';
import { estimateWork, ObjectCountTracker, WatchTracker, type ObjectCounter } from './work-estimate.ts';
import { allocate, nominalLimits, type AllocItem, type NominalLimits } from './allocation.ts';
import { DroppedRequestsTracker } from './retry-after.ts';

type J = Record<string, any>;

const BORROWING_PERIOD_MS = 10_000;
/** kube's exponential smoothing of seat demand per borrowing period. */
const DEMAND_SMOOTHING = 0.977;
/** A level's biggest request: 15% of its nominal seats, at most nominal/handSize (kube's max seats). */
const MAX_SEATS_PERCENT = 0.15;
/** Field manager of the Dangling condition, as kube's config consumer. */
const STATUS_FIELD_MANAGER = 'api-priority-and-fairness-config-consumer-v1';

interface LevelState {
  readonly name: string;
  uid: string;
  object: KObject;
  exempt: boolean;
  queues: QueueSet;
  limits: NominalLimits;
  currentCL: number;
  maxSeats: number;
  smoothedDemand: number;
  /** No longer configured; kept until its requests are gone. */
  quiescing: boolean;
}

/** One classified request: what the filter needs for headers, the answer and metrics. */
export interface Decision {
  readonly flowSchema: string;
  readonly flowSchemaUid: string;
  readonly priorityLevel: string;
  readonly priorityLevelUid: string;
  readonly exempt: boolean;
  readonly admission: Admission | Promise<Admission>;
}

/** Read-only figures per priority level, for /metrics (apiserver_flowcontrol_*) and tests. */
export interface PriorityLevelSnapshot extends QueueSetStats {
  readonly name: string;
  readonly nominalLimit: number;
  readonly lowerLimit: number;
  readonly upperLimit: number;
  readonly currentLimit: number;
  readonly maxSeats: number;
}

export interface FlowControlSnapshot {
  readonly priorityLevels: readonly PriorityLevelSnapshot[];
  /** Requests dispatched and rejected per `flowSchema` and `priorityLevel`. */
  readonly flowSchemas: readonly SchemaStats[];
}

/** Requests of one FlowSchema at one priority level: totals, and how many wait in a queue or execute now. */
export interface SchemaStats {
  readonly flowSchema: string;
  readonly priorityLevel: string;
  readonly dispatched: number;
  readonly rejected: Readonly<Record<RejectReason, number>>;
  readonly waiting: number;
  readonly executing: number;
}

type MutableSchemaStats = { -readonly [K in keyof SchemaStats]: SchemaStats[K] } & { rejected: Record<RejectReason, number> };

/** What the metrics side reads; nothing in it changes the controller. */
export interface FlowControlStats {
  snapshot(): FlowControlSnapshot;
}

export interface FlowControllerOptions {
  /** Where FlowSchemas and PriorityLevelConfigurations are read and their status written; none = bootstrap only. */
  readonly registry?: RestRegistry;
  /** `--max-requests-inflight` + `--max-mutating-requests-inflight`. */
  readonly serverConcurrencyLimit: number;
  /** Stored objects of a resource (the LIST estimate); undefined = unknown. */
  readonly countObjects?: (info: RequestInfo) => Promise<number | undefined>;
  /** The WatchList feature gate. */
  readonly watchList?: boolean;
  readonly borrowingPeriodMs?: number;
  readonly log?: Logger;
}

const EMPTY_REJECTS = (): Record<RejectReason, number> => ({ 'queue-full': 0, 'concurrency-limit': 0, 'time-out': 0, cancelled: 0 });

export class FlowController implements FlowControlStats {
  private schemas: CompiledFlowSchema[] = [];
  /** Classifications under the current schemas; replaced with them on every configuration change. */
  private classifier = new ClassificationCache([]);
  private readonly levels = new Map<string, LevelState>();
  private fsInformer: Informer | undefined;
  private plInformer: Informer | undefined;
  private fsStorage: RestStorage | undefined;
  private timer: NodeJS.Timeout | undefined;
  private digestScheduled = false;
  private stopped = false;
  private readonly hashes = new Map<string, bigint>();
  private readonly watches = new WatchTracker();
  private readonly objectCounts: ObjectCounter;
  private readonly countTracker: ObjectCountTracker | undefined;
  private readonly dropped = new DroppedRequestsTracker();
  private readonly perSchema = new Map<string, MutableSchemaStats>();
  /** Dangling conditions being written, so a write is not repeated while in flight. */
  private readonly statusWrites = new Set<string>();

  constructor(private readonly opts: FlowControllerOptions) {
    const tracker = opts.countObjects ? new ObjectCountTracker(opts.countObjects) : undefined;
    this.countTracker = tracker;
    this.objectCounts = tracker ? (info) => tracker.get(info) : () => undefined;
    this.digest([], []);
  }

  /** Counts the stored objects of these resources, so that their first LISTs are estimated by size. */
  async primeObjectCounts(resources: Iterable<{ group: string; version: string; resource: string }>): Promise<void> {
    const infos: RequestInfo[] = [];
    for (const r of resources) {
      infos.push({ isResourceRequest: true, path: '', verb: 'list', apiPrefix: r.group ? 'apis' : 'api', apiGroup: r.group, apiVersion: r.version, namespace: '', resource: r.resource, subresource: '', name: '', parts: [] });
    }
    await this.countTracker?.prime(infos);
  }

  /** Reads the configuration (resolves once both informers listed) and starts the borrowing timer. */
  async start(): Promise<void> {
    const r = this.opts.registry;
    const fs = r?.lookup(FLOWCONTROL_GROUP, 'v1', 'flowschemas');
    const pl = r?.lookup(FLOWCONTROL_GROUP, 'v1', 'prioritylevelconfigurations');
    if (fs && pl) {
      this.fsStorage = fs;
      const log = this.opts.log ? { log: this.opts.log } : {};
      this.fsInformer = new Informer({ storage: fs, ...log });
      this.plInformer = new Informer({ storage: pl, ...log });
      const onChange = { onAdd: () => this.scheduleDigest(), onUpdate: () => this.scheduleDigest(), onDelete: () => this.scheduleDigest() };
      this.fsInformer.addHandler(onChange);
      this.plInformer.addHandler(onChange);
      await Promise.all([this.fsInformer.start(), this.plInformer.start()]);
      this.digestNow();
    }
    const period = this.opts.borrowingPeriodMs ?? BORROWING_PERIOD_MS;
    this.timer = setInterval(() => this.updateBorrowing(true), period);
    this.timer.unref?.();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.fsInformer?.stop();
    this.plInformer?.stop();
  }

  /**
   * Classifies the request and asks its priority level for seats. `deadlineMs` (performance.now clock) bounds
   * the wait in a queue.
   */
  decide(d: RequestDigest, query: URLSearchParams, deadlineMs: number, signal?: AbortSignal | (() => AbortSignal)): Decision {
    const fs = this.classifier.classify(d) ?? this.schemas[this.schemas.length - 1]!;
    const level = this.levels.get(fs.priorityLevel)!;
    const stats = this.schemaStats(fs, level.name);
    const decision = (admission: Admission | Promise<Admission>): Decision => ({
      flowSchema: fs.name, flowSchemaUid: fs.uid, priorityLevel: level.name, priorityLevelUid: level.uid, exempt: level.exempt, admission,
    });
    if (level.exempt) {
      stats.dispatched++;
      const a = level.queues.start(ONE_SEAT, 0n, deadlineMs);
      return decision(a instanceof Promise ? a.then((x) => executing(stats, x)) : executing(stats, a));
    }
    const qc = level.queues.config;
    const hash = qc.queues > 1 ? this.flowHash(fs.name, flowDistinguisher(fs, d)) : 0n;
    const estimate = estimateWork(d.info, query, level.maxSeats, { objectCount: this.objectCounts, watchCount: (i) => this.watches.interested(i), watchList: this.opts.watchList });
    const admission = level.queues.start(estimate, hash, deadlineMs, signal);
    const count = (a: Admission): Admission => {
      if (a.execute) {
        stats.dispatched++;
        return executing(stats, a);
      }
      stats.rejected[a.reason]++;
      if (a.reason !== 'cancelled') this.dropped.record(level.name);
      return a;
    };
    if (!(admission instanceof Promise)) return decision(count(admission));
    // Queued: counted as waiting until it is dispatched or rejected.
    stats.waiting++;
    return decision(admission.then((a) => {
      stats.waiting--;
      return count(a);
    }));
  }

  /** The Retry-After (seconds) for a request this level just refused. */
  retryAfter(priorityLevel: string): number {
    return this.dropped.retryAfter(priorityLevel);
  }

  /** A watch started; the returned function forgets it. Writes that notify many watches weigh more. */
  registerWatch(info: RequestInfo): () => void {
    return this.watches.register(info);
  }

  snapshot(): FlowControlSnapshot {
    return {
      priorityLevels: [...this.levels.values()].map((l) => ({
        name: l.name, ...l.queues.stats(), nominalLimit: l.limits.nominalCL, lowerLimit: l.limits.minCL, upperLimit: l.limits.maxCL,
        currentLimit: l.currentCL, maxSeats: l.maxSeats,
      })),
      flowSchemas: [...this.perSchema.values()].map((s) => ({ ...s, rejected: { ...s.rejected } })),
    };
  }

  private schemaStats(fs: CompiledFlowSchema, pl: string) {
    // Cached on the compiled schema (rebuilt on every configuration change) to keep the hot path free of lookups.
    const cached = this.statsOf.get(fs);
    if (cached && cached.priorityLevel === pl) return cached;
    const key = `${fs.name}\u0000${pl}`;
    let s = this.perSchema.get(key);
    if (!s) this.perSchema.set(key, (s = { flowSchema: fs.name, priorityLevel: pl, dispatched: 0, rejected: EMPTY_REJECTS(), waiting: 0, executing: 0 }));
    this.statsOf.set(fs, s);
    return s;
  }

  private readonly statsOf = new WeakMap<CompiledFlowSchema, MutableSchemaStats>();

  private flowHash(fs: string, distinguisher: string): bigint {
    const key = `${fs}\u0000${distinguisher}`;
    let h = this.hashes.get(key);
    if (h === undefined) {
      if (this.hashes.size >= 10_000) this.hashes.clear();
      h = hashFlow(fs, distinguisher);
      this.hashes.set(key, h);
    }
    return h;
  }

  private scheduleDigest(): void {
    if (this.digestScheduled || this.stopped) return;
    this.digestScheduled = true;
    setImmediate(() => {
      this.digestScheduled = false;
      if (!this.stopped) this.digestNow();
    });
  }

  private digestNow(): void {
    try {
      this.digest(this.plInformer?.list() ?? [], this.fsInformer?.list() ?? []);
    } catch (err) {
      this.opts.log?.(`priority and fairness: cannot apply the configuration: ${(err as Error).message}`);
    }
  }

  /**
   * The configuration objects → levels, ordered schemas, limits; Dangling conditions follow. `start()` feeds it
   * from the informers; without a registry (benchmarks, tests) a caller may feed it directly.
   */
  digest(pls: readonly KObject[], fss: readonly KObject[]): void {
    const seen = new Set<string>();
    const usable = (pl: KObject): boolean => queuingConfig(pl) !== undefined;
    for (const pl of pls) if (usable(pl)) this.upsertLevel(pl, seen);
    for (const pl of MANDATORY_PRIORITY_LEVELS) {
      if (!seen.has(pl.metadata.name!)) this.upsertLevel(pl, seen);
    }
    for (const [name, l] of this.levels) {
      if (seen.has(name)) continue;
      if (l.queues.isIdle()) this.levels.delete(name);
      else l.quiescing = true;
    }
    const compiled: CompiledFlowSchema[] = [];
    for (const fs of fss) {
      const c = compileFlowSchema(fs);
      const good = seen.has(c.priorityLevel);
      this.syncDangling(fs, !good, c.priorityLevel);
      if (good) compiled.push(c);
    }
    sortFlowSchemas(compiled);
    if (!compiled.some((c) => c.name === 'exempt')) compiled.unshift(compileFlowSchema(MANDATORY_FLOW_SCHEMAS[0]!));
    if (!compiled.some((c) => c.name === 'catch-all')) compiled.push(compileFlowSchema(MANDATORY_FLOW_SCHEMAS[1]!));
    this.schemas = compiled;
    this.classifier = new ClassificationCache(compiled);
    this.computeLimits();
  }

  private upsertLevel(pl: KObject, seen: Set<string>): void {
    const name = pl.metadata.name ?? '';
    const qc = queuingConfig(pl)!;
    seen.add(name);
    const existing = this.levels.get(name);
    if (existing) {
      existing.object = pl;
      existing.uid = pl.metadata.uid ?? '';
      existing.quiescing = false;
      existing.exempt = qc.queues < 0;
      existing.queues.reconfigure(qc);
      return;
    }
    this.levels.set(name, {
      name, uid: pl.metadata.uid ?? '', object: pl, exempt: qc.queues < 0, queues: new QueueSet(name, qc),
      limits: { nominalCL: 0, minCL: 0, maxCL: 0 }, currentCL: -1, maxSeats: 0, smoothedDemand: 0, quiescing: false,
    });
  }

  private computeLimits(): void {
    const serverCL = this.opts.serverConcurrencyLimit;
    let shareSum = 0;
    for (const l of this.levels.values()) shareSum += specCommons(l.object).shares;
    for (const l of this.levels.values()) {
      const c = specCommons(l.object);
      l.limits = nominalLimits(serverCL, c.shares, shareSum, c.lendablePercent, c.borrowingLimitPercent);
      const qc = l.queues.config;
      l.maxSeats = qc.queues > 0 ? Math.max(1, Math.min(Math.ceil(l.limits.nominalCL * MAX_SEATS_PERCENT), Math.floor(l.limits.nominalCL / qc.handSize))) : 0;
      if (l.currentCL < 0) {
        const lendable = l.limits.nominalCL - l.limits.minCL;
        l.currentCL = l.limits.nominalCL - Math.floor(lendable / 2);
      }
    }
    this.updateBorrowing(false);
  }

  /** Re-divides the seats from recent demand (kube's updateBorrowingLocked). */
  private updateBorrowing(periodic: boolean): void {
    const nominalSum = [...this.levels.values()].reduce((s, l) => s + l.limits.nominalCL, 0);
    let remaining = nominalSum;
    const items: AllocItem[] = [];
    const limited: LevelState[] = [];
    const highs = new Map<LevelState, number>();
    let minSum = 0;
    let minCurrentSum = 0;
    for (const l of this.levels.values()) {
      let high = 0;
      if (periodic) {
        const d = l.queues.takeDemandStats();
        high = d.highWatermark;
        const envelope = d.avg + d.stdDev;
        l.smoothedDemand = Math.max(envelope, DEMAND_SMOOTHING * l.smoothedDemand + (1 - DEMAND_SMOOTHING) * envelope);
      }
      highs.set(l, high);
      if (l.exempt) {
        l.currentCL = Math.max(l.limits.minCL, high);
        remaining -= l.currentCL;
        continue;
      }
      const minCurrent = Math.max(l.limits.minCL, Math.min(l.limits.nominalCL, high));
      items.push({ lowerBound: minCurrent, upperBound: l.limits.maxCL, target: Math.max(minCurrent, l.smoothedDemand) });
      limited.push(l);
      minSum += l.limits.minCL;
      minCurrentSum += minCurrent;
    }
    let allocs: number[] | undefined;
    let shareFrac = 0;
    if (remaining > minSum && remaining <= minCurrentSum) shareFrac = (remaining - minSum) / (minCurrentSum - minSum);
    else if (remaining > minCurrentSum) allocs = allocate(remaining, items);
    limited.forEach((l, i) => {
      if (remaining <= minSum) l.currentCL = l.limits.minCL;
      else if (!allocs) {
        const minCurrent = Math.max(l.limits.minCL, Math.min(l.limits.nominalCL, highs.get(l) ?? 0));
        l.currentCL = l.limits.minCL + Math.round((minCurrent - l.limits.minCL) * shareFrac);
      } else l.currentCL = Math.round(allocs[i]!);
    });
    for (const l of this.levels.values()) l.queues.setConcurrencyLimit(l.exempt ? 0 : l.currentCL);
    if (periodic && [...this.levels.values()].some((l) => l.quiescing && l.queues.isIdle())) this.scheduleDigest();
  }

  /** Writes `Dangling` when it changed (True/NotFound or False/Found), as kube's consumer does. */
  private syncDangling(fs: KObject, dangling: boolean, plName: string): void {
    const storage = this.fsStorage;
    const name = fs.metadata.name ?? '';
    if (!storage || this.statusWrites.has(name)) return;
    const want = dangling
      ? { status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named "${plName}" but there is no such object` }
      : { status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named "${plName}" and it exists` };
    const conds: J[] = (fs['status'] as J | undefined)?.['conditions'] ?? [];
    const cur = conds.find((c) => c['type'] === 'Dangling');
    if (cur && cur['status'] === want.status && cur['reason'] === want.reason && cur['message'] === want.message) return;
    this.statusWrites.add(name);
    const ctx = { ...systemContext({ subresource: 'status' }), fieldManager: STATUS_FIELD_MANAGER };
    const condition = { type: 'Dangling', ...want, lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') };
    storage.guaranteedUpdate(ctx, name, (current) => {
      if (!current) throw new Error('gone');
      const status = { ...((current['status'] as J | undefined) ?? {}) };
      const others = ((status['conditions'] as J[] | undefined) ?? []).filter((c) => c['type'] !== 'Dangling');
      return { ...current, status: { ...status, conditions: [...others, condition] } };
    }, {}).catch((err: unknown) => {
      if (!isNotFound(err) && !isConflict(err) && (err as Error).message !== 'gone') {
        this.opts.log?.(`priority and fairness: cannot update the status of FlowSchema ${name}: ${(err as Error).message}`);
      }
    }).finally(() => {
      this.statusWrites.delete(name);
      this.scheduleDigest();
    });
  }
}

const ONE_SEAT = Object.freeze({ initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });

/** The level's queuing shape, or undefined for a spec this package cannot use (kube ignores those levels). */
export function queuingConfig(pl: KObject): QueuingConfig | undefined {
  const spec = (pl['spec'] ?? {}) as J;
  const name = pl.metadata.name;
  const type = spec['type'];
  if ((type === 'Limited') !== Boolean(spec['limited'])) return undefined;
  if ((type === 'Exempt') !== Boolean(spec['exempt'])) return undefined;
  if ((type === 'Exempt') !== (name === 'exempt')) return undefined;
  if (type === 'Exempt') return { queues: -1, handSize: 0, queueLengthLimit: 0 };
  const lr = (spec['limited'] as J)['limitResponse'] ?? {};
  const queuing = lr['queuing'] as J | undefined;
  if ((lr['type'] === 'Reject') !== !queuing) return undefined;
  if (!queuing) return { queues: 0, handSize: 0, queueLengthLimit: 0 };
  const queues = Number(queuing['queues'] ?? 0);
  const handSize = Number(queuing['handSize'] ?? 0);
  const queueLengthLimit = Number(queuing['queueLengthLimit'] ?? 0);
  if (!(queues > 0) || !(handSize > 0) || handSize > queues || requiredEntropyBits(queues, handSize) > MAX_HASH_BITS) return undefined;
  return { queues, handSize, queueLengthLimit };
}

function specCommons(pl: KObject): { shares: number; lendablePercent: number | undefined; borrowingLimitPercent: number | undefined } {
  const spec = (pl['spec'] ?? {}) as J;
  const l = (spec['limited'] ?? spec['exempt'] ?? {}) as J;
  const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
  return {
    shares: num(l['nominalConcurrencyShares']) ?? (spec['limited'] ? 30 : 0),
    lendablePercent: num(l['lendablePercent']),
    borrowingLimitPercent: spec['limited'] ? num(l['borrowingLimitPercent']) : undefined,
  };
}

/** Counts an admitted request as executing under its FlowSchema until it finishes. */
function executing(stats: MutableSchemaStats, a: Admission): Admission {
  if (!a.execute) return a;
  stats.executing++;
  let done = false;
  return {
    execute: true, waitedMs: a.waitedMs, finish: () => {
      if (done) return;
      done = true;
      stats.executing--;
      a.finish();
    },
  };
}
