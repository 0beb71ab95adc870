/**
 * Hands the Service REST wrapper's allocation results to the services strategy. kube allocates in the
 * storage layer, after the field manager ran, so allocated fields (clusterIP(s), ipFamilies, ipFamilyPolicy,
 * nodePorts) belong to no manager; here the wrapper allocates first and the strategy's prepareForCreate /
 * prepareForUpdate (which run after managedFields are computed) put the result in place.
 *
 * The result travels in an AsyncLocalStorage slot bound to the one write, so concurrent writes cannot mix.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { KObject } from '../../machinery/objects.ts';

export interface PendingAllocation {
  /** The Service's spec with allocations applied; set by the wrapper before the store prepares the write. */
  spec?: unknown;
}

const slot = new AsyncLocalStorage<PendingAllocation>();

export function withPendingAllocation<T>(pending: PendingAllocation, fn: () => Promise<T>): Promise<T> {
  return slot.run(pending, fn);
}

/** Called by the services strategy: the write's spec becomes the allocated one (no-op outside a wrapped write). */
export function applyPendingAllocation(obj: KObject): void {
  const p = slot.getStore();
  if (p?.spec !== undefined) obj['spec'] = structuredClone(p.spec);
}
