/** Strategies for core/v1 kinds other than pods (kube's pkg/registry/core/<kind>/strategy.go). */
import type { KObject } from '../../../machinery/objects.ts';
import type { RegistryStrategy } from '../../strategy.ts';
import { statusStrategy } from '../strategy-kit.ts';
import * as d from './defaults.ts';
import { applyPendingAllocation } from '../../services/pending.ts';
import { rfc3339 } from '../../object-utils.ts';
import { keepAllButStatus, resetObjectMetaForStatus } from '../strategy-kit.ts';

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
  onCreate: (obj, ctx) => applyPendingAllocation(obj, ctx),
  onUpdate: (obj, _old, ctx) => applyPendingAllocation(obj, ctx),
}, { defaults: d.serviceDefaults });
export const endpointsStrategy = statusStrategy({ allowCreateOnUpdate: true }, { defaults: d.endpointsDefaults });
export const eventsStrategy = statusStrategy({ allowCreateOnUpdate: true, gcPolicy: 'unsupported' });
export const limitRangesStrategy = statusStrategy({ allowCreateOnUpdate: true }, { defaults: d.limitRangeDefaults });
/**
 * Nodes keep the status they are created with (the kubelet registers a node with its status), as in kube;
 * spec.podCIDR and podCIDRs go through kube's conversion rule.
 */
export const nodesStrategy = statusStrategy({
  status: true,
  initialStatus: (o) => (o['status'] !== null && typeof o['status'] === 'object' ? o['status'] : {}),
  onCreate: (o) => d.nodeSpecConversion(o),
  onUpdate: (o) => d.nodeSpecConversion(o),
}, { allowStatusOnCreate: true, defaults: d.nodeDefaults });

/** PersistentVolumes: the strategy stamps status.lastPhaseTransitionTime on create and on a status phase change. */
const pvBase = statusStrategy({ status: true, initialStatus: () => ({ phase: 'Pending', lastPhaseTransitionTime: rfc3339(new Date()) }) }, { defaults: d.persistentVolumeDefaults });
export const pvStrategy: RegistryStrategy = {
  ...pvBase,
  prepareForUpdate(obj, old, ctx) {
    if ((ctx.subresource ?? '') !== 'status') return pvBase.prepareForUpdate?.(obj, old, ctx);
    keepAllButStatus(obj, old);
    resetObjectMetaForStatus(obj, old);
    const status = isObj(obj['status']) ? obj['status'] : (obj['status'] = {});
    const oldStatus = isObj(old['status']) ? old['status'] : {};
    const given = status['lastPhaseTransitionTime'];
    if (status['phase'] === oldStatus['phase']) {
      // Phase unchanged: a transition time left out keeps the stored one.
      if (given === undefined || given === null) {
        if (oldStatus['lastPhaseTransitionTime'] === undefined) delete status['lastPhaseTransitionTime'];
        else status['lastPhaseTransitionTime'] = oldStatus['lastPhaseTransitionTime'];
      }
    } else if (given === undefined || given === null || sameInstant(given, oldStatus['lastPhaseTransitionTime'])) {
      // Phase changed and the writer did not move the time: now.
      status['lastPhaseTransitionTime'] = rfc3339(new Date());
    }
  },
};

/** metav1.Time.Equal on two serialized times (second precision). */
function sameInstant(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  const x = Date.parse(a);
  const y = Date.parse(b);
  return !Number.isNaN(x) && x === y;
}

export const pvcStrategy = statusStrategy({ status: true, initialStatus: () => ({ phase: 'Pending' }) }, { defaults: d.persistentVolumeClaimDefaults });
export const rcStrategy = statusStrategy({
  status: true, generation: true, allowCreateOnUpdate: true,
  onCreate: (o) => d.podTemplateConversion(isObj(o['spec']) ? o['spec']['template'] : undefined),
  onUpdate: (o) => d.podTemplateConversion(isObj(o['spec']) ? o['spec']['template'] : undefined),
}, { defaults: d.replicationControllerDefaults });
export const resourceQuotaStrategy = statusStrategy({ status: true });
export const plainStrategy = statusStrategy({});
export const secretsStrategy = statusStrategy({}, { defaults: d.secretDefaults });
export const configMapsStrategy = statusStrategy({});
export const podTemplatesStrategy = statusStrategy({
  onCreate: (o) => d.podTemplateConversion(o['template']),
  onUpdate: (o) => d.podTemplateConversion(o['template']),
}, { defaults: d.podTemplateObjectDefaults });
