/**
 * The collector's writes and reads against the registry (kube's garbagecollector/operations.go and patch.go),
 * all with the system identity. The field manager is what kube-apiserver infers from the collector's user agent
 * (`kube-controller-manager/v1.33… /generic-garbage-collector`): the part before the first slash.
 *
 * Every write is guarded by the object's uid: an object deleted and re-created under the same name is a
 * different object and is never touched on behalf of the old one.
 */
import type { KObject, OwnerReference } from '../../machinery/objects.ts';
import type { DeleteParams, OpContext } from '../../registry/rest.ts';
import { isConflict, isNotFound } from '../../machinery/errors.ts';
import { systemContext } from '../../registry/system-context.ts';
import type { Identity } from './graph.ts';
import type { ResourceResolver } from './resources.ts';

export const GC_FIELD_MANAGER = 'kube-controller-manager';

export type Policy = NonNullable<DeleteParams['propagationPolicy']>;

/** Thrown inside a read-modify-write when the object is gone or is another object (uid differs). */
const gone = new Error('object gone');
/** Thrown inside a read-modify-write when nothing needs writing. */
const unchanged = new Error('unchanged');

export class GcOperations {
  constructor(private readonly resolver: ResourceResolver) {}

  private ctx(namespace: string): OpContext {
    return { ...systemContext({ namespace }), fieldManager: GC_FIELD_MANAGER };
  }

  /** The live object, or undefined when missing (404). Unknown kinds throw. */
  async get(id: Pick<Identity, 'apiVersion' | 'kind' | 'name' | 'namespace'>): Promise<KObject | undefined> {
    const { storage } = this.resolver.resolve(id.apiVersion, id.kind);
    try {
      return (await storage.get(this.ctx(storage.def.namespaced ? id.namespace : ''), id.name, {})).object;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /**
   * Deletes with uid and resourceVersion preconditions. On a resourceVersion conflict it looks again: when the
   * owner references are still those the decision was made on, it deletes at the new resourceVersion (kube's
   * deleteObject). Returns false when the object is gone (or is another object).
   */
  async delete(id: Identity, resourceVersion: string, owners: readonly OwnerReference[], policy: Policy): Promise<boolean> {
    const { storage } = this.resolver.resolve(id.apiVersion, id.kind);
    const ctx = () => this.ctx(storage.def.namespaced ? id.namespace : '');
    const attempt = async (rv: string | undefined) => {
      await storage.delete(ctx(), id.name, { propagationPolicy: policy, preconditions: { uid: id.uid, ...(rv ? { resourceVersion: rv } : {}) } });
    };
    try {
      await attempt(resourceVersion || undefined);
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      if (!isConflict(err) || !resourceVersion) throw err;
      const live = await this.get(id);
      if (!live || live.metadata.uid !== id.uid) return false;
      if (JSON.stringify(live.metadata.ownerReferences ?? []) !== JSON.stringify(owners)) throw err;
      try {
        await attempt(live.metadata.resourceVersion);
        return true;
      } catch (err2) {
        if (isNotFound(err2)) return false;
        throw err2;
      }
    }
  }

  /**
   * Read-modify-write of one object's metadata; `change` returns the new object or undefined for "nothing to do".
   * Returns false when the object is gone.
   */
  private async mutate(id: Identity, change: (cur: KObject) => KObject | undefined): Promise<boolean> {
    const { storage } = this.resolver.resolve(id.apiVersion, id.kind);
    try {
      await storage.guaranteedUpdate(this.ctx(storage.def.namespaced ? id.namespace : ''), id.name, (cur) => {
        if (!cur || cur.metadata.uid !== id.uid) throw gone;
        const next = change(cur);
        if (!next) throw unchanged;
        return next;
      }, {});
      return true;
    } catch (err) {
      if (err === unchanged) return true;
      if (err === gone || isNotFound(err)) return false;
      throw err;
    }
  }

  /** Removes the references to the given owner uids (orphaning, or dropping dangling references). */
  removeOwnerReferences(id: Identity, ownerUids: readonly string[]): Promise<boolean> {
    const drop = new Set(ownerUids);
    return this.mutate(id, (cur) => {
      const refs = cur.metadata.ownerReferences ?? [];
      const kept = refs.filter((r) => !drop.has(r.uid));
      if (kept.length === refs.length) return undefined;
      const metadata: KObject['metadata'] = { ...cur.metadata, ownerReferences: kept };
      if (kept.length === 0) delete metadata.ownerReferences;
      return { ...cur, metadata };
    });
  }

  /** Sets blockOwnerDeletion=false on every blocking reference (breaks foreground cycles). */
  unblockOwnerReferences(id: Identity): Promise<boolean> {
    return this.mutate(id, (cur) => {
      const refs = cur.metadata.ownerReferences ?? [];
      if (!refs.some((r) => r.blockOwnerDeletion === true)) return undefined;
      const ownerReferences = refs.map((r) => (r.blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r));
      return { ...cur, metadata: { ...cur.metadata, ownerReferences } };
    });
  }

  /** Removes one finalizer (an object being deleted with no finalizers left is then removed by the registry). */
  removeFinalizer(id: Identity, finalizer: string): Promise<boolean> {
    return this.mutate(id, (cur) => {
      const fins = cur.metadata.finalizers ?? [];
      if (!fins.includes(finalizer)) return undefined;
      return { ...cur, metadata: { ...cur.metadata, finalizers: fins.filter((f) => f !== finalizer) } };
    });
  }
}
