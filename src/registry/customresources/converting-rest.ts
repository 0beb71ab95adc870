/**
 * Serving a version of a CRD whose conversion strategy is `Webhook`: the objects live in storage in the
 * version they were written in (the storage version of that time), read and written through a raw store of
 * the current storage version (`inner`, no apiVersion rewrite), and every object crossing this boundary goes
 * through the converter (a ConversionReview to the webhook, src/apiextensions/conversion) unless it already
 * is in the wanted version — by its own apiVersion, as kube converts:
 *   reads (get/list/watch/delete results): stored version → served version, then pruned (metadata coerced)
 *   and defaulted in the served version (kube's schemaCoercingConverter and defaulting decoder);
 *   writes (create/update/patch): served version → storage version, and the result back.
 * Conversion failures surface as the converter's 500 with the webhook's message. Watch events keep their
 * order (conversions are chained). As in kube, every GET and LIST asks the webhook; watch events are converted
 * once per stored revision however many watchers share them.
 *
 * Writes are pruned, defaulted and validated in the served version first (its schema and CEL rules, as kube's
 * per-version strategy does), then converted; the storage-version store checks the converted object again.
 */
import type { KObject } from '../../machinery/objects.ts';
import type { ResourceDef } from '../../api/types.ts';
import type { CachedObject, ObjectEvent, ObjectWatch, ObjectWatchSink } from '../../storage/cacher/types.ts';
import type {
  DeleteParams, DeleteResult, GetParams, ListParams, ListResult, OpContext, RestStorage, UpdateFn, WatchParams, WriteParams,
} from '../rest.ts';
import { forWrappedMutate } from '../rest.ts';
import type { CrdConverter, CustomResourceVersion } from '../../apiextensions/schema-bridge.ts';
import { errors } from '../../machinery/errors.ts';
import { canonicalObject } from '../codec.ts';

const MAX_PENDING_EVENTS = 1000;

export class ConvertingRest implements RestStorage {
  private readonly views = new WeakMap<CachedObject, Promise<CachedObject>>();
  /** Stored objects already in the served version (no webhook): pruned and defaulted once per revision. */
  private readonly local = new WeakMap<CachedObject, CachedObject>();
  private readonly servedApi: string;
  private readonly storedApi: string;

  constructor(readonly def: ResourceDef, private readonly inner: RestStorage, private readonly converter: CrdConverter) {
    this.servedApi = `${def.group}/${def.version}`;
    this.storedApi = `${inner.def.group}/${inner.def.version}`;
  }

  /** The raw storage-version store (no conversion): the CRD finalizer deletes instances through it. */
  get unconverted(): RestStorage {
    return this.inner;
  }

  /**
   * A converted object as `custom`'s version serves it: pruned (metadata coerced), then defaulted, then in the
   * JSON shape of an unstructured object (keys sorted at every level), whatever order the webhook answered in.
   */
  private finish(o: KObject, defaults: boolean, custom = this.def.custom as CustomResourceVersion | undefined): KObject {
    const out = structuredClone(o) as KObject;
    if (custom) {
      custom.prune(out);
      if (defaults) custom.applyDefaults(out);
    }
    return canonicalObject(out, out.metadata?.resourceVersion);
  }

  private async toServed(o: KObject): Promise<KObject> {
    return this.finish(await this.converter.convert(o, this.servedApi), true);
  }

  private async toStored(o: KObject): Promise<KObject> {
    return this.finish(await this.converter.convert(o, this.storedApi), false, this.inner.def.custom as CustomResourceVersion | undefined);
  }

  private async manyToServed(objs: readonly KObject[]): Promise<KObject[]> {
    if (objs.length === 0) return [];
    return (await this.converter.convertMany(objs, this.servedApi)).map((o) => this.finish(o, true));
  }

  /** The served version's schema on a write: prune, default, validate (422 naming the served kind). */
  private prepareServed(ctx: OpContext, input: KObject, old: KObject | undefined): KObject {
    const custom = this.def.custom as CustomResourceVersion | undefined;
    if (!custom) return input;
    const obj = structuredClone(input) as KObject;
    custom.prune(obj);
    custom.applyDefaults(obj);
    const errs = ctx.subresource === 'status' && custom.validateStatus ? custom.validateStatus(obj, old) : custom.validate(obj, old);
    if (errs.length) throw errors.invalid({ kind: this.def.kind, group: this.def.group, name: obj.metadata?.name ?? '' }, errs);
    return obj;
  }

  /** Scale is a Scale: not converted. */
  private converts(ctx: OpContext): boolean {
    return ctx.subresource !== 'scale';
  }

  private localView(c: CachedObject): CachedObject {
    let v = this.local.get(c);
    if (!v) {
      v = { key: c.key, kv: c.kv, object: Object.freeze(this.finish(c.object, true)), attrs: c.attrs, encoded: new Map() };
      this.local.set(c, v);
    }
    return v;
  }

  private isServed(c: CachedObject): boolean {
    return c.object.apiVersion === this.servedApi;
  }

  private view(c: CachedObject): Promise<CachedObject> {
    if (this.isServed(c)) return Promise.resolve(this.localView(c));
    let v = this.views.get(c);
    if (!v) {
      v = this.toServed(c.object).then((object) => ({ key: c.key, kv: c.kv, object: Object.freeze(object), attrs: c.attrs, encoded: new Map() }));
      // A failed conversion is not cached: the next read asks the webhook again.
      v.catch(() => this.views.delete(c));
      this.views.set(c, v);
    }
    return v;
  }

  async get(ctx: OpContext, name: string, params: GetParams): Promise<CachedObject> {
    const c = await this.inner.get(ctx, name, params);
    if (!this.converts(ctx)) return c;
    if (this.isServed(c)) return this.localView(c);
    return { key: c.key, kv: c.kv, object: Object.freeze(await this.toServed(c.object)), attrs: c.attrs, encoded: new Map() };
  }

  async list(ctx: OpContext, params: ListParams): Promise<ListResult> {
    const res = await this.inner.list(ctx, params);
    // One review for the whole page (kube converts a list in one call), of the objects in another version.
    const converted = await this.manyToServed(res.items.filter((c) => !this.isServed(c)).map((c) => c.object));
    let k = 0;
    const items = res.items.map((c): CachedObject => (this.isServed(c)
      ? this.localView(c)
      : { key: c.key, kv: c.kv, object: Object.freeze(converted[k++]!), attrs: c.attrs, encoded: new Map() }));
    return { ...res, items };
  }

  async watch(ctx: OpContext, params: WatchParams, sink: ObjectWatchSink): Promise<ObjectWatch> {
    let chain: Promise<unknown> = Promise.resolve();
    let closed = false;
    let inner: ObjectWatch | undefined;
    const close = (err?: Error) => {
      if (closed) return;
      closed = true;
      sink.onClose(err);
      inner?.dispose();
    };
    // Events waiting for their conversion are bounded: a watcher that falls this far behind (a slow webhook)
    // is closed like a slow consumer, and its client watches again.
    let pending = 0;
    inner = await this.inner.watch(ctx, params, {
      onEvent: (ev: ObjectEvent) => {
        if (closed) return;
        if (++pending > MAX_PENDING_EVENTS) {
          close(new Error('too many watch events waiting for conversion'));
          return;
        }
        chain = chain.then(async () => {
          pending--;
          if (closed) return;
          const object = ev.object ? await this.view(ev.object) : undefined;
          if (!closed) sink.onEvent({ ...ev, ...(object ? { object } : {}), encoded: new Map() });
        }).catch((e: unknown) => close(e instanceof Error ? e : new Error(String(e))));
      },
      onClose: (err) => {
        chain = chain.then(() => close(err));
      },
    });
    return {
      dispose: () => {
        closed = true;
        inner?.dispose();
      },
    };
  }

  async create(ctx: OpContext, obj: KObject, params: WriteParams): Promise<KObject> {
    return this.toServed(await this.inner.create(ctx, await this.toStored(this.prepareServed(ctx, obj, undefined)), params));
  }

  async update(ctx: OpContext, name: string, obj: KObject, params: WriteParams): Promise<{ object: KObject; created: boolean }> {
    if (!this.converts(ctx)) return this.inner.update(ctx, name, obj, params);
    // PUT as a read-modify-write so the served version's rules see the old object (transition rules).
    const res = await this.inner.guaranteedUpdate(ctx, name, async (cur) => {
      const old = cur ? await this.toServed(cur) : undefined;
      if (old && obj.metadata?.resourceVersion && obj.metadata.resourceVersion !== old.metadata.resourceVersion) {
        throw errors.conflict({ kind: this.def.resource, group: this.def.group, name });
      }
      return this.toStored(this.prepareServed(ctx, obj, old));
    }, params);
    return { ...res, object: await this.toServed(res.object) };
  }

  async guaranteedUpdate(ctx: OpContext, name: string, mutate: UpdateFn, params: WriteParams & { allowCreate?: boolean }): Promise<{ object: KObject; created: boolean }> {
    if (!this.converts(ctx)) return this.inner.guaranteedUpdate(ctx, name, mutate, params);
    const res = await this.inner.guaranteedUpdate(ctx, name, async (cur) => {
      const served = cur ? await this.toServed(cur) : undefined;
      return this.toStored(this.prepareServed(ctx, await mutate(served), served));
    }, forWrappedMutate(params));
    return { ...res, object: await this.toServed(res.object) };
  }

  async delete(ctx: OpContext, name: string, params: DeleteParams): Promise<DeleteResult> {
    const res = await this.inner.delete(ctx, name, params);
    return { ...res, object: await this.toServed(res.object) };
  }

  async deleteCollection(ctx: OpContext, list: ListParams, params: DeleteParams): Promise<KObject[]> {
    const items = await this.inner.deleteCollection(ctx, list, params);
    return this.manyToServed(items);
  }
}
