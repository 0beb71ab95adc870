/**
 * The garbage collector's dependency graph (kube's GraphBuilder.uidToNode): one node per uid, linking each
 * object to the owners its `metadata.ownerReferences` name and back to its dependents.
 *
 * Invariants:
 * - `dependents` of a node are exactly the nodes whose `owners` name its uid (kept by `setOwners`/`remove`);
 * - an observed node mirrors an object an informer reported; a virtual node stands for an owner only known
 *   from references (never seen, or already deleted) and lives only while it has dependents;
 * - only objects that matter are kept (kube keeps every object; we keep memory flat for large clusters): an
 *   object with no owners, no dependents and no deletionTimestamp has no node. A dependent naming such an object
 *   creates a virtual node, verified with a live read, which the owner's next event turns into an observed one;
 * - the graph is touched synchronously from informer handlers and workers (one event loop: no locks).
 */
import type { OwnerReference } from '../../machinery/objects.ts';

export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';

/** Coordinates of an object: enough to GET or DELETE it (namespace '' for cluster-scoped). */
export interface Identity {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
}

export class GcNode {
  readonly dependents = new Set<GcNode>();
  owners: readonly OwnerReference[] = [];
  /** Seen by an informer (false: virtual). */
  observed = false;
  /** deletionTimestamp is set. */
  beingDeleted = false;
  /** deletionTimestamp is set and the `foregroundDeletion` finalizer is present. */
  deletingDependents = false;

  constructor(public identity: Identity) {}

  get uid(): string {
    return this.identity.uid;
  }

  /** Dependents whose reference to this node has `blockOwnerDeletion: true` (they hold a foreground delete). */
  blockingDependents(): GcNode[] {
    return [...this.dependents].filter((d) => d.owners.some((o) => o.uid === this.uid && o.blockOwnerDeletion === true));
  }
}

export function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/** What `setOwners` changed, so the caller can queue work (kube's referencesDiffs). */
export interface OwnerDiff {
  /** Owner nodes created as virtual nodes by this change (they need verifying). */
  readonly newVirtual: GcNode[];
  /** Owner nodes that gained this dependent. */
  readonly added: GcNode[];
  /** Owner nodes that lost this dependent, or whose reference stopped blocking. */
  readonly released: GcNode[];
}

export class DependencyGraph {
  private readonly nodes = new Map<string, GcNode>();

  get size(): number {
    return this.nodes.size;
  }

  get(uid: string): GcNode | undefined {
    return this.nodes.get(uid);
  }

  /** The node of an observed object, created (or promoted from virtual) as needed. */
  observe(identity: Identity): { node: GcNode; wasVirtual: boolean; created: boolean } {
    let node = this.nodes.get(identity.uid);
    const created = !node;
    const wasVirtual = !!node && !node.observed;
    if (!node) {
      node = new GcNode(identity);
      this.nodes.set(identity.uid, node);
    }
    node.identity = identity;
    node.observed = true;
    return { node, wasVirtual, created };
  }

  /**
   * Replaces a node's owner references and relinks dependents. A virtual owner node takes its coordinates from
   * the first reference that names it (namespace: the dependent's; the caller resolves scope when it matters).
   */
  setOwners(node: GcNode, owners: readonly OwnerReference[]): OwnerDiff {
    const before = new Map(node.owners.map((o) => [o.uid, o]));
    const after = new Map<string, OwnerReference>();
    for (const o of owners) if (o && typeof o.uid === 'string' && o.uid && !after.has(o.uid)) after.set(o.uid, o);
    const newVirtual: GcNode[] = [];
    const added: GcNode[] = [];
    const released: GcNode[] = [];
    for (const [uid, old] of before) {
      const owner = this.nodes.get(uid);
      if (!owner) continue;
      const next = after.get(uid);
      if (!next) {
        owner.dependents.delete(node);
        released.push(owner);
        this.dropIfIdle(owner);
      } else if (old.blockOwnerDeletion === true && next.blockOwnerDeletion !== true) {
        released.push(owner);
      }
    }
    for (const [uid, ref] of after) {
      if (before.has(uid) && this.nodes.get(uid)?.dependents.has(node)) continue;
      let owner = this.nodes.get(uid);
      if (!owner) {
        owner = new GcNode({ apiVersion: ref.apiVersion ?? '', kind: ref.kind ?? '', name: ref.name ?? '', namespace: node.identity.namespace, uid });
        this.nodes.set(uid, owner);
        newVirtual.push(owner);
      }
      owner.dependents.add(node);
      added.push(owner);
    }
    node.owners = [...after.values()];
    return { newVirtual, added, released };
  }

  /**
   * An observed object is gone. Its owners lose it; if it still has dependents it stays as a virtual node (they
   * still name its uid), otherwise it leaves the graph. Returns the owners it was linked to.
   */
  remove(node: GcNode): GcNode[] {
    const { released } = this.setOwners(node, []);
    node.observed = false;
    node.beingDeleted = false;
    node.deletingDependents = false;
    this.dropIfIdle(node);
    return released;
  }

  /**
   * Drops a node with nothing to do: a virtual node nobody references any more, or an observed object that has no
   * owners, no dependents and is not being deleted (its next event brings it back if that changes).
   */
  dropIfIdle(node: GcNode): void {
    if (node.dependents.size > 0 || this.nodes.get(node.uid) !== node) return;
    if (node.observed && (node.owners.length > 0 || node.beingDeleted)) return;
    this.nodes.delete(node.uid);
  }
}

/**
 * Whether a dependent's reference names this observed owner at its real coordinates: same group and kind and name,
 * and, for a namespaced owner, the dependent's namespace (namespaced owners only own objects in their namespace).
 */
export function referenceMatches(owner: Identity, ref: OwnerReference, dependentNamespace: string): boolean {
  if (ref.uid !== owner.uid || ref.name !== owner.name || ref.kind !== owner.kind) return false;
  if (groupOf(ref.apiVersion ?? '') !== groupOf(owner.apiVersion)) return false;
  return owner.namespace === '' || owner.namespace === dependentNamespace;
}
