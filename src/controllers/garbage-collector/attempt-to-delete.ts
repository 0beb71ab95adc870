/**
 * kube's attemptToDeleteItem: decide, from live reads, whether a dependent is garbage.
 *
 * Per reference of the live object, the owner is
 * - dangling: absent (404, or an object with another uid at those coordinates; remembered in the absent cache),
 * - waiting: being deleted in the foreground (deletionTimestamp + `foregroundDeletion`),
 * - solid: anything else.
 * Then: any solid owner → keep the object, but drop its dangling and waiting references (else the waiting owners
 * would never finish); no solid owner, some waiting and the object has dependents itself → delete it in the
 * foreground too (first unblocking its references when a dependent also deletes in the foreground, against
 * cycles); otherwise delete it, honouring an `orphan`/`foregroundDeletion` finalizer it already carries.
 *
 * An owner in the foreground (`deletingDependents`) instead waits for its blocking dependents, then loses its
 * `foregroundDeletion` finalizer.
 */
import type { KObject, OwnerReference } from '../../machinery/objects.ts';
import { type AbsentOwnerCache, absentKey } from './absent-owners.ts';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN, type GcNode } from './graph.ts';
import type { GcOperations, Policy } from './operations.ts';
import type { ResourceResolver } from './resources.ts';

/** Reads an owner from the informers' local copies (undefined when they do not hold it). */
export type OwnerCache = (ref: OwnerReference, namespace: string) => KObject | undefined;

export interface AttemptDeps {
  readonly ops: GcOperations;
  readonly cached?: OwnerCache;
  readonly resolver: ResourceResolver;
  readonly absent: AbsentOwnerCache;
  /** Queue a node for attemptToDelete. */
  enqueueDelete(node: GcNode): void;
  log?(msg: string): void;
}

/** A cluster-scoped object names a namespaced owner: invalid, and retrying will not fix it. */
export class NamespacedOwnerOfClusterScopedObjectError extends Error {
  constructor(item: GcNode, ref: OwnerReference) {
    super(`cluster-scoped ${item.identity.kind} ${JSON.stringify(item.identity.name)} refers to namespaced owner ${ref.kind} ${JSON.stringify(ref.name)}`);
  }
}

type Owner = { dangling: true } | { dangling: false; owner: KObject };

async function isDangling(deps: AttemptDeps, ref: OwnerReference, item: GcNode): Promise<Owner> {
  const ns = item.identity.namespace;
  if (deps.absent.has(absentKey(ref, '')) || deps.absent.has(absentKey(ref, ns))) return { dangling: true };
  const { def } = deps.resolver.resolve(ref.apiVersion ?? '', ref.kind ?? '');
  if (def.namespaced && ns === '') throw new NamespacedOwnerOfClusterScopedObjectError(item, ref);
  const ownerNs = def.namespaced ? ns : '';
  // A live owner in the informers' copy needs no read; absence is only believed from the registry itself.
  const local = deps.cached?.(ref, ownerNs);
  if (local && local.metadata.uid === ref.uid) return { dangling: false, owner: local };
  const owner = await deps.ops.get({ apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, namespace: ownerNs });
  if (!owner || owner.metadata.uid !== ref.uid) {
    deps.absent.add(absentKey(ref, ownerNs));
    return { dangling: true };
  }
  return { dangling: false, owner };
}

function hasFinalizer(obj: KObject, f: string): boolean {
  return (obj.metadata.finalizers ?? []).includes(f);
}

async function classify(deps: AttemptDeps, item: GcNode, refs: readonly OwnerReference[]) {
  const solid: OwnerReference[] = [];
  const dangling: OwnerReference[] = [];
  const waiting: OwnerReference[] = [];
  for (const ref of refs) {
    const r = await isDangling(deps, ref, item);
    if (r.dangling) dangling.push(ref);
    else if (r.owner.metadata.deletionTimestamp && hasFinalizer(r.owner, FINALIZER_FOREGROUND)) waiting.push(ref);
    else solid.push(ref);
  }
  return { solid, dangling, waiting };
}

/** Processes one node of the attemptToDelete queue. */
export async function attemptToDeleteItem(deps: AttemptDeps, item: GcNode): Promise<void> {
  // A virtual owner: each dependent checks its own reference to it (coordinates may differ between them).
  if (!item.observed) {
    for (const dep of item.dependents) deps.enqueueDelete(dep);
    return;
  }
  // Being deleted is a one-way trip: its dependents are handled once it is gone.
  if (item.beingDeleted && !item.deletingDependents) return;
  const latest = await deps.ops.get(item.identity);
  // Gone or replaced: the informer reports the delete, which queues the dependents.
  if (!latest || latest.metadata.uid !== item.uid) return;
  if (item.deletingDependents) {
    await processDeletingDependents(deps, item);
    return;
  }
  const refs = latest.metadata.ownerReferences ?? [];
  if (refs.length === 0) return;
  const { solid, dangling, waiting } = await classify(deps, item, refs);
  const rv = latest.metadata.resourceVersion ?? '';
  if (solid.length > 0) {
    if (dangling.length === 0 && waiting.length === 0) return;
    deps.log?.(`garbage collector: removing dangling/waiting owner references from ${describe(item)}`);
    await deps.ops.removeOwnerReferences(item.identity, [...dangling, ...waiting].map((r) => r.uid));
    return;
  }
  let policy: Policy;
  if (waiting.length > 0 && item.dependents.size > 0) {
    if ([...item.dependents].some((d) => d.deletingDependents)) await deps.ops.unblockOwnerReferences(item.identity);
    policy = 'Foreground';
  } else if (hasFinalizer(latest, FINALIZER_ORPHAN)) {
    policy = 'Orphan';
  } else if (hasFinalizer(latest, FINALIZER_FOREGROUND)) {
    policy = 'Foreground';
  } else {
    policy = 'Background';
  }
  deps.log?.(`garbage collector: deleting ${describe(item)} (propagationPolicy=${policy})`);
  await deps.ops.delete(item.identity, rv, refs, policy);
}

/** An owner deleting in the foreground: done when no blocking dependent remains, else push those along. */
async function processDeletingDependents(deps: AttemptDeps, item: GcNode): Promise<void> {
  const blocking = item.blockingDependents();
  if (blocking.length === 0) {
    await deps.ops.removeFinalizer(item.identity, FINALIZER_FOREGROUND);
    return;
  }
  for (const dep of blocking) if (!dep.deletingDependents) deps.enqueueDelete(dep);
}

export function describe(node: GcNode): string {
  const id = node.identity;
  return `${id.kind} ${id.namespace ? `${id.namespace}/` : ''}${id.name} (${id.uid})`;
}
