/**
 * The storage plugins (kube's plugin/pkg/admission/storage):
 * - DefaultStorageClass: a PVC created with no class (neither `spec.storageClassName` nor the beta annotation)
 *   gets the default StorageClass (annotation `storageclass.kubernetes.io/is-default-class: "true"`, or the beta
 *   one); with several defaults the newest wins, then the first by name;
 * - StorageObjectInUseProtection: PVCs are created with the `kubernetes.io/pvc-protection` finalizer and PVs with
 *   `kubernetes.io/pv-protection`;
 * - PersistentVolumeClaimResize (validating, updates): a PVC may only grow when it is bound and its class (the
 *   same before and after) has `allowVolumeExpansion: true`, with kube's 403 texts.
 */
import type { KObject } from '../../machinery/objects.ts';
import { compareQuantity, tryParseQuantity } from '../../machinery/quantity.ts';
import { admissionForbidden } from '../errors.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionAttributes, type AdmissionPlugin, type PluginContext } from '../types.ts';
import { isObj, isResource, lister, newestDefault, specOf, str } from './support.ts';

const BETA_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';
const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';
const BETA_DEFAULT_CLASS_ANNOTATION = 'storageclass.beta.kubernetes.io/is-default-class';
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

const isPvc = (a: AdmissionAttributes) => isResource(a, '', 'persistentvolumeclaims') && a.subresource === '' && isObj(a.object);

export const isDefaultStorageClass = (sc: KObject) => sc.metadata.annotations?.[DEFAULT_CLASS_ANNOTATION] === 'true'
  || sc.metadata.annotations?.[BETA_DEFAULT_CLASS_ANNOTATION] === 'true';

/** GetPersistentVolumeClaimClass: the beta annotation, else spec.storageClassName. */
function claimClass(pvc: KObject): string {
  const beta = pvc.metadata.annotations?.[BETA_CLASS_ANNOTATION];
  if (beta !== undefined) return beta;
  return str(specOf(pvc)['storageClassName']);
}

export function defaultStorageClassPlugin(ctx: PluginContext): AdmissionPlugin {
  const classes = lister(ctx, 'storage.k8s.io', 'v1', 'storageclasses');
  return {
    name: 'DefaultStorageClass',
    operations: operations('CREATE'),
    admit(a) {
      if (!isPvc(a)) return;
      const pvc = a.object!;
      const spec = specOf(pvc);
      if (pvc.metadata.annotations?.[BETA_CLASS_ANNOTATION] !== undefined || (spec['storageClassName'] !== undefined && spec['storageClassName'] !== null)) return;
      const def = newestDefault(classes.list(), isDefaultStorageClass);
      if (def) spec['storageClassName'] = def.metadata.name;
    },
    ready: () => classes.ready(),
    stop: async () => classes.stop(),
  };
}

export function storageObjectInUseProtectionPlugin(): AdmissionPlugin {
  const addFinalizer = (obj: KObject, finalizer: string) => {
    const finalizers = obj.metadata.finalizers ?? [];
    if (!finalizers.includes(finalizer)) obj.metadata.finalizers = [...finalizers, finalizer];
  };
  return {
    name: 'StorageObjectInUseProtection',
    operations: operations('CREATE'),
    admit(a) {
      if (a.subresource !== '' || !isObj(a.object)) return;
      if (isResource(a, '', 'persistentvolumes')) addFinalizer(a.object, PV_PROTECTION_FINALIZER);
      else if (isResource(a, '', 'persistentvolumeclaims')) addFinalizer(a.object, PVC_PROTECTION_FINALIZER);
    },
  };
}

function storageRequest(pvc: KObject | undefined): unknown {
  const resources = pvc ? specOf(pvc)['resources'] : undefined;
  const requests = isObj(resources) ? resources['requests'] : undefined;
  return isObj(requests) ? requests['storage'] : undefined;
}

export function persistentVolumeClaimResizePlugin(ctx: PluginContext): AdmissionPlugin {
  const classes = lister(ctx, 'storage.k8s.io', 'v1', 'storageclasses');
  async function allowResize(pvc: KObject, old: KObject): Promise<boolean> {
    const cls = claimClass(pvc);
    const oldCls = claimClass(old);
    if (!cls || !oldCls || cls !== oldCls) return false;
    const sc = await classes.get('', cls).catch(() => undefined);
    return sc?.['allowVolumeExpansion'] === true;
  }
  return {
    name: 'PersistentVolumeClaimResize',
    operations: operations('UPDATE'),
    async validate(a) {
      if (!isPvc(a) || !isObj(a.oldObject)) return;
      const q = (v: unknown) => {
        const p = tryParseQuantity(v ?? '0');
        return typeof p === 'string' ? tryParseQuantity('0') as Exclude<ReturnType<typeof tryParseQuantity>, string> : p;
      };
      if (compareQuantity(q(storageRequest(a.object)), q(storageRequest(a.oldObject))) <= 0) return;
      const phase = isObj(a.oldObject['status']) ? a.oldObject['status']['phase'] : undefined;
      if (phase !== 'Bound') throw admissionForbidden(a, 'Only bound persistent volume claims can be expanded');
      if (!await allowResize(a.object!, a.oldObject)) {
        throw admissionForbidden(a, 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
      }
    },
    ready: () => classes.ready(),
    stop: async () => classes.stop(),
  };
}

registerPlugin('DefaultStorageClass', defaultStorageClassPlugin);
registerPlugin('StorageObjectInUseProtection', storageObjectInUseProtectionPlugin);
registerPlugin('PersistentVolumeClaimResize', persistentVolumeClaimResizePlugin);
