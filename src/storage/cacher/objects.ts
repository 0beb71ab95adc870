/**
 * Building the shared, immutable `CachedObject`s and the `ObjectEvent`s made from them.
 *
 * Serve-once: an object revision is decoded once, and each event kind for it (ADDED, MODIFIED, DELETED) is one
 * `ObjectEvent` instance shared by every watcher and every initial-state replay, so the HTTP layer's
 * `encoded` map fills once per (event, media type) however many watchers there are.
 */
import type { KeyValue } from '../interface.ts';
import type { CachedObject, ObjectCodec, ObjectEvent } from './types.ts';

/** Freezes a JSON-like value and everything reachable from it. */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (const v of value) deepFreeze(v);
  } else {
    for (const k of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[k]);
  }
  return value;
}

/** Decodes `kv` with the codec and freezes the result. Throws whatever the codec throws. */
export function makeCachedObject(codec: ObjectCodec, kv: KeyValue): CachedObject {
  const object = deepFreeze(codec.decode(kv));
  const attrs = deepFreeze(codec.attrs(object));
  return { key: kv.key, kv, object, attrs, encoded: new Map() };
}

/**
 * The DELETED state of a key: its last value with `modRevision` (so metadata.resourceVersion) set to the
 * delete's revision, as kube-apiserver reports deletions.
 */
export function makeDeletedObject(codec: ObjectCodec, prevKv: KeyValue, deleteRevision: number): CachedObject {
  return makeCachedObject(codec, { ...prevKv, modRevision: deleteRevision });
}

interface EventSlots {
  added?: ObjectEvent;
  modified?: ObjectEvent;
  deleted?: ObjectEvent;
}

const slots = new WeakMap<CachedObject, EventSlots>();

/** The one shared event of `type` for this object revision (`revision` = the object's modRevision). */
export function objectEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: CachedObject): ObjectEvent {
  let s = slots.get(object);
  if (!s) {
    s = {};
    slots.set(object, s);
  }
  const k = type === 'ADDED' ? 'added' : type === 'MODIFIED' ? 'modified' : 'deleted';
  return (s[k] ??= { type, object, revision: object.kv.modRevision, encoded: new Map() });
}

export function bookmarkEvent(revision: number, initialEventsEnd = false): ObjectEvent {
  return initialEventsEnd
    ? { type: 'BOOKMARK', revision, initialEventsEnd: true, encoded: new Map() }
    : { type: 'BOOKMARK', revision, encoded: new Map() };
}
