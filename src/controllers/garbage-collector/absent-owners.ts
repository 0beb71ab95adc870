/**
 * Owners verified absent (kube's absentOwnerCache): a bounded LRU of reference coordinates, so that many
 * dependents of one deleted owner cost one GET, not one each. Uids are never reused, so an entry never goes
 * stale; eviction only costs a repeated GET.
 */
import type { OwnerReference } from '../../machinery/objects.ts';

export function absentKey(ref: Pick<OwnerReference, 'apiVersion' | 'kind' | 'name' | 'uid'>, namespace: string): string {
  return JSON.stringify([ref.uid, namespace, ref.apiVersion, ref.kind, ref.name]);
}

export class AbsentOwnerCache {
  private readonly keys = new Map<string, true>();

  constructor(private readonly capacity = 500) {}

  add(key: string): void {
    this.keys.delete(key);
    this.keys.set(key, true);
    if (this.keys.size > this.capacity) this.keys.delete(this.keys.keys().next().value!);
  }

  has(key: string): boolean {
    if (!this.keys.has(key)) return false;
    // Refresh recency.
    this.keys.delete(key);
    this.keys.set(key, true);
    return true;
  }

  get size(): number {
    return this.keys.size;
  }
}
