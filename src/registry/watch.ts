/**
 * WATCH: validates the options, maps resourceVersion to where the stream starts, and turns reader errors into
 * StatusErrors. Errors found before the stream starts are thrown (an HTTP error); errors after it started
 * reach `sink.onClose(StatusError)` (the HTTP layer sends them as an `ERROR` event, as kube does for
 * `too old resource version`, 410 Expired).
 *
 * resourceVersion → start:
 *   unset → synthetic ADDED for the current state (consistent), then changes;
 *   "0"   → synthetic ADDED for whatever the cache holds, then changes;
 *   N     → changes after N only (410 Expired when N left the window).
 * sendInitialEvents=true → synthetic ADDED, then a BOOKMARK annotated `k8s.io/initial-events-end` (sent only when
 * allowWatchBookmarks, as kube's cacher does); sendInitialEvents=false with rv unset/"0" → changes from now on.
 * With allowWatchBookmarks and timeoutSeconds, a BOOKMARK goes out 2 s before the deadline (kube's cache watcher
 * does this so clients resume from a recent revision).
 */
import type { ObjectEvent, ObjectWatch, ObjectWatchOptions, ObjectWatchSink } from '../storage/cacher/types.ts';
import type { OpContext, WatchParams } from './rest.ts';
import { predicateFor } from './get-list.ts';
import { invalidResourceVersion, parseResourceVersion, RvParseError, validateWatchParams } from './options.ts';
import { toStatusError } from './storage-errors.ts';
import type { StoreCore } from './store-core.ts';

/** How long before `timeoutSeconds` runs out the deadline bookmark goes out (kube: 2 s). */
const BOOKMARK_BEFORE_DEADLINE_S = 2;

export async function watchObjects(core: StoreCore, ctx: OpContext, params: WatchParams, sink: ObjectWatchSink): Promise<ObjectWatch> {
  validateWatchParams(params, core.watchList);
  const rv = params.resourceVersion ?? '';
  let n: number;
  try {
    n = parseResourceVersion(rv);
  } catch (e) {
    if (e instanceof RvParseError) throw invalidResourceVersion(e);
    throw e;
  }
  const predicate = predicateFor(core, params);
  const opts: { -readonly [K in keyof ObjectWatchOptions]: ObjectWatchOptions[K] } = {};
  if (!predicate.empty) opts.predicate = predicate;
  if (params.allowWatchBookmarks) opts.bookmarks = true;
  // The readers implement the start rules (initial state unless sendInitialEvents=false; the closing bookmark).
  if (params.sendInitialEvents !== undefined) opts.sendInitialEvents = params.sendInitialEvents;
  if (rv !== '') opts.fromRevision = n;
  const bookmarks = params.allowWatchBookmarks === true;
  let closed = false;
  // Highest revision delivered: a bookmark at it never runs ahead of events still on their way.
  let delivered = n;
  if (bookmarks && n === 0 && params.timeoutSeconds) {
    try {
      delivered = await core.reader.currentRevision();
    } catch (e) {
      throw toStatusError(e, { op: 'watch' });
    }
  }
  let deadlineTimer: NodeJS.Timeout | undefined;
  const wrapped: ObjectWatchSink = {
    onEvent(event: ObjectEvent) {
      if (closed) return true;
      // The initial-events-end bookmark goes out only to clients that asked for bookmarks.
      if (event.type === 'BOOKMARK' && !bookmarks) return true;
      if (event.revision > delivered) delivered = event.revision;
      return sink.onEvent(core.viewEvent(event));
    },
    onClose(err?: Error) {
      if (closed) return;
      closed = true;
      clearTimeout(deadlineTimer);
      // A watcher that fell behind just ends, as in kube: the client re-watches from its last revision.
      if (!err || err.name === 'WatcherTooSlowError') sink.onClose(undefined);
      else sink.onClose(toStatusError(err, { op: 'watch' }));
    },
  };
  let inner: ObjectWatch;
  try {
    inner = core.reader.watch(core.prefix(ctx), opts, wrapped);
  } catch (e) {
    throw toStatusError(e, { op: 'watch' });
  }
  const timeout = params.timeoutSeconds ?? 0;
  if (!bookmarks || timeout <= BOOKMARK_BEFORE_DEADLINE_S) return inner;
  // kube's cache watcher sends a bookmark shortly before the request deadline, so the client can resume
  // from a fresh revision when the server ends the watch.
  deadlineTimer = setTimeout(() => {
    if (!closed) wrapped.onEvent({ type: 'BOOKMARK', revision: delivered, encoded: new Map() });
  }, (timeout - BOOKMARK_BEFORE_DEADLINE_S) * 1000);
  deadlineTimer.unref();
  const outer: ObjectWatch & { resume?: () => void } = {
    dispose() {
      clearTimeout(deadlineTimer);
      inner.dispose();
    },
  };
  const resume = (inner as { resume?: () => void }).resume;
  if (resume) outer.resume = () => resume.call(inner);
  return outer;
}
