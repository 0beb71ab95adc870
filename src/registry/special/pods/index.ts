/**
 * Wiring of the pod-related REST that stores nothing of its own: `pods/binding`, `pods/eviction` (registry
 * sub-resource storages) and the legacy `bindings` resource (a virtual def).
 */
import type { ResourceDef } from '../../../api/types.ts';
import type { SubresourceStorageFactory } from '../../registry.ts';
import type { RestRegistry, RestStorage } from '../../rest.ts';
import { PodBindingStorage } from './binding.ts';
import { PodEvictionStorage } from './eviction.ts';

export interface PodSubresourceOptions {
  /** The PodTopologyLabelsAdmission gate: bindings copy their labels onto the pod. */
  readonly bindingLabels?: boolean;
}

export const podSubresources = (o: PodSubresourceOptions = {}): SubresourceStorageFactory => ({ def, sub, main, registry }) => {
  if (def.group !== '' || def.resource !== 'pods') return undefined;
  if (sub.name === 'binding') return new PodBindingStorage(def, () => main, true, undefined, o.bindingLabels);
  if (sub.name === 'eviction') {
    return new PodEvictionStorage(def, { pods: main, budgets: () => registry.lookup('policy', 'v1', 'poddisruptionbudgets') });
  }
  return undefined;
};

/** The `bindings` resource: binds the pod its body names; the pods storage is looked up per request. */
export function bindingsStorage(def: ResourceDef, registry: () => RestRegistry, o: PodSubresourceOptions = {}): RestStorage | undefined {
  if (def.group !== '' || def.resource !== 'bindings') return undefined;
  return new PodBindingStorage(def, () => {
    const pods = registry().lookup('', def.version, 'pods');
    if (!pods) throw new Error('pods are not served');
    return pods;
  }, false, undefined, o.bindingLabels);
}
