/** How one change looks through a watcher's selector (kube-apiserver's cacheWatcher.convertToWatchEvent). */
import type { Change } from './event-window.ts';
import { objectEvent } from './objects.ts';
import type { ObjectEvent, SelectionPredicate } from './types.ts';

/**
 * ADDED when the object starts matching (or is created matching), MODIFIED while it keeps matching,
 * DELETED when it stops matching (carrying the new state) or is deleted (carrying the last state at the
 * delete's revision); undefined when the watcher does not see the change at all. The returned event is the
 * shared instance for that object revision (serve-once).
 */
export function classify(change: Change, pred: SelectionPredicate | undefined): ObjectEvent | undefined {
  if (change.kind === 'delete') return !pred || pred.matches(change.object.attrs) ? objectEvent('DELETED', change.object) : undefined;
  const now = !pred || pred.matches(change.object.attrs);
  const before = change.prev !== undefined && (!pred || pred.matches(change.prev.attrs));
  if (now) return objectEvent(before ? 'MODIFIED' : 'ADDED', change.object);
  return before ? objectEvent('DELETED', change.object) : undefined;
}
