/**
 * Object reads straight from the store at one revision: what `DirectReader` serves everything with, and
 * what the cache falls back to for past revisions (continue tokens, `resourceVersionMatch=Exact`) and for
 * consistent reads it cannot confirm in time.
 *
 * Pagination follows kube-apiserver's etcd3 store: with a predicate, pages keep being fetched until `limit`
 * matches are found; `lastKey` is the last returned key when more keys follow (they may not match);
 * `remaining` is only reported without a predicate. CompactedError / FutureRevisionError from the store pass
 * through (the registry maps them to 410 / 504).
 */
import type { KeyValue, StoreReader } from '../interface.ts';
import { makeCachedObject } from './objects.ts';
import type { CachedObject, ObjectCodec, ObjectListResult, SelectionPredicate } from './types.ts';

export interface BackendListOptions {
  /** 0 = the store's current revision. */
  readonly revision: number;
  readonly limit?: number;
  readonly afterKey?: string;
  readonly predicate?: SelectionPredicate;
}

/** Smallest chunk fetched per round trip while filtering. */
const MIN_CHUNK = 500;

/** Returns the decoded object, or undefined for a value the codec rejects (logged, never fatal). */
export function decodeOrSkip(codec: ObjectCodec, kv: KeyValue, make = makeCachedObject): CachedObject | undefined {
  try {
    return make(codec, kv);
  } catch (err) {
    console.warn(`watch cache: cannot decode ${kv.key}@${kv.modRevision}: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

export async function backendGet(store: StoreReader, codec: ObjectCodec, key: string, revision: number): Promise<CachedObject | undefined> {
  const kv = await store.get(key, revision > 0 ? { revision } : {});
  return kv ? decodeOrSkip(codec, kv) : undefined;
}

export async function backendList(store: StoreReader, codec: ObjectCodec, prefix: string, opts: BackendListOptions): Promise<ObjectListResult> {
  const cost = { fetched: 0, evaluated: 0, returned: 0 };
  try {
    const r = await listPages(store, codec, prefix, opts, cost);
    cost.returned = r.items.length;
    return r;
  } finally {
    store.noteList?.(prefix, cost);
  }
}

async function listPages(store: StoreReader, codec: ObjectCodec, prefix: string, opts: BackendListOptions, cost: { fetched: number; evaluated: number }): Promise<ObjectListResult> {
  const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
  const pred = opts.predicate && !opts.predicate.empty ? opts.predicate : undefined;
  let revision = opts.revision;
  // The key right after afterKey: etcd ranges are inclusive of startKey.
  let startKey = opts.afterKey !== undefined ? `${opts.afterKey}\0` : undefined;
  const items: CachedObject[] = [];
  for (;;) {
    const chunk = limit === 0 ? 0 : pred ? Math.max(limit, MIN_CHUNK) : limit - items.length;
    const res = await store.range(prefix, {
      ...(revision > 0 ? { revision } : {}),
      ...(chunk > 0 ? { limit: chunk } : {}),
      ...(startKey !== undefined ? { startKey } : {}),
    });
    revision = res.revision;
    cost.fetched += res.items.length;
    for (let i = 0; i < res.items.length; i++) {
      const kv = res.items[i]!;
      const obj = decodeOrSkip(codec, kv);
      if (obj) {
        cost.evaluated++;
        if (!pred || pred.matches(obj.attrs)) items.push(obj);
      }
      if (limit > 0 && items.length >= limit) {
        const more = i < res.items.length - 1 || res.more;
        const result: ObjectListResult = { items, revision };
        if (!more) return result;
        return pred ? { ...result, lastKey: kv.key } : { ...result, lastKey: kv.key, remaining: res.count - (i + 1) };
      }
    }
    if (!res.more || res.items.length === 0) return { items, revision };
    startKey = `${res.items[res.items.length - 1]!.key}\0`;
  }
}
