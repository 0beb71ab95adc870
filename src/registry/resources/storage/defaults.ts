/**
 * Defaulting for storage.k8s.io/v1 (k8s.io/kubernetes/pkg/apis/storage/v1/defaults.go) at v1.33's default
 * feature gates: StorageClass reclaimPolicy Delete and volumeBindingMode Immediate; CSIDriver attachRequired
 * true, podInfoOnMount/storageCapacity/requiresRepublish false, fsGroupPolicy ReadWriteOnceWithFSType,
 * volumeLifecycleModes [Persistent], and seLinuxMount false (SELinuxMountReadWriteOncePod, beta and on).
 */
type J = Record<string, unknown>;
const isObj = (v: unknown): v is J => v !== null && typeof v === 'object' && !Array.isArray(v);
const nilOr = (o: J, key: string, value: unknown): void => {
  if (o[key] === undefined || o[key] === null) o[key] = value;
};

export function storageClassDefaults(sc: J): void {
  nilOr(sc, 'reclaimPolicy', 'Delete');
  nilOr(sc, 'volumeBindingMode', 'Immediate');
}

export function csiDriverDefaults(d: J): void {
  const spec = isObj(d['spec']) ? d['spec'] : undefined;
  if (!spec) return;
  nilOr(spec, 'attachRequired', true);
  nilOr(spec, 'podInfoOnMount', false);
  nilOr(spec, 'storageCapacity', false);
  nilOr(spec, 'fsGroupPolicy', 'ReadWriteOnceWithFSType');
  if (!Array.isArray(spec['volumeLifecycleModes']) || spec['volumeLifecycleModes'].length === 0) spec['volumeLifecycleModes'] = ['Persistent'];
  nilOr(spec, 'requiresRepublish', false);
  nilOr(spec, 'seLinuxMount', false);
}
