/**
 * PersistentVolumes (pkg/apis/core/validation/validation.go: ValidatePersistentVolumeSpec,
 * ValidatePersistentVolumeUpdate, validateVolumeNodeAffinity and the persistent volume source checks).
 * Sources are checked in kube's order: the first one set counts, later ones are "may not specify more than 1
 * volume type" (flexVolume is counted without that check, as in kube). Per-source rules are the required fields;
 * CSI also checks the driver name.
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { isDNS1123Subdomain } from '../../machinery/validation/names.ts';
import { formatQuantity, tryParseQuantity } from '../../machinery/quantity.ts';
import { validateAffinity } from './core-affinity.ts';
import { accessModeErrors } from './core-pvc.ts';
import { GO_NULL, goInvalid, goNotSupported, goPtr } from './go-render.ts';
import { type J, arr, immutable, isSet, obj, semanticEqual, str } from './util.ts';

const RECLAIM = ['Delete', 'Recycle', 'Retain'];
const VOLUME_MODES = ['Block', 'Filesystem'];
const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
/** Keys of PersistentVolumeSpec that are not part of the (immutable) PersistentVolumeSource. */
const NON_SOURCE = new Set(['capacity', 'accessModes', 'claimRef', 'persistentVolumeReclaimPolicy', 'storageClassName', 'mountOptions',
  'volumeMode', 'nodeAffinity', 'volumeAttributesClassName']);

type Check = (s: J, path: string) => FieldError[];
const required = (...keys: string[]): Check => (s, path) => keys.filter((k) => !isSet(s[k]) || s[k] === '' || (Array.isArray(s[k]) && s[k].length === 0))
  .map((k) => field.required(`${path}.${k}`));

/** ValidateCSIDriverName */
export function validateCSIDriverName(name: string, path: string): FieldError[] {
  if (!name) return [field.required(path)];
  if (name.length > 63) return [field.tooLong(path, name, 63)];
  return isDNS1123Subdomain(name.toLowerCase()).map((m) => field.invalid(path, name, m));
}

const absolute = (key: string): Check => (s, path) => (isSet(s[key]) && s[key] !== '' && !str(s[key]).startsWith('/') ? [field.invalid(`${path}.${key}`, s[key], 'must be an absolute path')] : []);
const noBacksteps = (key: string): Check => (s, path) => (str(s[key]).replace(/\\/g, '/').split('/').includes('..') ? [field.invalid(`${path}.${key}`, s[key], "must not contain '..'")] : []);
const all = (...checks: Check[]): Check => (s, path) => checks.flatMap((c) => c(s, path));

/** [spec key, check, path kube reports the source's own errors under (kube's spelling)]. */
const SOURCES: [string, Check, string?][] = [
  ['hostPath', all(required('path'), noBacksteps('path'), (s, p) => (isSet(s['type']) && !HOST_PATH_TYPES.includes(str(s['type'])) ? [field.notSupported(`${p}.type`, s['type'], HOST_PATH_TYPES)] : []))],
  ['gcePersistentDisk', required('pdName'), 'persistentDisk'],
  ['awsElasticBlockStore', required('volumeID')],
  ['glusterfs', required('endpoints', 'path')],
  ['flocker', (s, p) => (!!str(s['datasetName']) === !!str(s['datasetUUID']) ? [field.required(p, 'one of datasetName and datasetUUID is required')] : [])],
  ['nfs', all(required('server', 'path'), absolute('path'))],
  ['rbd', required('monitors', 'image')],
  ['quobyte', required('registry', 'volume')],
  ['cephfs', required('monitors'), 'cephfs'],
  ['iscsi', required('targetPortal', 'iqn')],
  ['cinder', required('volumeID')],
  ['fc', (s, p) => (arr(s['targetWWNs']).length === 0 && arr(s['wwids']).length === 0 ? [field.required(`${p}.targetWWNs`, 'must specify either targetWWNs or wwids, but not both')] : [])],
  ['flexVolume', required('driver')],
  ['azureFile', required('secretName', 'shareName')],
  ['vsphereVolume', required('volumePath')],
  ['photonPersistentDisk', required('pdID')],
  ['portworxVolume', required('volumeID')],
  ['azureDisk', required('diskName', 'diskURI')],
  ['scaleIO', required('gateway', 'system', 'volumeName')],
  ['local', all(required('path'), noBacksteps('path'))],
  ['storageos', required('volumeName')],
  ['csi', (s, p) => [...validateCSIDriverName(str(s['driver']), `${p}.driver`), ...required('volumeHandle')(s, p)]],
];
/** The forbidden-path spelling kube uses for a second source (cephFS with a capital S). */
const FORBIDDEN_KEY: Record<string, string> = { cephfs: 'cephFS' };

/** validateVolumeNodeAffinity: `required` node selector. */
function validateVolumeNodeAffinity(na: J, path: string): FieldError[] {
  if (!isSet(na['required'])) return [field.required(`${path}.required`, 'must specify required node constraints')];
  const from = 'x.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution';
  return validateAffinity({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: na['required'] } }, 'x')
    .map((e) => new FieldError(e.type, `${path}.required${e.field.slice(from.length)}`, e.detail, e.value, e.hasValue));
}

/** `%#v` of the capacity map for the NotSupported cause (quantities shown by their canonical text). */
function goCapacity(v: unknown): string {
  if (!isSet(v)) return 'core.ResourceList(nil)';
  return `core.ResourceList{${Object.keys(obj(v)).sort().map((k) => `${JSON.stringify(k)}:${JSON.stringify(str(obj(v)[k]))}`).join(', ')}}`;
}

export function validatePersistentVolume(pv: J): FieldError[] {
  const spec = obj(pv['spec']);
  const errs: FieldError[] = [];
  const modes = arr(spec['accessModes']).map(str);
  if (modes.length === 0) errs.push(field.required('spec.accessModes'));
  errs.push(...accessModeErrors(modes));
  const capacity = obj(spec['capacity']);
  const capKeys = Object.keys(capacity);
  if (capKeys.length === 0) errs.push(field.required('spec.capacity'));
  if (!('storage' in capacity) || capKeys.length > 1) errs.push(goNotSupported('spec.capacity', goCapacity(spec['capacity']), ['storage']));
  for (const k of capKeys) {
    const p = `spec.capacity[${k}]`;
    const q = tryParseQuantity(capacity[k]);
    if (typeof q === 'string') errs.push(field.invalid(p, capacity[k] ?? null, q));
    else if (q.nanos <= 0n) errs.push(field.invalid(p, formatQuantity(q), 'must be greater than zero'));
  }
  const policy = str(spec['persistentVolumeReclaimPolicy']);
  if (policy && !RECLAIM.includes(policy)) errs.push(field.notSupported('spec.persistentVolumeReclaimPolicy', policy, RECLAIM));
  const hasAffinity = isSet(spec['nodeAffinity']);
  if (hasAffinity) errs.push(...validateVolumeNodeAffinity(obj(spec['nodeAffinity']), 'spec.nodeAffinity'));
  let n = 0;
  for (const [key, check, reportAs] of SOURCES) {
    if (!isSet(spec[key])) continue;
    if (n > 0 && key !== 'flexVolume') {
      errs.push(field.forbidden(`spec.${FORBIDDEN_KEY[key] ?? key}`, 'may not specify more than 1 volume type'));
      continue;
    }
    n++;
    errs.push(...check(obj(spec[key]), `spec.${reportAs ?? key}`));
    if (key === 'local' && !hasAffinity) errs.push(field.required('spec.nodeAffinity', 'Local volume requires node affinity'));
  }
  if (n === 0) errs.push(field.required('spec', 'must specify a volume type'));
  const hp = str(obj(spec['hostPath'])['path']);
  if (isSet(spec['hostPath']) && /^\/+(\.\/*)*$/.test(hp) && policy === 'Recycle') {
    errs.push(field.forbidden('spec.persistentVolumeReclaimPolicy', "may not be 'recycle' for a hostPath mount of '/'"));
  }
  const sc = str(spec['storageClassName']);
  if (sc) for (const m of isDNS1123Subdomain(sc)) errs.push(field.invalid('spec.storageClassName', sc, m));
  const vm = spec['volumeMode'];
  if (isSet(vm) && !VOLUME_MODES.includes(str(vm))) errs.push(field.notSupported('spec.volumeMode', vm, VOLUME_MODES));
  const vac = spec['volumeAttributesClassName'];
  if (isSet(vac)) {
    if (vac === '') errs.push(field.required('spec.volumeAttributesClassName', 'an empty string is disallowed'));
    else for (const m of isDNS1123Subdomain(str(vac))) errs.push(field.invalid('spec.volumeAttributesClassName', vac, m));
    if (!isSet(spec['csi'])) errs.push(field.required('spec.csi', 'has to be specified when using volumeAttributesClassName'));
  }
  return errs;
}

function source(spec: J): J {
  return Object.fromEntries(Object.entries(spec).filter(([k]) => !NON_SOURCE.has(k)));
}

/** A short old → new listing of the changed source fields (kube appends a go-cmp diff). */
function diff(a: J, b: J): string {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !semanticEqual(a[k], b[k])).sort();
  return keys.map((k) => `- ${k}: ${JSON.stringify(a[k] ?? null)}\n+ ${k}: ${JSON.stringify(b[k] ?? null)}`).join('\n');
}

export function validatePersistentVolumeUpdate(pv: J, old: J): FieldError[] {
  const errs = validatePersistentVolume(pv);
  const spec = obj(pv['spec']);
  const oldSpec = obj(old['spec']);
  const src = structuredClone(source(spec));
  const oldSrc = source(oldSpec);
  // A CSI controllerExpandSecretRef may be added to a volume that had none.
  if (isSet(oldSrc['csi']) && isSet(src['csi']) && !isSet(obj(oldSrc['csi'])['controllerExpandSecretRef'])) delete obj(src['csi'])['controllerExpandSecretRef'];
  if (!semanticEqual(src, oldSrc)) {
    errs.push(field.forbidden('spec.persistentvolumesource', `spec.persistentvolumesource is immutable after creation\n${diff(oldSrc, src)}`));
  }
  // Both sides are defaulted to Filesystem in kube before this comparison; our strategy does not default it.
  errs.push(...immutable(spec['volumeMode'] ?? 'Filesystem', oldSpec['volumeMode'] ?? 'Filesystem', 'volumeMode'));
  if (isSet(oldSpec['nodeAffinity']) && !semanticEqual(spec['nodeAffinity'], oldSpec['nodeAffinity'])) {
    const na = obj(spec['nodeAffinity']);
    const rendered = isSet(spec['nodeAffinity']) ? `core.VolumeNodeAffinity{Required:${goPtr(na['required'], 'core.NodeSelector')}}` : GO_NULL;
    errs.push(goInvalid('nodeAffinity', rendered, `field is immutable\n${diff(obj(oldSpec['nodeAffinity']), na)}`));
  }
  if (isSet(oldSpec['volumeAttributesClassName']) && !isSet(spec['volumeAttributesClassName'])) {
    errs.push(field.forbidden('spec.volumeAttributesClassName', 'update from non-nil value to nil is forbidden'));
  }
  return errs;
}
