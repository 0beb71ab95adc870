/**
 * kube's buffered backend (`--audit-*-mode=batch`): events queue in a bounded buffer (`batch-buffer-size`;
 * full = the event is dropped and logged, the request goes on), and leave in batches of at most
 * `batch-max-size`, after `batch-max-wait` at the latest, at most `batch-throttle-qps` batches per second with a
 * `batch-throttle-burst`. Shutdown flushes what is queued.
 */
import { pluginError, type AuditEvent, type Backend } from '../types.ts';

export interface BatchConfig {
  readonly bufferSize: number;
  readonly maxBatchSize: number;
  readonly maxBatchWaitMs: number;
  readonly throttleEnable: boolean;
  readonly throttleQPS: number;
  readonly throttleBurst: number;
  /** Send batches without waiting for the previous one (webhook); the log writes in order. */
  readonly asyncDelegate: boolean;
}

export class BufferedBackend implements Backend {
  readonly name: string;
  private readonly queue: AuditEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private draining = false;
  private tokens: number;
  private lastRefill = Date.now();
  private readonly inFlight = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(private readonly delegate: Backend, private readonly c: BatchConfig, private readonly log: (line: string) => void) {
    this.name = `buffered<${delegate.name}>`;
    this.tokens = c.throttleBurst;
  }

  processEvents(events: readonly AuditEvent[]): boolean {
    for (let i = 0; i < events.length; i++) {
      if (this.stopped) {
        this.log(pluginError('buffered', new Error('audit backend shut down'), events.length - i));
        return true;
      }
      if (this.queue.length >= this.c.bufferSize) {
        this.log(pluginError('buffered', new Error('audit buffer queue blocked'), events.length - i));
        return true;
      }
      this.queue.push(events[i]!);
    }
    this.schedule();
    return true;
  }

  private schedule(): void {
    if (this.draining) return;
    if (this.c.maxBatchSize <= 1 || this.queue.length >= this.c.maxBatchSize) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      this.draining = true;
      setImmediate(() => void this.drain());
    } else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.draining = true;
        void this.drain();
      }, this.c.maxBatchWaitMs);
      this.timer.unref();
    }
  }

  /** Milliseconds until a token is available (token bucket of kube's flowcontrol.RateLimiter). */
  private throttleWait(): number {
    if (!this.c.throttleEnable || this.c.throttleQPS <= 0) return 0;
    const now = Date.now();
    this.tokens = Math.min(this.c.throttleBurst, this.tokens + ((now - this.lastRefill) / 1000) * this.c.throttleQPS);
    this.lastRefill = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) / this.c.throttleQPS) * 1000);
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length) {
        // After the wait, whatever is queued is sent: a partial batch when the timer fired.
        if (!this.stopped) {
          const wait = this.throttleWait();
          if (wait > 0) {
            await new Promise((r) => setTimeout(r, wait));
            continue;
          }
        }
        const batch = this.queue.splice(0, Math.max(1, this.c.maxBatchSize));
        const p = Promise.resolve().then(() => this.delegate.processEvents(batch)).catch((err: unknown) => {
          this.log(pluginError(this.delegate.name, err, batch.length));
        });
        if (this.c.asyncDelegate) {
          this.inFlight.add(p);
          void p.finally(() => this.inFlight.delete(p));
        } else {
          await p;
        }
        // Only full batches leave without waiting; a remainder waits for more or for the timer.
        if (!this.stopped && this.c.maxBatchSize > 1 && this.queue.length < this.c.maxBatchSize) break;
      }
    } finally {
      this.draining = false;
      if (this.queue.length && !this.stopped) this.schedule();
    }
  }

  async shutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.draining) await new Promise((r) => setImmediate(r));
    if (this.queue.length) {
      this.draining = true;
      await this.drain();
    }
    await Promise.all([...this.inFlight]);
    await this.delegate.shutdown();
  }
}
