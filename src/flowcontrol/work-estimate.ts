/**
 * How many seats a request occupies (k8s.io/apiserver pkg/util/flowcontrol/request): one by default; a LIST
 * one per 100 objects it will touch (its resource's stored count, twice the limit when paged from storage),
 * capped by the level's max seats; a WATCH one (its initial events are counted like a LIST only with WatchList
 * and sendInitialEvents=true); a write one while it runs plus, once answered, one seat per 10 interested
 * watches for 5 ms per seat of notification work.
 */
import type { RequestInfo } from '../request/context.ts';
import type { WorkEstimate } from './queue-set.ts';

export const MINIMUM_SEATS = 1;
export const MAXIMUM_SEATS_LIMIT = 10;
const OBJECTS_PER_SEAT = 100;
const WATCHES_PER_SEAT = 10;
const EVENT_ADDITIONAL_MS = 5;

/** Stored objects per `group/resource`, or undefined when not known (estimated at the minimum, as kube). */
export type ObjectCounter = (info: RequestInfo) => number | undefined;

export interface EstimatorDeps {
  readonly objectCount: ObjectCounter;
  readonly watchCount: (info: RequestInfo) => number;
  /** The WatchList feature: watches asking for initial events are estimated like lists. */
  readonly watchList?: boolean;
}

const ONE: WorkEstimate = Object.freeze({ initialSeats: MINIMUM_SEATS, finalSeats: 0, additionalLatencyMs: 0 });

export function estimateWork(info: RequestInfo, query: URLSearchParams, levelMaxSeats: number, deps: EstimatorDeps): WorkEstimate {
  const maxSeats = levelMaxSeats === 0 || levelMaxSeats > MAXIMUM_SEATS_LIMIT ? MAXIMUM_SEATS_LIMIT : levelMaxSeats;
  if (!info.isResourceRequest) return ONE;
  switch (info.verb) {
    case 'list':
      return estimateList(info, query, maxSeats, deps);
    case 'watch':
      return deps.watchList ? estimateList(info, query, maxSeats, deps) : ONE;
    case 'create': case 'update': case 'patch': case 'delete':
      return estimateWrite(info, maxSeats, deps);
    default:
      return ONE;
  }
}

function seats(n: number): WorkEstimate {
  return n === MINIMUM_SEATS ? ONE : { initialSeats: n, finalSeats: 0, additionalLatencyMs: 0 };
}

function estimateList(info: RequestInfo, query: URLSearchParams, maxSeats: number, deps: EstimatorDeps): WorkEstimate {
  if (info.name) return ONE;
  const limitText = query.get('limit');
  const limitParam = limitText ? Number.parseInt(limitText, 10) : 0;
  if (limitText && !Number.isFinite(limitParam)) return seats(maxSeats);
  if (info.verb === 'watch' && query.get('sendInitialEvents') !== 'true') return ONE;
  const stored = deps.objectCount(info);
  if (stored === undefined) return ONE;
  const fromCache = info.verb === 'watch' || !listGoesToStorage(query, limitParam);
  const limit = limitParam > 0 && limitParam < stored ? limitParam : stored;
  let objects: number;
  if (fromCache) objects = stored;
  else if (query.get('fieldSelector') || query.get('labelSelector')) objects = stored + limit;
  else objects = 2 * limit;
  return seats(Math.min(maxSeats, Math.max(MINIMUM_SEATS, Math.ceil(objects / OBJECTS_PER_SEAT))));
}

/** kube's delegator rules with ConsistentListFromCache: exact revisions and continuations read storage. */
function listGoesToStorage(query: URLSearchParams, limit: number): boolean {
  const rv = query.get('resourceVersion') ?? '';
  const match = query.get('resourceVersionMatch') ?? '';
  if (match === 'Exact') return true;
  if (match === 'NotOlderThan') return false;
  if (match === '') {
    if (limit > 0 && rv !== '' && rv !== '0') return true;
    if (query.get('continue')) return true;
  }
  return false;
}

function estimateWrite(info: RequestInfo, maxSeats: number, deps: EstimatorDeps): WorkEstimate {
  // A token request notifies nobody.
  if (info.resource === 'serviceaccounts' && info.subresource === 'token') return ONE;
  const watches = deps.watchCount(info);
  if (watches < WATCHES_PER_SEAT) return ONE;
  const finalSeats = Math.ceil(watches / WATCHES_PER_SEAT);
  const finalWorkMs = finalSeats * EVENT_ADDITIONAL_MS;
  const capped = Math.min(finalSeats, maxSeats);
  return { initialSeats: 1, finalSeats: capped, additionalLatencyMs: finalWorkMs / capped };
}

/**
 * Watches in flight per resource (kube's watch tracker): all-namespace watches interest every write to the
 * resource, namespaced ones the writes in their namespace.
 */
export class WatchTracker {
  private readonly counts = new Map<string, { all: number; byNamespace: Map<string, number> }>();

  register(info: RequestInfo): () => void {
    const key = `${info.apiGroup}/${info.resource}`;
    let c = this.counts.get(key);
    if (!c) this.counts.set(key, (c = { all: 0, byNamespace: new Map() }));
    const entry = c;
    const ns = info.namespace;
    if (ns) entry.byNamespace.set(ns, (entry.byNamespace.get(ns) ?? 0) + 1);
    else entry.all++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (ns) {
        const n = (entry.byNamespace.get(ns) ?? 1) - 1;
        if (n) entry.byNamespace.set(ns, n);
        else entry.byNamespace.delete(ns);
      } else entry.all--;
    };
  }

  interested(info: RequestInfo): number {
    const c = this.counts.get(`${info.apiGroup}/${info.resource}`);
    if (!c) return 0;
    return c.all + (info.namespace ? c.byNamespace.get(info.namespace) ?? 0 : 0);
  }
}

/**
 * Stored object counts, refreshed in the background (kube polls storage every minute): a count older than
 * `staleMs` is still used while a refresh runs; an unknown resource is estimated at one seat until counted.
 */
export class ObjectCountTracker {
  private readonly counts = new Map<string, { n: number; at: number; refreshing: boolean }>();

  constructor(private readonly count: (info: RequestInfo) => Promise<number | undefined>, private readonly staleMs = 60_000, private readonly now = () => Date.now()) {}

  get(info: RequestInfo): number | undefined {
    const e = this.entry(info);
    if (!e.refreshing && this.now() - e.at >= this.staleMs) void this.refresh(info, e);
    return e.n >= 0 ? e.n : undefined;
  }

  /**
   * Counts these resources now. kube's storage polls every resource's count from the start, so a LIST is
   * never estimated at one seat merely because it is the first since the server started.
   */
  async prime(infos: Iterable<RequestInfo>): Promise<void> {
    const counting: Promise<void>[] = [];
    for (const info of infos) {
      const e = this.entry(info);
      if (!e.refreshing) counting.push(this.refresh(info, e));
    }
    await Promise.all(counting);
  }

  private entry(info: RequestInfo): { n: number; at: number; refreshing: boolean } {
    const key = `${info.apiGroup}/${info.resource}`;
    let e = this.counts.get(key);
    if (!e) this.counts.set(key, (e = { n: -1, at: -Infinity, refreshing: false }));
    return e;
  }

  private async refresh(info: RequestInfo, entry: { n: number; at: number; refreshing: boolean }): Promise<void> {
    entry.refreshing = true;
    try {
      entry.n = (await this.count(info)) ?? -1;
    } catch {
      // Unknown until the next try; estimated at the minimum meanwhile, as kube does.
    } finally {
      entry.at = this.now();
      entry.refreshing = false;
    }
  }
}
