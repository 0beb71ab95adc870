/**
 * Building the shared, immutable `CachedObject`s and the `ObjectEvent`s made from them.
 *
 * Serve-once: an object revision is decoded once, and each event kind for it (ADDED, MODIFIED, DELETED) is one
 * `ObjectEvent` instance shared by every watcher and every initial-state replay, so the HTTP layer's
 * `encoded` map fills once per (event, media type) however many watchers there are.
 */
import type { KeyValue } from '../interface.ts';
import type { KObject } from '../../machinery/objects.ts';
import type { CachedObject, ObjectAttrs, ObjectCodec, ObjectEvent } from './types.ts';

/** Freezes a JSON-like value and everything reachable from it (for-in: 3x faster than Object.keys here). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') freezeTree(value);
  return value;
}

function freezeTree(o: object): void {
  Object.freeze(o);
  if (Array.isArray(o)) {
    for (const v of o as unknown[]) if (v !== null && typeof v === 'object') freezeTree(v);
  } else {
    for (const k in o) {
      const v = (o as Record<string, unknown>)[k];
      if (v !== null && typeof v === 'object') freezeTree(v);
    }
  }
}

/**
 * One object revision held as its stored bytes (`kv.value`) and its selector attributes. The decoded tree is
 * kept only through a WeakRef: readers get the same frozen tree while it is in use, and a garbage collection
 * drops the trees nobody holds, so the cache costs one stored value per revision instead of the value plus a
 * decoded copy (several times larger in V8's heap). Decoding again is deterministic: the same bytes gave a
 * tree once, when this was made.
 */
class StoredObject implements CachedObject {
  #encoded: Map<string, Uint8Array> | undefined;
  readonly #codec: ObjectCodec;
  #tree: WeakRef<KObject> | undefined;
  /** This revision's shared events (see objectEvent): a field, not a WeakMap entry per object. */
  #events: EventSlots | undefined;

  /** The event slots of `o` when it is a StoredObject (made on first use), else undefined. */
  static eventSlots(o: CachedObject): EventSlots | undefined {
    return #events in o ? (o.#events ??= {}) : undefined;
  }

  constructor(readonly key: string, readonly kv: KeyValue, object: KObject | undefined, readonly attrs: ObjectAttrs, codec: ObjectCodec) {
    this.#codec = codec;
    this.#tree = object && new WeakRef(object);
  }

  /** Made on first use: most revisions are never served encoded, and an empty Map per object adds up. */
  get encoded(): Map<string, Uint8Array> {
    return (this.#encoded ??= new Map());
  }

  get object(): KObject {
    let tree = this.#tree?.deref();
    if (tree === undefined) {
      tree = deepFreeze(this.#codec.decode(this.kv));
      this.#tree = new WeakRef(tree);
    }
    return tree;
  }
}

/** Decodes `kv` with the codec (to check it and compute its attributes). Throws whatever the codec throws. */
export function makeCachedObject(codec: ObjectCodec, kv: KeyValue): CachedObject {
  const object = deepFreeze(codec.decode(kv));
  const attrs = deepFreeze(codec.attrs(object));
  return new StoredObject(kv.key, kv, object, attrs, codec);
}

/**
 * As makeCachedObject, for a bulk load (a watch cache filling): the decoded tree gives the attributes and is
 * then dropped, not frozen and kept. Loading 100k objects otherwise froze 100k trees and kept each page's
 * trees alive until the page was done, which was much of the load's garbage collection.
 */
export function makeLoadedObject(codec: ObjectCodec, kv: KeyValue): CachedObject {
  const attrs = deepFreeze(codec.attrs(codec.decodeForAttrs ? codec.decodeForAttrs(kv) : codec.decode(kv)));
  return new StoredObject(kv.key, kv, undefined, attrs, codec);
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

/** Slots of CachedObjects made elsewhere (views); the cache's own objects keep theirs in a field. */
const slots = new WeakMap<CachedObject, EventSlots>();

/**
 * An object event whose encoded-frames map is made on first use: every cached revision keeps the event that
 * announced it for as long as it is current, and most are never encoded (in-process watchers such as the
 * garbage collector's read the object, not bytes). An empty Map and its table were ≈ 180 bytes per object.
 */
class SharedEvent implements ObjectEvent {
  #encoded: Map<string, Uint8Array> | undefined;

  constructor(readonly type: 'ADDED' | 'MODIFIED' | 'DELETED', readonly object: CachedObject, readonly revision: number) {}

  get encoded(): Map<string, Uint8Array> {
    return (this.#encoded ??= new Map());
  }
}

/** The one shared event of `type` for this object revision (`revision` = the object's modRevision). */
export function objectEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: CachedObject): ObjectEvent {
  let s = StoredObject.eventSlots(object) ?? slots.get(object);
  if (!s) {
    s = {};
    slots.set(object, s);
  }
  const k = type === 'ADDED' ? 'added' : type === 'MODIFIED' ? 'modified' : 'deleted';
  return (s[k] ??= new SharedEvent(type, object, object.kv.modRevision));
}

export function bookmarkEvent(revision: number, initialEventsEnd = false): ObjectEvent {
  return initialEventsEnd
    ? { type: 'BOOKMARK', revision, initialEventsEnd: true, encoded: new Map() }
    : { type: 'BOOKMARK', revision, encoded: new Map() };
}
