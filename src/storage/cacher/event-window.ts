/**
 * The sliding window of recent changes a watch can resume from. Events are kept in revision order and
 * dropped when older than `windowMs` or beyond `maxEvents`; all events of one revision leave together.
 *
 * Invariant: the window holds every change with revision > `startRevision` (up to the cache's revision).
 * A watch from R can be served iff R ≥ startRevision; otherwise it is "too old" (410).
 */
import type { CachedObject } from './types.ts';

/** One change under the prefix, decoded. */
export interface Change {
  readonly revision: number;
  readonly kind: 'put' | 'delete';
  /** put: the new state. delete: the last state with modRevision = the delete's revision. */
  readonly object: CachedObject;
  /** The state before the change (absent for a create). */
  readonly prev?: CachedObject;
}

export interface WindowEvent extends Change {
  /** Wall-clock time it entered the window (ms). */
  readonly time: number;
}

export interface EventWindowOptions {
  readonly windowMs: number;
  readonly maxEvents: number;
  readonly now?: () => number;
}

export class EventWindow {
  private events: WindowEvent[] = [];
  private head = 0;
  private start: number;
  private readonly now: () => number;

  constructor(startRevision: number, private readonly opts: EventWindowOptions) {
    this.start = startRevision;
    this.now = opts.now ?? Date.now;
  }

  /** Every change after this revision is still in the window. */
  get startRevision(): number {
    this.expire();
    return this.start;
  }

  get length(): number {
    return this.events.length - this.head;
  }

  /** Forgets everything: the window restarts empty at `startRevision` (after a re-list). */
  reset(startRevision: number): void {
    this.events = [];
    this.head = 0;
    this.start = startRevision;
  }

  push(e: WindowEvent): void {
    this.events.push(e);
    this.expire();
  }

  /** Events with revision > `after`, in order (a copy). Caller checks `after >= startRevision` first. */
  since(after: number): WindowEvent[] {
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.events[mid]!.revision <= after) lo = mid + 1;
      else hi = mid;
    }
    return this.events.slice(lo);
  }

  private expire(): void {
    const cutoff = this.now() - this.opts.windowMs;
    while (this.head < this.events.length) {
      const first = this.events[this.head]!;
      if (this.length <= this.opts.maxEvents && first.time >= cutoff) break;
      // Drop the whole revision so the window never holds half of one.
      const rev = first.revision;
      while (this.head < this.events.length && this.events[this.head]!.revision === rev) this.head++;
      this.start = rev;
    }
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }
}
