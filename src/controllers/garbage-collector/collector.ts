/**
 * The garbage collector proper: keeps the dependency graph from informer events (kube's GraphBuilder) and runs
 * two keyed work queues over it — attemptToDelete (dependents whose owners may be gone, owners deleting in the
 * foreground) and attemptToOrphan (owners carrying the `orphan` finalizer).
 *
 * Ordering: nothing is queued until every monitor has listed once (`activate`), so that an owner's orphaning or
 * foreground wait never runs on a graph that does not know its dependents yet. Queues are keyed by uid, so a
 * node is queued at most once however many events name it (bounded by the number of objects).
 */
import type { KObject } from '../../machinery/objects.ts';
import type { ResourceDef } from '../../api/types.ts';
import { apiVersionOf } from '../../api/types.ts';
import { WorkQueue } from '../../client/work-queue.ts';
import type { Logger } from '../../registry/system-context.ts';
import { AbsentOwnerCache, absentKey } from './absent-owners.ts';
import { attemptToDeleteItem, describe, NamespacedOwnerOfClusterScopedObjectError, type OwnerCache } from './attempt-to-delete.ts';
import { DependencyGraph, FINALIZER_FOREGROUND, FINALIZER_ORPHAN, type GcNode, type Identity, referenceMatches } from './graph.ts';
import type { GcOperations } from './operations.ts';
import type { ResourceResolver } from './resources.ts';

export interface CollectorOptions {
  ops: GcOperations;
  resolver: ResourceResolver;
  /** Local copy of an owner, when the informers hold one (saves a registry read for live owners). */
  cached?: OwnerCache;
  /**
   * Resolves when every informer has listed; awaited before each run, so that a resource added later (a CRD)
   * is fully known before an owner's dependents are judged complete.
   */
  synced?: () => Promise<void>;
  log?: Logger;
  /** Workers per queue (kube runs 20 delete workers). */
  concurrency?: number;
  /** Retry backoff bounds for failed items. */
  baseDelayMs?: number;
  maxDelayMs?: number;
}

export class GarbageCollector {
  readonly graph = new DependencyGraph();
  readonly absent = new AbsentOwnerCache();
  readonly deleteQueue: WorkQueue;
  readonly orphanQueue: WorkQueue;
  private active = false;
  /** Work named before activation, queued on `activate`. */
  private readonly pendingDelete = new Set<string>();
  private readonly pendingOrphan = new Set<string>();

  constructor(private readonly opts: CollectorOptions) {
    const q = (name: string, process: (key: string) => Promise<void>) => new WorkQueue({
      name,
      process,
      concurrency: opts.concurrency ?? 8,
      baseDelayMs: opts.baseDelayMs ?? 5,
      maxDelayMs: opts.maxDelayMs ?? 60_000,
      ...(opts.log ? { log: opts.log } : {}),
    });
    this.deleteQueue = q('garbagecollector attemptToDelete', (uid) => this.processDelete(uid));
    this.orphanQueue = q('garbagecollector attemptToOrphan', (uid) => this.processOrphan(uid));
  }

  /** Starts the workers on everything queued so far. */
  activate(): void {
    this.active = true;
    for (const uid of this.pendingDelete) this.deleteQueue.add(uid);
    for (const uid of this.pendingOrphan) this.orphanQueue.add(uid);
    this.pendingDelete.clear();
    this.pendingOrphan.clear();
  }

  async stop(): Promise<void> {
    this.active = false;
    await Promise.all([this.deleteQueue.stop(), this.orphanQueue.stop()]);
  }

  enqueueDelete(node: GcNode): void {
    if (this.active) this.deleteQueue.add(node.uid);
    else this.pendingDelete.add(node.uid);
  }

  private enqueueOrphan(node: GcNode): void {
    if (this.active) this.orphanQueue.add(node.uid);
    else this.pendingOrphan.add(node.uid);
  }

  // ---- graph changes (informer handlers: synchronous, never throw) ----

  /** An object of `def` was added or changed. */
  onUpsert(def: ResourceDef, obj: KObject): void {
    const uid = obj.metadata.uid;
    if (!uid) return;
    const finalizers = obj.metadata.finalizers ?? [];
    const beingDeleted = !!obj.metadata.deletionTimestamp;
    // An object nothing links to and that is not being deleted needs no node (see graph.ts).
    if (!this.graph.get(uid) && (obj.metadata.ownerReferences ?? []).length === 0 && !beingDeleted) return;
    const identity: Identity = { apiVersion: apiVersionOf(def), kind: def.kind, name: obj.metadata.name ?? '', namespace: obj.metadata.namespace ?? '', uid };
    const { node, wasVirtual } = this.graph.observe(identity);
    // Dependents that named this owner before it was seen, at other coordinates (another namespace, kind or name),
    // do not belong to it: they need their own check.
    if (wasVirtual) for (const dep of node.dependents) this.checkReference(node, dep);

    const diff = this.graph.setOwners(node, obj.metadata.ownerReferences ?? []);
    // A new reference to an owner not seen (yet): this dependent verifies it with a live read. Queue the
    // dependent itself, not the virtual owner: work on the owner may already have run for earlier dependents.
    for (const owner of diff.added) {
      if (owner.observed) this.checkReference(owner, node);
      else this.enqueueDelete(node);
    }
    for (const owner of diff.released) if (owner.deletingDependents) this.enqueueDelete(owner);

    const deletingDependents = beingDeleted && finalizers.includes(FINALIZER_FOREGROUND);
    node.beingDeleted = beingDeleted;
    if (beingDeleted && finalizers.includes(FINALIZER_ORPHAN)) this.enqueueOrphan(node);
    if (deletingDependents && !node.deletingDependents) {
      node.deletingDependents = true;
      for (const dep of node.dependents) this.enqueueDelete(dep);
      this.enqueueDelete(node);
    }
    node.deletingDependents = deletingDependents;
    this.graph.dropIfIdle(node);
  }

  /** An object is gone: its dependents may be garbage now, and owners waiting on it may finish. */
  onDelete(obj: KObject): void {
    const uid = obj.metadata.uid;
    const node = uid ? this.graph.get(uid) : undefined;
    if (!node) return;
    // The node may be virtual (an owner we kept no node for, as nothing linked to it when it was last seen):
    // its dependents still need to hear that it is gone.
    const owners = this.graph.remove(node);
    if (node.dependents.size > 0) {
      this.absent.add(absentKey({ apiVersion: obj.apiVersion ?? node.identity.apiVersion, kind: obj.kind ?? node.identity.kind, name: obj.metadata.name ?? '', uid: node.uid }, obj.metadata.namespace ?? ''));
      for (const dep of node.dependents) this.enqueueDelete(dep);
    }
    for (const owner of owners) if (owner.deletingDependents) this.enqueueDelete(owner);
  }

  private checkReference(owner: GcNode, dep: GcNode): void {
    const ref = dep.owners.find((o) => o.uid === owner.uid);
    if (ref && !referenceMatches(owner.identity, ref, dep.identity.namespace)) this.enqueueDelete(dep);
  }

  // ---- workers ----

  private async processDelete(uid: string): Promise<void> {
    await this.opts.synced?.();
    const node = this.graph.get(uid);
    if (!node) return;
    const { ops, resolver, cached, log } = this.opts;
    try {
      await attemptToDeleteItem({ ops, resolver, absent: this.absent, enqueueDelete: (n) => this.enqueueDelete(n), ...(cached ? { cached } : {}), ...(log ? { log } : {}) }, node);
    } catch (err) {
      // Invalid for good: retrying cannot help (kube forgets the item too).
      if (err instanceof NamespacedOwnerOfClusterScopedObjectError) {
        this.opts.log?.(`garbage collector: ${err.message}`);
        return;
      }
      throw err;
    }
    // A virtual node whose dependents all went away leaves the graph.
    this.graph.dropIfIdle(node);
  }

  /** Strip the owner's reference from every dependent, then drop the `orphan` finalizer (kube's attemptToOrphan). */
  private async processOrphan(uid: string): Promise<void> {
    await this.opts.synced?.();
    const owner = this.graph.get(uid);
    if (!owner || !owner.observed) return;
    const failures: string[] = [];
    await Promise.all([...owner.dependents].map(async (dep) => {
      if (!dep.observed) return;
      try {
        await this.opts.ops.removeOwnerReferences(dep.identity, [owner.uid]);
      } catch (err) {
        failures.push(`${describe(dep)}: ${(err as Error)?.message ?? String(err)}`);
      }
    }));
    if (failures.length > 0) throw new Error(`failed to orphan dependents of ${describe(owner)}: ${failures.join('; ')}`);
    await this.opts.ops.removeFinalizer(owner.identity, FINALIZER_ORPHAN);
  }
}
