/**
 * Shared fixtures for the reader tests (not a test file): a JSON codec like the registry's, write helpers,
 * a recording watch sink, a bounded wait, and store wrappers that misbehave on purpose.
 */
import type { KObject } from '../../../machinery/objects.ts';
import type { KeyValue, Store, StoreReader, WatchHandle, WatchListener, WatchOptions } from '../../interface.ts';
import type { ObjectAttrs, ObjectCodec, ObjectEvent, ObjectWatchSink } from '../types.ts';

export const PREFIX = '/registry/pods/';

export const codec: ObjectCodec = {
  decode(kv: KeyValue): KObject {
    const obj = JSON.parse(Buffer.from(kv.value.buffer, kv.value.byteOffset, kv.value.byteLength).toString('utf8')) as KObject;
    obj.metadata.resourceVersion = String(kv.modRevision);
    return obj;
  },
  attrs(obj: KObject): ObjectAttrs {
    const name = obj.metadata.name ?? '';
    const namespace = obj.metadata.namespace ?? '';
    const spec = (obj['spec'] ?? {}) as { nodeName?: string };
    const fields: Record<string, string> = { 'metadata.name': name, 'metadata.namespace': namespace };
    if (spec.nodeName !== undefined) fields['spec.nodeName'] = spec.nodeName;
    return { name, namespace, labels: obj.metadata.labels ?? {}, fields };
  },
};

export const keyOf = (ns: string, name: string): string => `${PREFIX}${ns}/${name}`;

export function podBytes(ns: string, name: string, labels: Record<string, string> = {}, extra: Record<string, unknown> = {}): Uint8Array {
  return Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns, labels }, ...extra }));
}

/** Creates or replaces a pod; returns the write's revision. */
export async function putPod(store: Store, ns: string, name: string, labels: Record<string, string> = {}, extra: Record<string, unknown> = {}): Promise<number> {
  const key = keyOf(ns, name);
  const value = podBytes(ns, name, labels, extra);
  const cur = await store.get(key);
  const r = cur ? await store.update(key, value, { expectedModRevision: cur.modRevision }) : await store.create(key, value);
  if (!r.succeeded) throw new Error(`write of ${key} lost a race`);
  return r.revision;
}

export async function deletePod(store: Store, ns: string, name: string): Promise<number> {
  const r = await store.delete(keyOf(ns, name));
  if (!r.succeeded) throw new Error(`delete of ${ns}/${name} failed`);
  return r.revision;
}

/** Polls `cond` every 5 ms; throws after `ms` (a bound on a hung test, not a timing assertion). */
export async function until(cond: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Records events and the close; `accept` decides what onEvent returns (backpressure tests). */
export class RecordingSink implements ObjectWatchSink {
  readonly events: ObjectEvent[] = [];
  closed = false;
  closeError: Error | undefined;
  accept: () => boolean = () => true;

  onEvent(event: ObjectEvent): boolean {
    this.events.push(event);
    return this.accept();
  }

  onClose(err?: Error): void {
    this.closed = true;
    this.closeError = err;
  }

  /** `TYPE name@rv` lines: compact to assert on. */
  get lines(): string[] {
    return this.events.map((e) => e.type === 'BOOKMARK'
      ? `BOOKMARK@${e.revision}${e.initialEventsEnd ? ' end' : ''}`
      : `${e.type} ${e.object!.object.metadata.name}@${e.object!.object.metadata.resourceVersion}`);
  }
}

/** A store whose watches never report progress (like etcd between its 10-minute notifications). */
export function withoutProgress(store: Store): Store {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'watch') {
        return (prefix: string, opts: WatchOptions, l: WatchListener): WatchHandle =>
          target.watch(prefix, opts, { onEvents: (e) => l.onEvents(e), onError: (e) => l.onError(e) });
      }
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/** A store reader whose live watches can be failed on demand (`failWatches(err)`). */
export function failable(store: Store): StoreReader & { failWatches(err: Error): void; watchCount(): number; close(): Promise<void> } {
  const live = new Set<WatchListener>();
  return {
    get: (k, o) => store.get(k, o),
    range: (p, o) => store.range(p, o),
    currentRevision: () => store.currentRevision(),
    watch(prefix, opts, l) {
      let done = false;
      const wrapped: WatchListener = {
        onEvents: (e) => { if (!done) l.onEvents(e); },
        onProgress: (r) => { if (!done) l.onProgress?.(r); },
        onError: (e) => { if (!done) { done = true; live.delete(wrapped); l.onError(e); } },
      };
      live.add(wrapped);
      const h = store.watch(prefix, opts, wrapped);
      return { dispose: () => { done = true; live.delete(wrapped); h.dispose(); } };
    },
    failWatches(err) {
      for (const l of [...live]) l.onError(err);
    },
    watchCount: () => live.size,
    close: () => store.close(),
  };
}
