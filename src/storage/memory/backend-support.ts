/**
 * Small pieces the memory and sqlite backends share: input checks done before anything is queued, range
 * bounds, and the clock-to-revision bookkeeping behind time-based automatic compaction.
 */
import { checkValueSize, KeyOutsidePrefixError, StorageError, type Bytes } from '../interface.ts';

/** Rejects (throws) a write whose key is empty or outside `keyPrefix`, or whose value is too large or not bytes. */
export function checkWrite(key: string, value: Bytes | undefined, keyPrefix: string): void {
  if (typeof key !== 'string' || key.length === 0) throw new StorageError('key is not provided');
  if (keyPrefix !== '' && !key.startsWith(keyPrefix)) throw new KeyOutsidePrefixError(key, keyPrefix);
  if (value !== undefined) {
    if (!(value instanceof Uint8Array)) throw new StorageError('value must be a Uint8Array');
    checkValueSize(value);
  }
}

/** Rejects a revision option that is not a non-negative integer (0 = current). */
export function checkRevisionOption(revision: number | undefined): number {
  const r = revision ?? 0;
  if (!Number.isSafeInteger(r) || r < 0) throw new StorageError(`invalid revision ${String(revision)}`);
  return r;
}

/**
 * Exclusive upper bound of keys starting with `prefix`, as a JS string (the prefix with its last UTF-16 unit
 * incremented); undefined when the prefix is empty (no upper bound). Keys are compared as strings.
 */
export function stringPrefixEnd(prefix: string): string | undefined {
  if (prefix === '') return undefined;
  const last = prefix.charCodeAt(prefix.length - 1);
  if (last === 0xffff) return stringPrefixEnd(prefix.slice(0, -1));
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

/**
 * Remembers which revision was current at which time, so that "history older than N ms" can be turned
 * into a revision to compact to. Samples are taken by the backend's compaction timer.
 */
export class RetentionClock {
  private readonly samples: { at: number; revision: number }[] = [];

  constructor(private readonly retentionMs: number) {}

  /** Records the current revision and returns the newest revision that is at least `retentionMs` old (or 0). */
  sample(now: number, revision: number): number {
    this.samples.push({ at: now, revision });
    let target = 0;
    while (this.samples.length > 0 && this.samples[0]!.at <= now - this.retentionMs) {
      target = this.samples.shift()!.revision;
    }
    return target;
  }
}

/** A repeating timer that never keeps the process alive on its own. */
export function unrefInterval(fn: () => void, ms: number): NodeJS.Timeout {
  const t = setInterval(fn, ms);
  t.unref();
  return t;
}
