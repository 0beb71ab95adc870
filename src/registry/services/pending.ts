/**
 * A Service write's allocation result, from the REST wrapper to the services strategy. kube allocates inside
 * the strategy's storage decorator; the user's spec must not carry allocations into managedFields (allocated
 * clusterIPs/nodePorts belong to no manager), so the wrapper allocates first and the strategy's
 * prepareForCreate / prepareForUpdate (which run after managedFields are computed) put the result in place.
 *
 * The result travels on the write's own OpContext (→ StrategyContext.allocation), so concurrent writes cannot
 * mix. (It used to travel in an AsyncLocalStorage slot; on Node 20 that turns on promise hooks for the whole
 * process and taxes every await of every request.)
 */
import type { KObject } from '../../machinery/objects.ts';
import type { StrategyContext } from '../../api/types.ts';
import type { OpContext } from '../rest.ts';

export interface PendingAllocation {
  /** The Service's spec with allocations applied; set by the wrapper before the store prepares the write. */
  spec?: unknown;
}

/**
 * The same operation context carrying `pending`. Property descriptors are copied so the request's lazy
 * getters (signal, audit annotations) stay lazy.
 */
export function withPendingAllocation(ctx: OpContext, pending: PendingAllocation): OpContext {
  const derived = Object.create(Object.getPrototypeOf(ctx) as object, Object.getOwnPropertyDescriptors(ctx)) as OpContext;
  Object.defineProperty(derived, 'allocation', { value: pending, enumerable: true });
  return derived;
}

/** Called by the services strategy: the write's spec becomes the allocated one (no-op outside a wrapped write). */
export function applyPendingAllocation(obj: KObject, ctx: StrategyContext): void {
  const p = ctx.allocation;
  if (p?.spec !== undefined) obj['spec'] = structuredClone(p.spec);
}
