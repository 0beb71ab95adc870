/**
 * The Service REST wrapper: the generic store does the object lifecycle; this adds what kube's service
 * storage (pkg/registry/core/service/storage) adds — cluster IP and node port allocation around every write,
 * rollback when the write fails, release after a delete, and a startup repair pass.
 *
 * Invariant: an allocation is made (a guarded storage write) before the Service is written and undone if the
 * write fails, so a stored Service's IPs/ports are always marked used; at worst a crash leaks an allocation,
 * which the repair pass at the next start frees.
 */
import type { KObject } from '../../machinery/objects.ts';
import type { ObjectWatch, ObjectWatchSink, CachedObject } from '../../storage/cacher/types.ts';
import { StatusError } from '../../machinery/errors.ts';
import type {
  DeleteParams, DeleteResult, GetParams, ListParams, ListResult, OpContext, RestStorage, UpdateFn, WatchParams, WriteParams,
} from '../rest.ts';
import { forWrappedMutate } from '../rest.ts';
import { allocate, heldBy, Txn, type Allocators } from './allocation.ts';
import { SYSTEM_CTX } from './ip-allocator.ts';
import { withPendingAllocation, type PendingAllocation } from './pending.ts';

/**
 * IPAddresses without a Service holding them are freed by repair only when older than this: a younger one may
 * be an allocation another API server is about to write its Service for.
 */
const ORPHAN_GRACE_MS = 60_000;

export class ServiceRest implements RestStorage {
  constructor(private readonly inner: RestStorage, private readonly alloc: Allocators, private readonly serviceCidrs?: () => RestStorage | undefined) {}

  get def() { return this.inner.def; }

  get(ctx: OpContext, name: string, params: GetParams): Promise<CachedObject> { return this.inner.get(ctx, name, params); }
  list(ctx: OpContext, params: ListParams): Promise<ListResult> { return this.inner.list(ctx, params); }
  watch(ctx: OpContext, params: WatchParams, sink: ObjectWatchSink): Promise<ObjectWatch> { return this.inner.watch(ctx, params, sink); }

  async create(ctx: OpContext, obj: KObject, params: WriteParams): Promise<KObject> {
    const txn = new Txn(this.alloc);
    try {
      const work = structuredClone(obj);
      work.metadata = { ...work.metadata, namespace: work.metadata?.namespace ?? ctx.namespace };
      await allocate(this.alloc, txn, work, undefined, ctx.dryRun);
      const created = await this.inner.create(withPendingAllocation(ctx, { spec: work['spec'] }), obj, params);
      if (!obj.metadata?.name && created.metadata.name) {
        const owner = { namespace: created.metadata.namespace ?? '', name: created.metadata.name };
        await Promise.allSettled(txn.ips.map((ip) => this.alloc.ips.reparent(ip, owner)));
      }
      return created;
    } catch (e) {
      await txn.rollback();
      throw e;
    }
  }

  async update(ctx: OpContext, name: string, obj: KObject, params: WriteParams): Promise<{ object: KObject; created: boolean }> {
    if (ctx.subresource !== '') return this.inner.update(ctx, name, obj, params);
    const txn = new Txn(this.alloc);
    try {
      const old = await this.current(ctx, name);
      const work = structuredClone(obj);
      work.metadata = { ...work.metadata, name, namespace: ctx.namespace };
      await allocate(this.alloc, txn, work, old, ctx.dryRun);
      const r = await this.inner.update(withPendingAllocation(ctx, { spec: work['spec'] }), name, obj, params);
      if (!ctx.dryRun) await this.afterUpdate(txn, r.object);
      return r;
    } catch (e) {
      await txn.rollback();
      throw e;
    }
  }

  async guaranteedUpdate(ctx: OpContext, name: string, mutate: UpdateFn, params: WriteParams & { allowCreate?: boolean }): Promise<{ object: KObject; created: boolean }> {
    if (ctx.subresource !== '') return this.inner.guaranteedUpdate(ctx, name, mutate, params);
    let txn = new Txn(this.alloc);
    const pending: PendingAllocation = {};
    try {
      const r = await this.inner.guaranteedUpdate(withPendingAllocation(ctx, pending), name, async (cur) => {
        // A retried attempt (conflict) gives back what the previous attempt took.
        await txn.rollback();
        txn = new Txn(this.alloc);
        const next = await mutate(cur === undefined ? undefined : structuredClone(cur));
        const work = structuredClone(next);
        work.metadata = { ...work.metadata, name, namespace: ctx.namespace };
        await allocate(this.alloc, txn, work, cur, ctx.dryRun);
        pending.spec = work['spec'];
        // The allocation above runs on every attempt, also when the caller's own mutate would change nothing.
        return next;
      }, forWrappedMutate(params));
      if (!ctx.dryRun) await this.afterUpdate(txn, r.object);
      return r;
    } catch (e) {
      await txn.rollback();
      throw e;
    }
  }

  async delete(ctx: OpContext, name: string, params: DeleteParams): Promise<DeleteResult> {
    const r = await this.inner.delete(ctx, name, params);
    if (r.deleted && !ctx.dryRun) await this.release(r.object);
    return r;
  }

  async deleteCollection(ctx: OpContext, list: ListParams, params: DeleteParams): Promise<KObject[]> {
    const gone = await this.inner.deleteCollection(ctx, list, params);
    if (!ctx.dryRun) {
      for (const o of gone) if (!o.metadata.deletionTimestamp || !(o.metadata.finalizers ?? []).length) await this.release(o);
    }
    return gone;
  }

  /**
   * Repair (kube's repair controllers, run once at startup): every stored Service's IPs get their IPAddress
   * and the node port bitmap becomes exactly the ports stored Services hold.
   */
  async repair(): Promise<void> {
    await this.alloc.ips.ensureDefaultServiceCidr(this.serviceCidrs?.());
    const { items } = await this.inner.list({ ...SYSTEM_CTX }, {});
    const ports: number[] = [];
    for (const item of items) {
      const svc = item.object as KObject;
      const held = heldBy(svc);
      ports.push(...held.ports);
      for (const ip of held.ips) {
        try {
          await this.alloc.ips.ensure(ip, { namespace: svc.metadata.namespace ?? '', name: svc.metadata.name ?? '' });
        } catch { /* an address outside today's range stays with its Service; nothing to mark */ }
      }
    }
    await this.alloc.ports.reset(ports);
    await this.alloc.ips.dropOrphans(items.map((i) => i.object as KObject), Date.now() - ORPHAN_GRACE_MS);
  }

  /** Frees what the update gave up; an update that removed the last finalizer of a deleting Service deleted it. */
  private async afterUpdate(txn: Txn, result: KObject): Promise<void> {
    await txn.commit();
    const m = result.metadata;
    if (m.deletionTimestamp && !(m.finalizers ?? []).length && !m.deletionGracePeriodSeconds) await this.release(result);
  }

  private async release(svc: KObject): Promise<void> {
    const held = heldBy(svc);
    await Promise.allSettled([...held.ips.map((ip) => this.alloc.ips.release(ip)), ...held.ports.map((p) => this.alloc.ports.release(p))]);
  }

  private async current(ctx: OpContext, name: string): Promise<KObject | undefined> {
    try {
      return structuredClone((await this.inner.get(ctx, name, {})).object as KObject);
    } catch (e) {
      if (e instanceof StatusError && e.code === 404) return undefined;
      throw e;
    }
  }
}

