/**
 * What the cache knows: the objects under the prefix at revision `rev`, and the window of changes that led
 * there. Invariant: `objects` is exactly the store's state under the prefix at `rev`, and `window` holds
 * every change in (window.startRevision, rev]. Only `reset`, `apply` and `progress` change it, and all
 * three keep the invariant; everything here is synchronous, so readers never see half an update.
 */
import type { KeyValue, WatchEvent } from '../interface.ts';
import { decodeOrSkip } from './backend-reader.ts';
import { EventWindow, type EventWindowOptions, type WindowEvent } from './event-window.ts';
import { makeDeletedObject } from './objects.ts';
import { SortedObjects } from './sorted-objects.ts';
import type { CachedObject, ObjectCodec, ObjectListOptions, ObjectListResult } from './types.ts';

export class CacheState {
  readonly objects = new SortedObjects();
  readonly window: EventWindow;
  /** The revision the state reflects. */
  rev = 0;

  constructor(private readonly codec: ObjectCodec, windowOpts: EventWindowOptions) {
    this.window = new EventWindow(0, windowOpts);
  }

  /** A fresh load: `objects` as of `revision`, an empty window starting there. */
  reset(objects: CachedObject[], revision: number): void {
    this.objects.reset(objects);
    this.rev = revision;
    this.window.reset(revision);
  }

  /** Applies store events in order; `onChange` sees each change once the state is at its revision. */
  apply(events: readonly WatchEvent[], onChange: (we: WindowEvent) => void): void {
    for (const e of events) {
      const revision = e.kv.modRevision;
      if (revision <= this.rev) continue; // already applied (a resumed backend watch may repeat)
      const we = e.type === 'put' ? this.put(e.kv, revision) : this.delete(e.kv.key, e.prevKv, revision);
      this.rev = revision;
      if (!we) continue;
      this.window.push(we);
      onChange(we);
    }
  }

  /** The store says nothing changed under the prefix up to `revision`. Returns whether `rev` moved. */
  progress(revision: number): boolean {
    if (revision <= this.rev) return false;
    this.rev = revision;
    return true;
  }

  /** A page of the current state (see backend-reader.ts for the pagination rules it shares). */
  list(prefix: string, opts: ObjectListOptions): ObjectListResult {
    const pred = opts.predicate && !opts.predicate.empty ? opts.predicate : undefined;
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const revision = this.rev;
    const objs = this.objects;
    let i = objs.lowerBound(prefix);
    if (opts.afterKey !== undefined) i = Math.max(i, objs.lowerBound(`${opts.afterKey}\0`));
    const end = objs.prefixEnd(prefix);
    const items: CachedObject[] = [];
    for (; i < end; i++) {
      const o = objs.at(i)!;
      if (pred && !pred.matches(o.attrs)) continue;
      items.push(o);
      if (limit > 0 && items.length === limit) {
        if (i + 1 >= end) break;
        return pred ? { items, revision, lastKey: o.key } : { items, revision, lastKey: o.key, remaining: end - i - 1 };
      }
    }
    return { items, revision };
  }

  private put(kv: KeyValue, revision: number): WindowEvent | undefined {
    const obj = decodeOrSkip(this.codec, kv);
    if (!obj) {
      // An undecodable value: to readers the key is gone (kube-apiserver cannot serve it either).
      const prev = this.objects.get(kv.key);
      return prev ? this.delete(kv.key, prev.kv, revision) : undefined;
    }
    const prev = this.objects.set(obj);
    const time = Date.now();
    return prev ? { revision, kind: 'put', object: obj, prev, time } : { revision, kind: 'put', object: obj, time };
  }

  private delete(key: string, prevKv: KeyValue | undefined, revision: number): WindowEvent | undefined {
    const prev = this.objects.delete(key);
    const last = prevKv ?? prev?.kv;
    if (!last) return undefined;
    let object: CachedObject;
    try {
      object = makeDeletedObject(this.codec, last, revision);
    } catch {
      return undefined;
    }
    const time = Date.now();
    return prev ? { revision, kind: 'delete', object, prev, time } : { revision, kind: 'delete', object, time };
  }
}
