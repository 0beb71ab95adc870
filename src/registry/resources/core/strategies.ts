/** Strategies for core/v1 kinds other than pods (kube's pkg/registry/core/<kind>/strategy.go). */
import type { KObject } from '../../../machinery/objects.ts';
import type { RegistryStrategy } from '../../strategy.ts';
import { statusStrategy } from '../strategy-kit.ts';
import * as d from './defaults.ts';
import { applyPendingAllocation } from '../../services/pending.ts';

/** Namespaces: phase Active and the `kubernetes` finalizer on create; the name label kube maintains. */
export const namespaceStrategy: RegistryStrategy = statusStrategy({
  status: true,
  initialStatus: () => ({ phase: 'Active' }),
  onCreate(obj) {
    const spec = isObj(obj['spec']) ? obj['spec'] : {};
    const fins = Array.isArray(spec['finalizers']) ? (spec['finalizers'] as unknown[]) : [];
    if (!fins.includes('kubernetes')) fins.push('kubernetes');
    spec['finalizers'] = fins;
    obj['spec'] = spec;
    setNameLabel(obj);
  },
  onUpdate(obj, old, ctx) {
    // spec.finalizers change only through /finalize, which changes nothing else.
    const finalize = ctx.subresource === 'finalize';
    const wanted = isObj(obj['spec']) ? obj['spec']['finalizers'] : undefined;
    if (old['spec'] === undefined) delete obj['spec'];
    else obj['spec'] = structuredClone(old['spec']);
    if (finalize) {
      const spec = isObj(obj['spec']) ? obj['spec'] : {};
      if (wanted === undefined) delete spec['finalizers'];
      else spec['finalizers'] = wanted;
      obj['spec'] = spec;
    }
    setNameLabel(obj);
  },
});

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function setNameLabel(obj: KObject): void {
  if (!obj.metadata.name) return;
  obj.metadata.labels = { ...(obj.metadata.labels ?? {}), 'kubernetes.io/metadata.name': obj.metadata.name };
}

/** Services: cluster IPs and node ports come from the REST wrapper's allocation (src/registry/services). */
export const servicesStrategy = statusStrategy({
  status: true, initialStatus: () => ({ loadBalancer: {} }), allowCreateOnUpdate: true,
  onCreate: (obj) => applyPendingAllocation(obj),
  onUpdate: (obj) => applyPendingAllocation(obj),
}, { defaults: d.serviceDefaults });
export const endpointsStrategy = statusStrategy({ allowCreateOnUpdate: true }, { defaults: d.endpointsDefaults });
export const eventsStrategy = statusStrategy({ allowCreateOnUpdate: true, gcPolicy: 'unsupported' });
export const limitRangesStrategy = statusStrategy({ allowCreateOnUpdate: true });
/** Nodes keep the status they are created with (the kubelet registers a node with its status), as in kube. */
export const nodesStrategy = statusStrategy({
  status: true,
  initialStatus: (o) => (o['status'] !== null && typeof o['status'] === 'object' ? o['status'] : {}),
}, { allowStatusOnCreate: true });
export const pvStrategy = statusStrategy({ status: true, initialStatus: () => ({ phase: 'Pending' }) }, { defaults: d.persistentVolumeDefaults });
export const pvcStrategy = statusStrategy({ status: true, initialStatus: () => ({ phase: 'Pending' }) }, { defaults: d.persistentVolumeClaimDefaults });
export const rcStrategy = statusStrategy({ status: true, generation: true, allowCreateOnUpdate: true }, { defaults: d.replicationControllerDefaults });
export const resourceQuotaStrategy = statusStrategy({ status: true });
export const plainStrategy = statusStrategy({});
export const secretsStrategy = statusStrategy({}, { defaults: d.secretDefaults });
export const configMapsStrategy = statusStrategy({});
export const podTemplatesStrategy = statusStrategy({}, { defaults: d.podTemplateObjectDefaults });
