/**
 * CustomResourceDefinition storage (kube's customresourcedefinition/etcd.go): the generic store, except that
 * the first DELETE adds the `customresourcecleanup.apiextensions.k8s.io` finalizer and the Terminating
 * condition (`InstanceDeletionPending`) before deleting, so the CRD stays until the controller has removed
 * every instance. A UID precondition mismatch is a Conflict worded as kube's.
 */
import type { KObject } from '../../machinery/objects.ts';
import type { CachedObject, ObjectWatch, ObjectWatchSink } from '../../storage/cacher/types.ts';
import type {
  DeleteParams, DeleteResult, GetParams, ListParams, ListResult, OpContext, RestStorage, UpdateFn, WatchParams, WriteParams,
} from '../rest.ts';
import { StatusError } from '../../machinery/errors.ts';
import { CLEANUP_FINALIZER, CRD_GROUP, CRD_RESOURCE, rfc3339, setCondition } from '../../apiextensions/crd.ts';

function preconditionConflict(name: string, detail: string): StatusError {
  return new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${CRD_RESOURCE}.${CRD_GROUP} ${JSON.stringify(name)}: ${detail}`,
    { name, group: CRD_GROUP, kind: CRD_RESOURCE });
}

/** An internal write of the delete path: no managedFields entry of its own (kube writes storage directly). */
function internal(ctx: OpContext, subresource: string): OpContext {
  return { namespace: ctx.namespace, user: ctx.user, dryRun: false, subresource, warnings: [], ...(ctx.signal ? { signal: ctx.signal } : {}) };
}

const PENDING = {
  type: 'Terminating', status: 'True' as const, reason: 'InstanceDeletionPending',
  message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
};

export class CrdRest implements RestStorage {
  constructor(private readonly inner: RestStorage, private readonly now: () => Date = () => new Date()) {}

  get def() {
    return this.inner.def;
  }

  get(ctx: OpContext, name: string, params: GetParams): Promise<CachedObject> {
    return this.inner.get(ctx, name, params);
  }

  list(ctx: OpContext, params: ListParams): Promise<ListResult> {
    return this.inner.list(ctx, params);
  }

  watch(ctx: OpContext, params: WatchParams, sink: ObjectWatchSink): Promise<ObjectWatch> {
    return this.inner.watch(ctx, params, sink);
  }

  create(ctx: OpContext, obj: KObject, params: WriteParams): Promise<KObject> {
    return this.inner.create(ctx, obj, params);
  }

  update(ctx: OpContext, name: string, obj: KObject, params: WriteParams): Promise<{ object: KObject; created: boolean }> {
    return this.inner.update(ctx, name, obj, params);
  }

  guaranteedUpdate(ctx: OpContext, name: string, mutate: UpdateFn, params: WriteParams & { allowCreate?: boolean }): Promise<{ object: KObject; created: boolean }> {
    return this.inner.guaranteedUpdate(ctx, name, mutate, params);
  }

  /** Each CRD goes through `delete` (so through the cleanup finalizer), as kube's per-item DeleteCollection does. */
  async deleteCollection(ctx: OpContext, list: ListParams, params: DeleteParams): Promise<KObject[]> {
    if (ctx.subresource) return this.inner.deleteCollection(ctx, list, params);
    const res = await this.inner.list(ctx, list);
    const items = res.items.map((c) => c.object);
    for (const item of items) {
      try {
        await this.delete(ctx, item.metadata.name ?? '', params);
      } catch (e) {
        if ((e as { code?: number }).code !== 404) throw e;
      }
    }
    return items;
  }

  async delete(ctx: OpContext, name: string, params: DeleteParams): Promise<DeleteResult> {
    if (ctx.subresource) return this.inner.delete(ctx, name, params);
    const current = (await this.inner.get(ctx, name, {})).object;
    const uid = params.preconditions?.uid;
    if (uid !== undefined && uid !== current.metadata.uid) {
      throw preconditionConflict(name, `precondition failed: UID in precondition: ${uid}, UID in object meta: ${current.metadata.uid ?? ''}`);
    }
    const rv = params.preconditions?.resourceVersion;
    if (rv !== undefined && rv !== current.metadata.resourceVersion) {
      throw preconditionConflict(name, `precondition failed: ResourceVersion in precondition: ${rv}, ResourceVersion in object meta: ${current.metadata.resourceVersion ?? ''}`);
    }
    if (current.metadata.deletionTimestamp) return this.inner.delete(ctx, name, params);
    const now = rfc3339(this.now());
    if (ctx.dryRun) {
      const obj = structuredClone(current) as KObject;
      obj.metadata.deletionTimestamp = now;
      obj.metadata.finalizers = [...new Set([...(obj.metadata.finalizers ?? []), CLEANUP_FINALIZER])];
      setCondition(obj, PENDING, now);
      return { object: obj, deleted: false };
    }
    const guard = (cur: KObject | undefined): KObject => {
      if (!cur) throw new StatusError(404, 'NotFound', `${CRD_RESOURCE}.${CRD_GROUP} ${JSON.stringify(name)} not found`, { name, group: CRD_GROUP, kind: CRD_RESOURCE });
      if (cur.metadata.uid !== current.metadata.uid) throw preconditionConflict(name, `precondition failed: UID in precondition: ${current.metadata.uid ?? ''}, UID in object meta: ${cur.metadata.uid ?? ''}`);
      return cur;
    };
    await this.inner.guaranteedUpdate(internal(ctx, ''), name, (cur) => {
      const c = guard(cur);
      if (!(c.metadata.finalizers ?? []).includes(CLEANUP_FINALIZER)) c.metadata.finalizers = [...(c.metadata.finalizers ?? []), CLEANUP_FINALIZER];
      return c;
    }, {});
    await this.inner.guaranteedUpdate(internal(ctx, 'status'), name, (cur) => {
      const c = guard(cur);
      setCondition(c, PENDING, now);
      return c;
    }, {});
    return this.inner.delete(ctx, name, { ...params, preconditions: { uid: current.metadata.uid ?? '' } });
  }
}
