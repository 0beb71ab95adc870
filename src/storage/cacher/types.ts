/**
 * The object-level read contract the registry uses. The watch cache (`Cacher`) implements it over a `Store`,
 * and so does `DirectReader` (no cache, reads the backend) so tests and tools can run either way.
 *
 * Revision semantics (Kubernetes' resourceVersion table, mapped by the registry to `ReadAt`):
 *   { kind: 'consistent' }            rv unset: wait until the cache holds the store's current revision, then serve.
 *   { kind: 'any' }                   rv=0: serve what the cache has now.
 *   { kind: 'notOlderThan', revision } serve once the cache reached `revision`; FutureRevisionError after a wait.
 *   { kind: 'exact', revision }       data exactly as of `revision`; CompactedError (410) when no longer available.
 */
import type { KObject } from '../../machinery/objects.ts';
import type { KeyValue } from '../interface.ts';

/** What selectors look at: computed once per object revision. */
export interface ObjectAttrs {
  readonly name: string;
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  /** Field selector values: always `metadata.name` and `metadata.namespace`, plus the resource's own fields. */
  readonly fields: Readonly<Record<string, string>>;
}

/** A label + field selector, parsed. `empty` = matches everything. */
export interface SelectionPredicate {
  readonly empty: boolean;
  matches(attrs: ObjectAttrs): boolean;
  /** When the field selector pins `metadata.name=<x>`, the name (lets the cache use its key index). */
  readonly name?: string;
}

/** One object at one revision, decoded once and shared by every reader and watcher. Never mutate `object`. */
export interface CachedObject {
  readonly key: string;
  /** The stored bytes and revisions. `kv.modRevision` is the object's resourceVersion. */
  readonly kv: KeyValue;
  /** Decoded object with metadata.resourceVersion set; frozen (deep) — clone before changing. */
  readonly object: KObject;
  readonly attrs: ObjectAttrs;
  /** Encoded forms by media type (`application/json`, …), filled lazily by the encoder: encode once per revision. */
  readonly encoded: Map<string, Uint8Array>;
}

export type ReadAt =
  | { readonly kind: 'consistent' }
  | { readonly kind: 'any' }
  | { readonly kind: 'notOlderThan'; readonly revision: number }
  | { readonly kind: 'exact'; readonly revision: number };

export interface ObjectGetOptions {
  readonly read: ReadAt;
}

export interface ObjectListOptions {
  readonly read: ReadAt;
  /** Items per page (0/unset = all). */
  readonly limit?: number;
  /** Continue after this key (exclusive): the last key of the previous page. */
  readonly afterKey?: string;
  readonly predicate?: SelectionPredicate;
}

export interface ObjectListResult {
  readonly items: CachedObject[];
  /** The revision the list reflects (the collection's resourceVersion). */
  readonly revision: number;
  /** Set when more items follow: the last returned key, to put into the continue token. */
  readonly lastKey?: string;
  /** Items left after this page when known (no predicate): `remainingItemCount`. */
  readonly remaining?: number;
}

export type ObjectEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

export interface ObjectEvent {
  readonly type: ObjectEventType;
  /** For DELETED: the last state with metadata.resourceVersion = the delete's revision. Absent for BOOKMARK. */
  readonly object?: CachedObject;
  readonly revision: number;
  /** BOOKMARK closing the initial events of a `sendInitialEvents` watch. */
  readonly initialEventsEnd?: boolean;
  /** Encoded frames by media type, shared by every watcher of this event (serialize once). */
  readonly encoded: Map<string, Uint8Array>;
}

export interface ObjectWatchOptions {
  /**
   * undefined: start with synthetic ADDED events for the current state (consistent), then changes.
   * 0: same from whatever the cache has. >0: changes after this revision only (410 if out of the window).
   */
  readonly fromRevision?: number;
  /** Force the initial-events mode (watch-list): ADDED for current state, then a BOOKMARK with initialEventsEnd. */
  readonly sendInitialEvents?: boolean;
  readonly predicate?: SelectionPredicate;
  /** Deliver periodic BOOKMARK events. */
  readonly bookmarks?: boolean;
}

export interface ObjectWatchSink {
  /** Called in revision order. Returns false when the consumer is backed up (the cache may then drop it). */
  onEvent(event: ObjectEvent): boolean | void;
  /** The watch ended (slow consumer, compaction, shutdown). No more events follow. */
  onClose(err?: Error): void;
}

export interface ObjectWatch {
  dispose(): void;
  /**
   * After `sink.onEvent` returned false (backed up), call when the sink can take events again (e.g. on the
   * response's 'drain'). Until then the reader queues live events, and closes the watch when its bound is hit.
   * Optional: readers without buffering (DirectReader) never pause.
   */
  resume?(): void;
}

export interface ObjectReader {
  get(key: string, opts: ObjectGetOptions): Promise<CachedObject | undefined>;
  list(prefix: string, opts: ObjectListOptions): Promise<ObjectListResult>;
  watch(prefix: string, opts: ObjectWatchOptions, sink: ObjectWatchSink): ObjectWatch;
  /** Latest revision the reader has seen (for bookmarks and `resourceVersion` of empty lists). */
  currentRevision(): Promise<number>;
  /**
   * The object at `key` when the reader already holds the store's latest committed revision, without waiting
   * and without reading the store (undefined: no such object at that revision); null when it cannot say so
   * (still catching up, loading, or no cache). Optional: readers without a cache leave it out.
   */
  current?(key: string): Promise<CachedObject | undefined | null>;
}

/** How a reader turns stored bytes into objects: supplied by the registry per resource. */
export interface ObjectCodec {
  decode(kv: KeyValue): KObject;
  attrs(obj: KObject): ObjectAttrs;
  /**
   * The stored object as far as `attrs` needs it, failing as `decode` fails: a bulk load decodes every object
   * only for its attributes, so it skips what `decode` adds for readers (metadata.resourceVersion in place).
   */
  decodeForAttrs?(kv: KeyValue): KObject;
}
