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
 */
import type { ObjectEvent, ObjectWatch, ObjectWatchOptions, ObjectWatchSink } from '../storage/cacher/types.ts';
import type { OpContext, WatchParams } from './rest.ts';
import { predicateFor } from './get-list.ts';
import { invalidResourceVersion, parseResourceVersion, RvParseError, validateWatchParams } from './options.ts';
import { toStatusError } from './storage-errors.ts';
import type { StoreCore } from './store-core.ts';

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
  const wrapped: ObjectWatchSink = {
    onEvent(event: ObjectEvent) {
      if (closed) return true;
      // The initial-events-end bookmark goes out only to clients that asked for bookmarks.
      if (event.type === 'BOOKMARK' && !bookmarks) return true;
      return sink.onEvent(event);
    },
    onClose(err?: Error) {
      if (closed) return;
      closed = true;
      // A watcher that fell behind just ends, as in kube: the client re-watches from its last revision.
      if (!err || err.name === 'WatcherTooSlowError') sink.onClose(undefined);
      else sink.onClose(toStatusError(err, { op: 'watch' }));
    },
  };
  try {
    return core.reader.watch(core.prefix(ctx), opts, wrapped);
  } catch (e) {
    throw toStatusError(e, { op: 'watch' });
  }
}
