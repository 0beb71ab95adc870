/**
 * One priority level's fair queuing (k8s.io/apiserver pkg/util/flowcontrol/fairqueuing/queueset): requests
 * occupy seats; with queues, a flow is shuffle-sharded onto the shortest (by queued work) queue of its hand and
 * queues are served in order of the virtual finish time of their oldest request (fair queuing in seat-seconds,
 * with kube's 3 ms service estimate corrected by the real service time). A request that waits past its deadline,
 * or arrives at a full queue while every seat is taken, is rejected. Without queues (`Reject`) only the seat
 * limit applies; an exempt level never refuses or waits.
 */
import { dealHand } from './shuffle-sharding.ts';

/** kube's fixed guess at a request's service time, before the real time is known. */
const ESTIMATED_SERVICE_SECONDS = 0.003;
/** Node's longest timer. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface WorkEstimate {
  readonly initialSeats: number;
  /** Seats held after the response, for `additionalLatencyMs` (watch notifications of a write). */
  readonly finalSeats: number;
  readonly additionalLatencyMs: number;
}

export interface QueuingConfig {
  /** -1: exempt (no limit); 0: Reject above the limit; >0: queues. */
  readonly queues: number;
  readonly handSize: number;
  readonly queueLengthLimit: number;
}

export type RejectReason = 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';

export type Admission =
  | { readonly execute: true; readonly waitedMs: number; readonly finish: () => void }
  | { readonly execute: false; readonly reason: RejectReason };

export interface QueueSetStats {
  readonly requestsWaiting: number;
  readonly requestsExecuting: number;
  readonly seatsInUse: number;
  readonly seatsWaiting: number;
  readonly concurrencyLimit: number;
  readonly dispatched: number;
  readonly rejected: Readonly<Record<RejectReason, number>>;
}

/** Seat demand over a period (kube's integrator), for borrowing. */
export interface DemandStats {
  readonly avg: number;
  readonly stdDev: number;
  readonly highWatermark: number;
}

interface Queue {
  readonly index: number;
  waiting: Pending[];
  /** Sum of the total work of waiting requests (seat-seconds). */
  waitingWork: number;
  executing: number;
  seatsInUse: number;
  nextDispatchR: number;
}

interface Pending {
  readonly seats: number;
  readonly initialSeats: number;
  readonly work: number;
  readonly estimate: WorkEstimate;
  readonly arrivalR: number;
  readonly arrivalMs: number;
  readonly hash: bigint;
  queue: Queue | undefined;
  settle: (a: Admission) => void;
  cleanup: () => void;
}

const maxSeatsOf = (e: WorkEstimate): number => Math.max(e.initialSeats, e.finalSeats);
const workOf = (e: WorkEstimate): number => e.initialSeats * ESTIMATED_SERVICE_SECONDS + e.finalSeats * (e.additionalLatencyMs / 1000);

export class QueueSet {
  private cfg: QueuingConfig;
  private queues: Queue[] = [];
  private concurrencyLimit = 0;
  private currentR = 0;
  private lastRealMs: number;
  private robin = -1;
  private enqueues = 0;
  /** Hands already dealt for this deck (a flow's hash → its queues). */
  private hands = new Map<bigint, number[]>();
  /** Queues with a request waiting or executing (kept as a count: virtual time needs it on every call). */
  private active = 0;
  private totWaiting = 0;
  private totSeatsWaiting = 0;
  private totExecuting = 0;
  private totSeatsInUse = 0;
  private dispatched = 0;
  private readonly rejected: Record<RejectReason, number> = { 'queue-full': 0, 'concurrency-limit': 0, 'time-out': 0, cancelled: 0 };
  // seat demand integral since the last reset
  private demandSince: number;
  private demandLast: number;
  private demandX = 0;
  private demandX2 = 0;
  private demandHigh = 0;

  constructor(readonly name: string, cfg: QueuingConfig, private readonly now: () => number = () => performance.now()) {
    this.cfg = cfg;
    this.lastRealMs = now();
    this.demandSince = this.demandLast = this.lastRealMs;
    this.queues = makeQueues(Math.max(0, cfg.queues));
  }

  get config(): QueuingConfig {
    return this.cfg;
  }

  /** A new queuing shape: waiting requests move to their hand's queues in the new deck. */
  reconfigure(cfg: QueuingConfig): void {
    const old = this.cfg;
    this.cfg = cfg;
    if (old.queues === cfg.queues && old.handSize === cfg.handSize) return;
    const waiting = this.queues.flatMap((q) => q.waiting);
    this.queues = makeQueues(Math.max(0, cfg.queues));
    this.hands = new Map();
    for (const p of waiting) {
      const q = this.queues.length ? this.queues[this.pickQueue(p.hash)]! : undefined;
      if (!q) {
        this.dropWaiting(p, 'cancelled');
        continue;
      }
      p.queue = q;
      if (!q.waiting.length && !q.executing) q.nextDispatchR = this.currentR;
      q.waiting.push(p);
      q.waitingWork += p.work;
    }
    this.active = this.queues.filter(busy).length;
    this.dispatchAsMuchAsPossible();
  }

  setConcurrencyLimit(limit: number): void {
    this.syncTime();
    this.concurrencyLimit = limit;
    this.dispatchAsMuchAsPossible();
  }

  isIdle(): boolean {
    return this.totWaiting === 0 && this.totExecuting === 0;
  }

  stats(): QueueSetStats {
    return {
      requestsWaiting: this.totWaiting, requestsExecuting: this.totExecuting, seatsInUse: this.totSeatsInUse, seatsWaiting: this.totSeatsWaiting,
      concurrencyLimit: this.cfg.queues < 0 ? 0 : this.concurrencyLimit, dispatched: this.dispatched, rejected: { ...this.rejected },
    };
  }

  /** Average, deviation and peak of seats demanded (in use + waiting) since the last call; starts a new period. */
  takeDemandStats(): DemandStats {
    this.syncTime();
    this.noteDemand();
    const t = this.lastRealMs;
    const span = t - this.demandSince;
    const avg = span > 0 ? this.demandX / span : this.totSeatsInUse + this.totSeatsWaiting;
    const variance = span > 0 ? Math.max(0, this.demandX2 / span - avg * avg) : 0;
    const out = { avg, stdDev: Math.sqrt(variance), highWatermark: this.demandHigh };
    this.demandSince = t;
    this.demandX = this.demandX2 = 0;
    this.demandHigh = this.totSeatsInUse + this.totSeatsWaiting;
    return out;
  }

  /**
   * Admits, queues or rejects a request. Resolves once it may execute (call `finish` when done) or is refused.
   * `deadlineMs` (on the `now` clock) bounds the wait; `signal` withdraws a waiting request (a function is
   * called only when the request has to wait: most never do, and a request's signal is made on first use).
   */
  start(estimate: WorkEstimate, hash: bigint, deadlineMs: number, signalOf?: AbortSignal | (() => AbortSignal)): Admission | Promise<Admission> {
    this.syncTime();
    const seats = maxSeatsOf(estimate);
    if (this.cfg.queues < 1) {
      if (!this.canAccommodate(seats)) {
        this.rejected['concurrency-limit']++;
        return { execute: false, reason: 'concurrency-limit' };
      }
      return this.execute(estimate, undefined, 0);
    }
    const queue = this.queues[this.pickQueue(hash)]!;
    if (this.totSeatsInUse >= this.concurrencyLimit && queue.waiting.length >= this.cfg.queueLengthLimit) {
      this.rejected['queue-full']++;
      return { execute: false, reason: 'queue-full' };
    }
    if (this.totWaiting === 0 && this.totSeatsInUse < this.concurrencyLimit && this.canAccommodate(seats)) {
      // Nobody waits and the seats are free: what enqueue-then-dispatch would do, without a promise.
      if (!busy(queue)) {
        queue.nextDispatchR = this.currentR;
        this.active++;
      }
      queue.nextDispatchR += workOf(estimate);
      return this.execute(estimate, queue, 0);
    }
    const signal = typeof signalOf === 'function' ? signalOf() : signalOf;
    return new Promise<Admission>((resolve) => {
      const arrivalMs = this.lastRealMs;
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void => this.dropWaiting(p, 'cancelled');
      const p: Pending = {
        seats, initialSeats: estimate.initialSeats, work: workOf(estimate), estimate, arrivalR: this.currentR, arrivalMs, hash, queue,
        settle: resolve,
        cleanup: () => {
          if (timer) clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        },
      };
      if (!busy(queue)) {
        queue.nextDispatchR = this.currentR;
        this.active++;
      }
      queue.waiting.push(p);
      queue.waitingWork += p.work;
      this.totWaiting++;
      this.totSeatsWaiting += seats;
      this.noteDemand();
      this.dispatchAsMuchAsPossible();
      if (p.queue) {
        // still waiting: bound the wait
        timer = setTimeout(() => this.dropWaiting(p, 'time-out'), Math.min(MAX_TIMER_MS, Math.max(0, deadlineMs - arrivalMs)));
        if (signal) signal.addEventListener('abort', onAbort, { once: true });
      }
    });
  }

  /** The queue of the hand with the least queued work; ties go round-robin from a moving offset (kube's). */
  private pickQueue(hash: bigint): number {
    const n = this.queues.length;
    if (n === 1) return 0;
    let hand = this.hands.get(hash);
    if (!hand) {
      if (this.hands.size >= 10_000) this.hands.clear();
      hand = dealHand(hash, n, Math.min(this.cfg.handSize, n));
      this.hands.set(hash, hand);
    }
    const offset = this.enqueues++ % hand.length;
    let best = -1;
    let bestWork = Infinity;
    for (let i = 0; i < hand.length; i++) {
      const idx = hand[(offset + i) % hand.length]!;
      const w = this.queues[idx]!.waitingWork;
      if (w < bestWork) {
        bestWork = w;
        best = idx;
      }
    }
    return best;
  }

  private canAccommodate(seats: number): boolean {
    if (this.cfg.queues < 0) return true;
    if (seats > this.concurrencyLimit) return this.totExecuting === 0;
    return this.totSeatsInUse + seats <= this.concurrencyLimit;
  }

  private dispatchAsMuchAsPossible(): void {
    while (this.totWaiting > 0 && this.totSeatsInUse < this.concurrencyLimit && this.dispatchOne());
  }

  private dispatchOne(): boolean {
    let min: Queue | undefined;
    let minFinish = Infinity;
    const n = this.queues.length;
    let minIndex = this.robin;
    for (let k = 0; k < n; k++) {
      this.robin = (this.robin + 1) % n;
      const q = this.queues[this.robin]!;
      const head = q.waiting[0];
      if (!head) continue;
      const finish = q.nextDispatchR + head.work;
      if (finish < minFinish) {
        minFinish = finish;
        min = q;
        minIndex = this.robin;
      }
    }
    if (!min) return false;
    const head = min.waiting[0]!;
    if (!this.canAccommodate(head.seats)) return false;
    this.robin = minIndex;
    min.waiting.shift();
    min.waitingWork -= head.work;
    this.totWaiting--;
    this.totSeatsWaiting -= head.seats;
    head.cleanup();
    head.queue = undefined;
    min.nextDispatchR = Math.max(min.nextDispatchR, head.arrivalR) + head.work;
    this.boundNextDispatch(min);
    head.settle(this.execute(head.estimate, min, this.now() - head.arrivalMs));
    return true;
  }

  private execute(estimate: WorkEstimate, queue: Queue | undefined, waitedMs: number): Admission {
    const seats = maxSeatsOf(estimate);
    this.totExecuting++;
    this.totSeatsInUse += seats;
    this.dispatched++;
    if (queue) {
      queue.executing++;
      queue.seatsInUse += seats;
    }
    this.noteDemand();
    return new Running(this, estimate, queue, seats, this.lastRealMs, waitedMs);
  }

  /** The request's main work is over: its queue's clock is corrected; seats go now or after the lingering. */
  finishRequest(r: Running): void {
    this.syncTime();
    this.totExecuting--;
    const queue = r.queue;
    if (queue) {
      queue.executing--;
      if (!busy(queue)) this.active--;
      // Correct the queue's virtual clock by what the request really took.
      const actual = (this.lastRealMs - r.startedMs) / 1000;
      queue.nextDispatchR -= r.estimate.initialSeats * (ESTIMATED_SERVICE_SECONDS - actual);
      this.boundNextDispatch(queue);
    }
    if (r.estimate.additionalLatencyMs > 0) setTimeout(() => this.releaseSeats(r), r.estimate.additionalLatencyMs).unref?.();
    else this.releaseSeats(r);
  }

  private releaseSeats(r: Running): void {
    this.syncTime();
    this.totSeatsInUse -= r.seats;
    if (r.queue) r.queue.seatsInUse -= r.seats;
    this.noteDemand();
    this.dispatchAsMuchAsPossible();
  }

  private dropWaiting(p: Pending, reason: RejectReason): void {
    const q = p.queue;
    if (!q) return;
    const i = q.waiting.indexOf(p);
    if (i < 0) return;
    this.syncTime();
    q.waiting.splice(i, 1);
    if (!busy(q)) this.active--;
    q.waitingWork -= p.work;
    p.queue = undefined;
    this.totWaiting--;
    this.totSeatsWaiting -= p.seats;
    this.rejected[reason === 'cancelled' ? 'cancelled' : 'time-out']++;
    p.cleanup();
    this.boundNextDispatch(q);
    this.noteDemand();
    p.settle({ execute: false, reason });
  }

  /** A queue's virtual start never lags behind its oldest request's arrival (kube's anti-windup). */
  private boundNextDispatch(q: Queue): void {
    const head = q.waiting[0];
    if (head && q.nextDispatchR < head.arrivalR) q.nextDispatchR = head.arrivalR;
  }

  /** Virtual time runs at min(seats asked, limit) / active queues seat-seconds per second. */
  private syncTime(): void {
    const t = this.now();
    const dt = (t - this.lastRealMs) / 1000;
    this.lastRealMs = t;
    if (dt <= 0 || this.cfg.queues < 1) return;
    // With queues every executing request belongs to one, so the seats asked are those in use plus waiting.
    const requested = this.totSeatsInUse + this.totSeatsWaiting;
    if (this.active > 0) this.currentR += (Math.min(requested, this.concurrencyLimit) / this.active) * dt;
  }

  /** Uses the time of the last syncTime (every caller synced just before). */
  private noteDemand(): void {
    const t = this.lastRealMs;
    const dt = t - this.demandLast;
    const x = this.totSeatsInUse + this.totSeatsWaiting;
    if (dt > 0) {
      // the level held since the last note
      this.demandX += this.lastDemand * dt;
      this.demandX2 += this.lastDemand * this.lastDemand * dt;
    }
    this.demandLast = t;
    this.lastDemand = x;
    if (x > this.demandHigh) this.demandHigh = x;
  }

  private lastDemand = 0;
}

/** An executing request; `finish` once (later calls do nothing). A class: no closures per request. */
class Running {
  readonly execute = true;
  private done = false;

  constructor(private readonly qs: QueueSet, readonly estimate: WorkEstimate, readonly queue: Queue | undefined, readonly seats: number,
    readonly startedMs: number, readonly waitedMs: number) {
    this.finish = this.finish.bind(this);
  }

  finish(): void {
    if (this.done) return;
    this.done = true;
    this.qs.finishRequest(this);
  }
}

const busy = (q: Queue): boolean => q.waiting.length > 0 || q.executing > 0;

function makeQueues(n: number): Queue[] {
  return Array.from({ length: n }, (_, index) => ({ index, waiting: [], waitingWork: 0, executing: 0, seatsInUse: 0, nextDispatchR: 0 }));
}
