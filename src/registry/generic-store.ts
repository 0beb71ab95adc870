/**
 * One `RestStorage` per served resource: every verb with kube-apiserver's API-machinery rules. The verbs live
 * in their own files (create.ts, update.ts, get-list.ts, watch.ts, delete.ts); sub-resources are addressed by
 * `ctx.subresource` on the same storage: `status` (same object, status-only writes), `scale` (autoscaling/v1
 * Scale over spec.replicas, src/registry/special/scale.ts). Special REST (namespaces) subclasses this.
 */
import type { KObject } from '../machinery/objects.ts';
import type { ResourceDef } from '../api/types.ts';
import { errors } from '../machinery/errors.ts';
import type { CachedObject, ObjectWatch, ObjectWatchSink } from '../storage/cacher/types.ts';
import type {
  DeleteParams, DeleteResult, GetParams, GuaranteedUpdateParams, ListParams, ListResult, OpContext, RestStorage, UpdateFn, WatchParams,
  WriteParams,
} from './rest.ts';
import { createObject } from './create.ts';
import { deleteObject } from './delete.ts';
import { getObject, listObjects } from './get-list.ts';
import { scaleGet, scaleUpdate } from './special/scale.ts';
import { StoreCore, type StoreCoreOptions } from './store-core.ts';
import { updateLoop, type UpdateLoopOptions, type UpdateResult } from './update.ts';
import { validateDeleteParams, validateListParams } from './options.ts';
import { watchObjects } from './watch.ts';

export type GenericStoreOptions = StoreCoreOptions;

const DELETE_COLLECTION_PAGE = 10_000;
const DELETE_COLLECTION_WORKERS = 16;

/** Pod sub-resources served as views of the pod itself (get/update/patch), with their own update rules. */
const POD_SPEC_SUBRESOURCES = ['ephemeralcontainers', 'resize'];
/** Sub-resources served by the store with their own strategy rules (certificatesigningrequests/approval). */
const STRATEGY_SUBRESOURCES = ['approval'];

export class GenericStore implements RestStorage {
  protected readonly core: StoreCore;

  constructor(opts: GenericStoreOptions) {
    this.core = new StoreCore(opts);
  }

  get def(): ResourceDef {
    return this.core.def;
  }

  /** Rejects sub-resources this resource does not declare (the HTTP layer normally filters them first). */
  protected checkSubresource(ctx: OpContext, allowed: readonly string[]): void {
    if (ctx.subresource === '') return;
    const declared = (this.def.subresources ?? []).some((s) => s.name === ctx.subresource);
    if (!declared || !allowed.includes(ctx.subresource)) {
      throw errors.notFound({ kind: `${this.def.resource}/${ctx.subresource}`, ...(this.def.group ? { group: this.def.group } : {}) });
    }
  }

  /** Extra update rules special REST adds per sub-resource. */
  protected updateHooks(_ctx: OpContext): Pick<UpdateLoopOptions, 'afterPrepare' | 'shouldDelete'> {
    return {};
  }

  async get(ctx: OpContext, name: string, params: GetParams): Promise<CachedObject> {
    this.checkSubresource(ctx, ['status', 'scale', ...POD_SPEC_SUBRESOURCES, ...STRATEGY_SUBRESOURCES]);
    if (ctx.subresource === 'scale') return scaleGet(this.core, ctx, name, params);
    return getObject(this.core, ctx, name, params);
  }

  list(ctx: OpContext, params: ListParams): Promise<ListResult> {
    this.checkSubresource(ctx, []);
    return listObjects(this.core, ctx, params);
  }

  watch(ctx: OpContext, params: WatchParams, sink: ObjectWatchSink): Promise<ObjectWatch> {
    this.checkSubresource(ctx, []);
    return watchObjects(this.core, ctx, params, sink);
  }

  create(ctx: OpContext, obj: KObject, params: WriteParams): Promise<KObject> {
    this.checkSubresource(ctx, []);
    return createObject(this.core, ctx, obj, { keepManagedFields: params.keepManagedFields === true });
  }

  async update(ctx: OpContext, name: string, obj: KObject, params: WriteParams): Promise<{ object: KObject; created: boolean }> {
    this.checkSubresource(ctx, ['status', 'scale', ...POD_SPEC_SUBRESOURCES, ...STRATEGY_SUBRESOURCES]);
    const keepManagedFields = params.keepManagedFields === true;
    if (ctx.subresource === 'scale') return scaleUpdate(this.core, ctx, name, () => obj, { requireResourceVersion: false, keepManagedFields });
    return updateLoop(this.core, ctx, name, () => obj, {
      requireResourceVersion: true,
      keepManagedFields,
      allowCreate: false,
      ...(ctx.subresource !== '' ? { neverCreate: true } : {}),
      ...this.updateHooks(ctx),
    });
  }

  async guaranteedUpdate(ctx: OpContext, name: string, mutate: UpdateFn, params: GuaranteedUpdateParams): Promise<UpdateResult> {
    // `binding`: the pods/binding REST's own write (spec.nodeName + PodScheduled), past the spec rules.
    this.checkSubresource(ctx, ['status', 'scale', 'binding', ...POD_SPEC_SUBRESOURCES, ...STRATEGY_SUBRESOURCES]);
    const keepManagedFields = params.keepManagedFields === true;
    if (ctx.subresource === 'scale') return scaleUpdate(this.core, ctx, name, mutate, { requireResourceVersion: false, keepManagedFields });
    return updateLoop(this.core, ctx, name, mutate, {
      requireResourceVersion: false,
      keepManagedFields,
      allowCreate: ctx.subresource === '' && params.allowCreate === true,
      fromCache: params.fromCache === true,
      ...(params.unchanged ? { unchanged: params.unchanged } : {}),
      ...(ctx.subresource !== '' ? { neverCreate: true } : {}),
      ...this.updateHooks(ctx),
    });
  }

  delete(ctx: OpContext, name: string, params: DeleteParams): Promise<DeleteResult> {
    this.checkSubresource(ctx, []);
    return deleteObject(this.core, ctx, name, params);
  }

  /**
   * Lists (with the given selectors, all pages of 10,000) and deletes each item with the same options, a few
   * at a time (kube's DeleteCollectionWorkers). Items deleted by someone else meanwhile are skipped; the first
   * other error stops the work. Returns the items as listed (kube answers with that list). Not atomic.
   */
  async deleteCollection(ctx: OpContext, list: ListParams, params: DeleteParams): Promise<KObject[]> {
    this.checkSubresource(ctx, []);
    validateListParams(list);
    validateDeleteParams(params);
    const items: KObject[] = [];
    let page: ListParams = { ...list, limit: list.limit || DELETE_COLLECTION_PAGE };
    for (;;) {
      const res = await this.list(ctx, page);
      const objects = res.items.map((i) => i.object);
      let next = 0;
      const worker = async () => {
        while (next < objects.length) {
          const obj = objects[next++]!;
          const itemCtx: OpContext = { ...ctx, namespace: obj.metadata.namespace ?? ctx.namespace };
          try {
            await this.delete(itemCtx, obj.metadata.name ?? '', params);
          } catch (e) {
            if ((e as { code?: number }).code !== 404) throw e;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(DELETE_COLLECTION_WORKERS, objects.length) }, worker));
      items.push(...objects);
      // A request with its own limit gets one page, as in kube.
      if (list.limit || !res.continue) break;
      page = { ...list, limit: DELETE_COLLECTION_PAGE, continue: res.continue, resourceVersion: '', resourceVersionMatch: '' };
    }
    return items;
  }
}
