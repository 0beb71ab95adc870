/** Shared bits of the etcd backend's tests: text helpers and a collecting watch listener. */
import type { WatchEvent } from '../../interface.ts';

export const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
export const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

/** Collects watch events; `until` resolves once the predicate holds over everything received. */
export function collector() {
  const events: WatchEvent[] = [];
  const progress: number[] = [];
  let error: Error | undefined;
  let waiters: Array<() => void> = [];
  const wake = (): void => {
    const w = waiters;
    waiters = [];
    w.forEach((f) => f());
  };
  return {
    events,
    progress,
    get error() {
      return error;
    },
    listener: {
      onEvents: (evs: readonly WatchEvent[]) => {
        events.push(...evs);
        wake();
      },
      onProgress: (rev: number) => {
        progress.push(rev);
        wake();
      },
      onError: (err: Error) => {
        error = err;
        wake();
      },
    },
    /** Waits for the predicate; fails (instead of hanging the run) if it never holds within 30 s. */
    async until(pred: () => boolean): Promise<void> {
      const deadline = Date.now() + 30_000;
      while (!pred()) {
        if (Date.now() > deadline) throw new Error(`watch condition not met; got ${events.length} events, error ${String(error)}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 500).unref();
        });
      }
    },
  };
}
