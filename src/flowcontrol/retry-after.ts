/**
 * The `Retry-After` a rejected request is told (k8s.io/apiserver pkg/util/flowcontrol/dropped_requests_tracker.go):
 * per priority level it starts at 1 s, doubles (up to 32 s) while at least 3×retryAfter requests were dropped in
 * the last retryAfter seconds, and steps back by one when fewer than retryAfter were.
 */
const MAX_RETRY_AFTER = 32;

class LevelDrops {
  private history: { unix: number; n: number }[] = [];
  private currentUnix = 0;
  private currentCount = 0;
  retryAfter = 1;
  private updatedUnix = 0;

  record(unix: number): void {
    if (unix === this.currentUnix) {
      this.currentCount++;
      return;
    }
    this.pushHistory(this.currentUnix, this.currentCount);
    this.currentUnix = unix;
    this.currentCount = 1;
    this.update(unix);
  }

  private pushHistory(unix: number, n: number): void {
    this.history.push({ unix, n });
    const keep = Math.min(2 * this.retryAfter, MAX_RETRY_AFTER);
    let start = 0;
    while (start < this.history.length && unix - this.history[start]!.unix > keep) start++;
    if (start) this.history = this.history.slice(start);
  }

  private update(unix: number): void {
    let dropped = 0;
    for (let i = this.history.length - 1; i >= 0; i--) {
      const h = this.history[i]!;
      if (unix - h.unix > this.retryAfter) break;
      if (h.unix < unix) dropped += h.n;
    }
    if (unix - this.updatedUnix >= this.retryAfter && dropped >= 3 * this.retryAfter) {
      this.retryAfter = Math.min(this.retryAfter * 2, MAX_RETRY_AFTER);
      this.updatedUnix = unix;
      return;
    }
    if (dropped < this.retryAfter && this.retryAfter > 1) this.retryAfter--;
  }
}

export class DroppedRequestsTracker {
  private readonly levels = new Map<string, LevelDrops>();

  constructor(private readonly nowMs: () => number = () => Date.now()) {}

  record(priorityLevel: string): void {
    let l = this.levels.get(priorityLevel);
    if (!l) this.levels.set(priorityLevel, (l = new LevelDrops()));
    l.record(Math.floor(this.nowMs() / 1000));
  }

  retryAfter(priorityLevel: string): number {
    return this.levels.get(priorityLevel)?.retryAfter ?? 1;
  }
}
