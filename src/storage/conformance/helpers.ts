/**
 * Helpers for the storage conformance suite: byte/text conversion, a collecting watch listener with bounded
 * waits (a broken backend fails the test instead of hanging it), and the factory contract.
 */
import type { KeyValue, Store, WatchEvent, WatchHandle } from '../interface.ts';

/** How the suite gets stores. Every store it opens must enforce `keyPrefix` (default `/registry/`). */
export interface StoreFactory {
  /** A store to test. It need not be empty: the suite writes under a fresh key prefix per test. */
  open(): Promise<Store>;
  /** The same data as the store most recently returned by open()/reopen(), after the suite closed it. */
  reopen?(): Promise<Store>;
  /** Removes everything the factory created (temp dirs, servers). */
  cleanup(): Promise<void>;
  readonly supports?: { readonly ttl?: boolean };
  /** The key prefix the opened stores enforce. Default `/registry/`. */
  readonly keyPrefix?: string;
}

export const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
export const txt = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : new TextDecoder().decode(b));

/** Just the fields a test compares (drops value bytes in favour of text). */
export function view(kv: KeyValue | undefined): { key: string; value: string; createRevision: number; modRevision: number; version: number } | undefined {
  if (!kv) return undefined;
  return { key: kv.key, value: txt(kv.value)!, createRevision: kv.createRevision, modRevision: kv.modRevision, version: kv.version };
}

export interface Collector {
  readonly events: WatchEvent[];
  readonly errors: Error[];
  readonly progress: number[];
  readonly handle: WatchHandle;
  /** Resolves once at least `n` events arrived; rejects after `timeoutMs` (default 10 s) or on a watch error. */
  waitFor(n: number, timeoutMs?: number): Promise<WatchEvent[]>;
  /** Resolves with the first error; rejects after `timeoutMs`. */
  waitError(timeoutMs?: number): Promise<Error>;
}

export function collect(store: Store, prefix: string, fromRevision: number, progressNotify = false): Collector {
  const events: WatchEvent[] = [];
  const errors: Error[] = [];
  const progress: number[] = [];
  let wake: (() => void) | undefined;
  const handle = store.watch(prefix, { fromRevision, progressNotify }, {
    onEvents: (evs) => {
      events.push(...evs);
      wake?.();
    },
    onProgress: (rev) => {
      progress.push(rev);
      wake?.();
    },
    onError: (err) => {
      errors.push(err);
      wake?.();
    },
  });
  const until = (done: () => boolean, timeoutMs: number, what: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        wake = undefined;
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what} (have ${events.length} events, errors: ${errors.map((e) => e.message).join('; ')})`));
      }, timeoutMs);
      const check = (): void => {
        if (!done()) return;
        clearTimeout(timer);
        wake = undefined;
        resolve();
      };
      wake = check;
      check();
    });
  return {
    events,
    errors,
    progress,
    handle,
    async waitFor(n, timeoutMs = 10_000) {
      await until(() => events.length >= n || errors.length > 0, timeoutMs, `${n} events`);
      if (events.length < n) throw errors[0]!;
      return events;
    },
    async waitError(timeoutMs = 10_000) {
      await until(() => errors.length > 0, timeoutMs, 'a watch error');
      return errors[0]!;
    },
  };
}

/** A unique key prefix per test so tests never see each other's keys, even on a shared backend. */
export function uniquePrefix(base: string, name: string): string {
  return `${base}conformance-${name}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}/`;
}

/** What every case group gets: a way to run a body against an open store that is closed afterwards. */
export interface SuiteContext {
  readonly factory: StoreFactory;
  readonly keyPrefix: string;
  /** Opens a store, runs `body` with a fresh key prefix under the store's key prefix, closes the store. */
  withStore(name: string, body: (store: Store, prefix: string) => Promise<void>): Promise<void>;
}
