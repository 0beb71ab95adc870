/**
 * Callers waiting for the cache to reach a revision. `advance()` wakes every waiter at or below the new
 * revision; each wait has its own timeout and resolves false when it expires (never rejects), so callers
 * choose between falling back and failing. Timers are cleared on wake-up and on `cancelAll()`.
 */
interface Waiter {
  readonly revision: number;
  readonly resolve: (reached: boolean) => void;
  readonly timer: NodeJS.Timeout;
}

export class RevisionWaiters {
  private readonly waiters = new Set<Waiter>();

  get size(): number {
    return this.waiters.size;
  }

  /** Resolves true once `advance(r)` is called with r ≥ revision, false after `timeoutMs`. */
  wait(revision: number, timeoutMs: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const w: Waiter = {
        revision,
        resolve,
        timer: setTimeout(() => {
          this.waiters.delete(w);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.add(w);
    });
  }

  advance(revision: number): void {
    if (this.waiters.size === 0) return;
    for (const w of this.waiters) {
      if (w.revision <= revision) {
        clearTimeout(w.timer);
        this.waiters.delete(w);
        w.resolve(true);
      }
    }
  }

  /** Resolves every waiter with false now (shutdown). */
  cancelAll(): void {
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.resolve(false);
    }
    this.waiters.clear();
  }
}
