/**
 * An informer over one `RestStorage`: list, then watch from the list's resourceVersion, keeping a local copy
 * of the objects and telling handlers about adds, updates and deletes. When the watch closes (compaction,
 * slow consumer, shutdown of the cache) it lists again and reports the difference, so handlers never miss a
 * change for long (client-go's reflector + DeltaFIFO, minus the resync timer).
 *
 * Invariants: handlers run synchronously in event order and must not throw (they enqueue work); objects
 * handed out are the registry's frozen objects — clone before changing.
 */
import type { KObject } from '../machinery/objects.ts';
import type { RestStorage } from '../registry/rest.ts';
import type { ObjectWatch } from '../storage/cacher/types.ts';
import { StatusError } from '../machinery/errors.ts';
import { systemContext, type Logger } from '../registry/system-context.ts';

export interface InformerHandler {
  onAdd?(obj: KObject): void;
  onUpdate?(oldObj: KObject, obj: KObject): void;
  onDelete?(obj: KObject): void;
}

export interface InformerOptions {
  storage: RestStorage;
  /** '' (default) = all namespaces. */
  namespace?: string;
  fieldSelector?: string;
  labelSelector?: string;
  log?: Logger;
  /** Backoff before re-listing after an error (doubles up to 5 s). */
  retryDelayMs?: number;
  /**
   * What the informer keeps and hands to handlers instead of the whole object (client-go's SetTransform),
   * e.g. metadata only: an informer over every object of a kind otherwise holds a decoded copy of each.
   */
  transform?: (obj: KObject) => KObject;
}

/** Items handled between two yields to the event loop while a list replaces an informer's state. */
const REPLACE_SLICE = 1000;

export function objectKey(obj: KObject): string {
  const ns = obj.metadata.namespace;
  return ns ? `${ns}/${obj.metadata.name ?? ''}` : (obj.metadata.name ?? '');
}

export class Informer {
  private readonly items = new Map<string, KObject>();
  private readonly handlers: InformerHandler[] = [];
  private watch: ObjectWatch | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private synced = false;
  private failures = 0;
  /** Bumped on every (re)list so a closing old watch cannot trigger a second relist. */
  private generation = 0;
  private readonly abort = new AbortController();

  constructor(private readonly opts: InformerOptions) {}

  get resource(): string {
    return this.opts.storage.def.resource;
  }

  addHandler(h: InformerHandler): void {
    this.handlers.push(h);
    if (this.synced && h.onAdd) for (const obj of this.items.values()) h.onAdd(obj);
  }

  hasSynced(): boolean {
    return this.synced;
  }

  get(namespace: string, name: string): KObject | undefined {
    return this.items.get(namespace ? `${namespace}/${name}` : name);
  }

  list(): KObject[] {
    return [...this.items.values()];
  }

  /** Lists and starts watching; resolves once the first list is in (rejects if that list fails). */
  async start(): Promise<void> {
    await this.listAndWatch();
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.watch?.dispose();
    this.watch = undefined;
  }

  private ctx() {
    return systemContext({ namespace: this.opts.namespace ?? '', signal: this.abort.signal });
  }

  private selectors() {
    return {
      ...(this.opts.fieldSelector ? { fieldSelector: this.opts.fieldSelector } : {}),
      ...(this.opts.labelSelector ? { labelSelector: this.opts.labelSelector } : {}),
    };
  }

  private async listAndWatch(): Promise<void> {
    const gen = ++this.generation;
    const { storage } = this.opts;
    const res = await storage.list(this.ctx(), { ...this.selectors() });
    if (this.stopped || gen !== this.generation) return;
    if (!(await this.replace(res.items, () => this.stopped || gen !== this.generation))) return;
    this.synced = true;
    const watch = await storage.watch(this.ctx(), { ...this.selectors(), resourceVersion: res.resourceVersion, allowWatchBookmarks: true }, {
      onEvent: (ev) => {
        if (gen !== this.generation || this.stopped) return;
        const obj = ev.object?.object;
        if (!obj) return;
        if (ev.type === 'DELETED') this.remove(obj);
        else if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.upsert(obj);
      },
      onClose: (err) => {
        if (gen !== this.generation || this.stopped) return;
        // A 410 (window passed) means re-list at once; anything else waits a little.
        const gone = err instanceof StatusError && err.code === 410;
        if (err && !gone) this.opts.log?.(`informer ${this.resource}: watch closed: ${err.message}`);
        this.scheduleRelist(gone || !err ? 0 : undefined);
      },
    });
    if (this.stopped || gen !== this.generation) {
      // Stopped, or the watch closed while it was being set up (a relist is already scheduled).
      watch.dispose();
      return;
    }
    this.watch = watch;
    this.failures = 0;
  }

  private scheduleRelist(delayMs?: number): void {
    if (this.stopped) return;
    this.watch?.dispose();
    this.watch = undefined;
    this.generation++;
    const delay = delayMs ?? Math.min((this.opts.retryDelayMs ?? 50) * 2 ** this.failures, 5000);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.listAndWatch().catch((err: unknown) => {
        this.failures++;
        this.opts.log?.(`informer ${this.resource}: list failed: ${(err as Error)?.message ?? String(err)}`);
        this.scheduleRelist();
      });
    }, delay);
    this.timer.unref();
  }

  /**
   * Replace the whole state after a list: synthesize deletes for objects gone, adds/updates for the rest.
   * Each item is decoded (and transformed) one at a time, yielding to the event loop every REPLACE_SLICE items:
   * a list of 100k objects otherwise held 100k decoded trees at once and blocked requests for seconds.
   * Resolves false when `abandoned()` became true during a yield (stopped, or a newer list began).
   */
  private async replace(items: readonly { readonly object: KObject }[], abandoned: () => boolean): Promise<boolean> {
    const seen = new Set<string>();
    let n = 0;
    for (const item of items) {
      const o = item.object;
      seen.add(objectKey(o));
      this.upsert(o);
      if (++n % REPLACE_SLICE === 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (abandoned()) return false;
      }
    }
    for (const [k, o] of [...this.items]) if (!seen.has(k)) this.remove(o);
    return true;
  }

  private upsert(full: KObject): void {
    const obj = this.opts.transform ? this.opts.transform(full) : full;
    const key = objectKey(obj);
    const old = this.items.get(key);
    if (old && old.metadata.resourceVersion === obj.metadata.resourceVersion) return;
    this.items.set(key, obj);
    for (const h of this.handlers) {
      if (old) h.onUpdate?.(old, obj);
      else h.onAdd?.(obj);
    }
  }

  private remove(full: KObject): void {
    const obj = this.opts.transform ? this.opts.transform(full) : full;
    const key = objectKey(obj);
    if (!this.items.delete(key)) return;
    for (const h of this.handlers) h.onDelete?.(obj);
  }
}
