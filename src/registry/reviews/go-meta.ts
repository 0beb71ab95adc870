/**
 * Go's `%#v` of a metav1.ObjectMeta, which kube prints as the bad value of `metadata: Invalid value: …: must be
 * empty` on access reviews. Times print through time.Time's GoString (decoded times are in time.Local), nil
 * pointers as `<nil>` (fmt's nil-receiver rule for GoStringers), nil slices/maps as typed nils.
 */
const q = (s: unknown): string => JSON.stringify(typeof s === 'string' ? s : '');
/** Set pointers print as their address in Go; any address is as good as another. */
const PTR = (type: string): string => `(*${type})(0xc000010000)`;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function goTime(v: unknown): string {
  const t = typeof v === 'string' ? new Date(v) : undefined;
  if (!t || Number.isNaN(t.getTime())) return 'time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)';
  return `time.Date(${t.getUTCFullYear()}, time.${MONTHS[t.getUTCMonth()]}, ${t.getUTCDate()}, ${t.getUTCHours()}, ${t.getUTCMinutes()}, ${t.getUTCSeconds()}, ${t.getUTCMilliseconds() * 1e6}, time.Local)`;
}

function goStringMap(v: unknown): string {
  if (!v || typeof v !== 'object') return 'map[string]string(nil)';
  const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[string]string{${entries.map(([k, x]) => `${q(k)}:${q(x)}`).join(', ')}}`;
}

function goStrings(v: unknown): string {
  if (!Array.isArray(v)) return '[]string(nil)';
  return `[]string{${v.map(q).join(', ')}}`;
}

function goOwnerRefs(v: unknown): string {
  if (!Array.isArray(v)) return '[]v1.OwnerReference(nil)';
  const one = (r: Record<string, unknown>): string => {
    const ptrBool = (b: unknown): string => (typeof b === 'boolean' ? PTR('bool') : '(*bool)(nil)');
    return `v1.OwnerReference{APIVersion:${q(r.apiVersion)}, Kind:${q(r.kind)}, Name:${q(r.name)}, UID:${q(r.uid)}, Controller:${ptrBool(r.controller)}, BlockOwnerDeletion:${ptrBool(r.blockOwnerDeletion)}}`;
  };
  return `[]v1.OwnerReference{${v.map((r) => one((r ?? {}) as Record<string, unknown>)).join(', ')}}`;
}

export function goObjectMeta(meta: Record<string, unknown>): string {
  const gen = typeof meta.generation === 'number' ? meta.generation : 0;
  const grace = typeof meta.deletionGracePeriodSeconds === 'number' ? PTR('int64') : '(*int64)(nil)';
  const del = typeof meta.deletionTimestamp === 'string' ? goTime(meta.deletionTimestamp) : '<nil>';
  const mf = Array.isArray(meta.managedFields) && meta.managedFields.length ? '[]v1.ManagedFieldsEntry{…}' : '[]v1.ManagedFieldsEntry(nil)';
  return `v1.ObjectMeta{Name:${q(meta.name)}, GenerateName:${q(meta.generateName)}, Namespace:${q(meta.namespace)}, SelfLink:${q(meta.selfLink)}, `
    + `UID:${q(meta.uid)}, ResourceVersion:${q(meta.resourceVersion)}, Generation:${gen}, CreationTimestamp:${goTime(meta.creationTimestamp)}, `
    + `DeletionTimestamp:${del}, DeletionGracePeriodSeconds:${grace}, Labels:${goStringMap(meta.labels)}, Annotations:${goStringMap(meta.annotations)}, `
    + `OwnerReferences:${goOwnerRefs(meta.ownerReferences)}, Finalizers:${goStrings(meta.finalizers)}, ManagedFields:${mf}}`;
}
