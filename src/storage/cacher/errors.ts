/** Errors the watch cache reports. The registry maps them to Kubernetes statuses (see wiring.md). */
import { CompactedError } from '../interface.ts';

/**
 * A watch from a revision older than the cache's event window. It is a `CompactedError` so generic 410
 * handling applies; the message is kube-apiserver's (`too old resource version: X (Y)`), where Y is the
 * newest revision the window can no longer replay after (the oldest event's revision minus one).
 */
export class TooOldResourceVersionError extends CompactedError {
  override name = 'TooOldResourceVersionError';
  constructor(requestedRevision: number, readonly oldestRevision: number) {
    super(requestedRevision, oldestRevision);
    this.message = `too old resource version: ${requestedRevision} (${oldestRevision})`;
  }
}

/** A watcher that could not keep up: its buffer overflowed. The client re-watches from its last revision. */
export class WatcherTooSlowError extends Error {
  override name = 'WatcherTooSlowError';
  constructor(readonly buffered: number) {
    super(`watcher could not keep up: more than ${buffered} events buffered`);
  }
}
