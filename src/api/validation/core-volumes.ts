/**
 * Pod volumes (pkg/apis/core/validation/validation.go: ValidateVolumes, validateVolumeSource and the
 * per-source validators): names are unique DNS labels, each volume has exactly one source, and each source's
 * required fields are set. Sources are checked in kube's order, so "may not specify more than 1 volume type"
 * lands on the same field kube names (including its `downwarAPI` spelling).
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { inclusiveRangeError, isDNS1123Label, isDNS1123Subdomain } from '../../machinery/validation/names.ts';
import { validateFieldRef, validateLocalDescendingPath } from './core-containers.ts';
import { tryParseQuantity } from '../../machinery/quantity.ts';
import { type J, arr, isObj, isSet, obj, str } from './util.ts';

const FILE_MODE = 'must be a number between 0 and 0777 (octal), both inclusive';
const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
const VOLUME_FIELD_PATHS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];

type SourceCheck = (s: J, path: string) => FieldError[];

const req = (s: J, key: string, path: string, detail = ''): FieldError[] => (s[key] ? [] : [field.required(`${path}.${key}`, detail)]);

function mode(v: unknown, path: string): FieldError[] {
  return typeof v === 'number' && (v > 0o777 || v < 0) ? [field.invalid(path, v, FILE_MODE)] : [];
}

/** ValidateLocalNonReservedPath */
function localNonReserved(p: string, path: string): FieldError[] {
  const errs = validateLocalDescendingPath(p, path);
  if (p.startsWith('..') && !p.startsWith('../')) errs.push(field.invalid(path, p, "must not start with '..'"));
  return errs;
}

function keyToPath(items: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  arr(items).forEach((raw, i) => {
    const kp = obj(raw);
    const p = `${path}[${i}]`;
    if (!str(kp['key'])) errs.push(field.required(`${p}.key`));
    if (!str(kp['path'])) errs.push(field.required(`${p}.path`));
    errs.push(...localNonReserved(str(kp['path']), `${p}.path`));
    errs.push(...mode(kp['mode'], `${p}.mode`));
  });
  return errs;
}

function downwardFiles(items: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const raw of arr(items)) {
    const f = obj(raw);
    if (!str(f['path'])) errs.push(field.required(`${path}.path`));
    errs.push(...localNonReserved(str(f['path']), `${path}.path`));
    if (isObj(f['fieldRef'])) {
      errs.push(...validateFieldRef(f['fieldRef'], VOLUME_FIELD_PATHS, `${path}.fieldRef`));
      if (isSet(f['resourceFieldRef'])) errs.push(field.invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
    } else if (isObj(f['resourceFieldRef'])) {
      if (!str(f['resourceFieldRef']['containerName'])) errs.push(field.required(`${path}.resourceFieldRef.containerName`));
    } else {
      errs.push(field.required(path, 'one of fieldRef and resourceFieldRef is required'));
    }
    errs.push(...mode(f['mode'], `${path}.mode`));
  }
  return errs;
}

function projected(s: J, path: string): FieldError[] {
  const errs = mode(s['defaultMode'], `${path}.defaultMode`);
  const paths = new Set<string>();
  arr(s['sources']).forEach((raw, i) => {
    const src = obj(raw);
    const sp = `${path}.sources[${i}]`;
    let n = 0;
    for (const k of ['secret', 'configMap']) {
      if (!isObj(src[k])) continue;
      n++;
      if (!str(src[k]['name'])) errs.push(field.required(`${sp}.${k}.name`));
      errs.push(...keyToPath(src[k]['items'], `${sp}.${k}.items`));
      for (const it of arr(src[k]['items'])) {
        const p = str(obj(it)['path']);
        if (!p) continue;
        if (paths.has(p)) errs.push(field.invalid(path, str(src[k]['name']), 'conflicting duplicate paths'));
        paths.add(p);
      }
    }
    if (isObj(src['downwardAPI'])) {
      n++;
      errs.push(...downwardFiles(src['downwardAPI']['items'], `${sp}.downwardAPI`));
    }
    if (isObj(src['serviceAccountToken'])) {
      n++;
      const t = src['serviceAccountToken'];
      const exp = typeof t['expirationSeconds'] === 'number' ? t['expirationSeconds'] : 3600;
      if (exp < 600) errs.push(field.invalid(`${sp}.serviceAccountToken.expirationSeconds`, exp, 'may not specify a duration less than 10 minutes'));
      if (exp > 2 ** 32) errs.push(field.invalid(`${sp}.serviceAccountToken.expirationSeconds`, exp, 'may not specify a duration larger than 2^32 seconds'));
      if (!str(t['path'])) errs.push(field.required(`${path}.path`));
      else errs.push(...localNonReserved(str(t['path']), `${path}.path`));
    }
    if (isObj(src['clusterTrustBundle'])) {
      n++;
      if (!str(src['clusterTrustBundle']['path'])) errs.push(field.required(`${sp}.clusterTrustBundle.path`));
    }
    if (n > 1) errs.push(field.forbidden(sp, 'may not specify more than 1 volume type per source'));
  });
  return errs;
}

/** The volume sources in kube's order, with the path segment kube reports their errors under. */
const SOURCES: [key: string, check: SourceCheck][] = [
  ['emptyDir', (s, p) => {
    const q = isSet(s['sizeLimit']) ? tryParseQuantity(s['sizeLimit']) : undefined;
    return q !== undefined && (typeof q === 'string' || q.nanos < 0n) ? [field.forbidden(`${p}.sizeLimit`, 'SizeLimit field must be a valid resource quantity')] : [];
  }],
  ['hostPath', (s, p) => {
    const hp = str(s['path']);
    if (!hp) return [field.required(`${p}.path`)];
    const errs = hp.split('/').includes('..') ? [field.invalid(`${p}.path`, hp, "must not contain '..'")] : [];
    if (isSet(s['type']) && !HOST_PATH_TYPES.includes(str(s['type']))) errs.push(field.notSupported(`${p}.type`, s['type'], HOST_PATH_TYPES));
    return errs;
  }],
  ['gitRepo', (s, p) => [...req(s, 'repository', p), ...validateLocalDescendingPath(str(s['directory']), `${p}.directory`)]],
  ['gcePersistentDisk', (s, p) => {
    const errs = req(s, 'pdName', p);
    const part = s['partition'];
    if (typeof part === 'number' && (part < 0 || part > 255)) errs.push(field.invalid(`${p}.partition`, part, inclusiveRangeError(1, 255)));
    return errs;
  }],
  ['awsElasticBlockStore', (s, p) => req(s, 'volumeID', p)],
  ['secret', (s, p) => [...req(s, 'secretName', p), ...mode(s['defaultMode'], `${p}.defaultMode`), ...keyToPath(s['items'], `${p}.items`)]],
  ['nfs', (s, p) => {
    const errs = [...req(s, 'server', p), ...req(s, 'path', p)];
    if (!str(s['path']).startsWith('/')) errs.push(field.invalid(`${p}.path`, str(s['path']), 'must be an absolute path'));
    return errs;
  }],
  ['iscsi', (s, p) => [...req(s, 'targetPortal', p), ...req(s, 'iqn', p)]],
  ['glusterfs', (s, p) => [...req(s, 'endpoints', p), ...req(s, 'path', p)]],
  ['flocker', (s, p) => (!str(s['datasetName']) && !str(s['datasetUUID']) ? [field.required(p, 'one of datasetName and datasetUUID is required')] : [])],
  ['persistentVolumeClaim', (s, p) => req(s, 'claimName', p)],
  ['rbd', (s, p) => [...(arr(s['monitors']).length ? [] : [field.required(`${p}.monitors`)]), ...req(s, 'image', p)]],
  ['cinder', (s, p) => req(s, 'volumeID', p)],
  ['cephfs', (s, p) => (arr(s['monitors']).length ? [] : [field.required(`${p}.monitors`)])],
  ['quobyte', (s, p) => [...req(s, 'registry', p, 'must be a host:port pair or multiple pairs separated by commas'), ...req(s, 'volume', p)]],
  ['downwardAPI', (s, p) => [...mode(s['defaultMode'], `${p}.defaultMode`), ...downwardFiles(s['items'], p)]],
  ['fc', (s, p) => (arr(s['targetWWNs']).length < 1 && arr(s['wwids']).length < 1 ? [field.required(`${p}.targetWWNs`, 'must specify either targetWWNs or wwids, but not both')] : [])],
  ['flexVolume', (s, p) => req(s, 'driver', p)],
  ['configMap', (s, p) => [...req(s, 'name', p), ...mode(s['defaultMode'], `${p}.defaultMode`), ...keyToPath(s['items'], `${p}.items`)]],
  ['azureFile', (s, p) => [...req(s, 'secretName', p), ...req(s, 'shareName', p)]],
  ['vsphereVolume', (s, p) => req(s, 'volumePath', p)],
  ['photonPersistentDisk', (s, p) => req(s, 'pdID', p)],
  ['portworxVolume', (s, p) => req(s, 'volumeID', p)],
  ['azureDisk', (s, p) => [...req(s, 'diskName', p), ...req(s, 'diskURI', p)]],
  ['storageos', (s, p) => {
    const name = str(s['volumeName']);
    return name ? isDNS1123Label(name).map((m) => field.invalid(`${p}.volumeName`, name, m)) : [field.required(`${p}.volumeName`)];
  }],
  ['projected', projected],
  ['scaleIO', (s, p) => [...req(s, 'gateway', p), ...req(s, 'system', p), ...req(s, 'volumeName', p)]],
  ['csi', (s, p) => {
    const d = str(s['driver']);
    if (!d) return [field.required(`${p}.driver`)];
    const errs = Buffer.byteLength(d) > 63 ? [field.tooLong(`${p}.driver`, '', 63)] : [];
    return [...errs, ...isDNS1123Subdomain(d.toLowerCase()).map((m) => field.invalid(`${p}.driver`, d, m))];
  }],
  ['ephemeral', (s, p) => (isObj(s['volumeClaimTemplate']) ? [] : [field.required(`${p}.volumeClaimTemplate`)])],
  ['image', () => []],
];

/** kube's spellings: the "more than 1 volume type" error and the source's own errors use these segments. */
const FORBIDDEN_KEY: Record<string, string> = { downwardAPI: 'downwarAPI', cephfs: 'cephFS' };
const CHECK_KEY: Record<string, string> = { gcePersistentDisk: 'persistentDisk' };

function validateVolumeSource(v: J, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  for (const [key, check] of SOURCES) {
    if (!isSet(v[key])) continue;
    if (n > 0) {
      errs.push(field.forbidden(`${path}.${FORBIDDEN_KEY[key] ?? key}`, 'may not specify more than 1 volume type'));
      continue;
    }
    n++;
    errs.push(...check(obj(v[key]), `${path}.${CHECK_KEY[key] ?? key}`));
  }
  if (n === 0) errs.push(field.required(path, 'must specify a volume type'));
  return errs;
}

/** ValidateVolumes: returns the valid volumes by name (mounts refer to them) and the errors. */
export function validateVolumes(volumes: unknown, path: string): { volumes: Map<string, J>; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const valid = new Map<string, J>();
  const names = new Set<string>();
  arr(volumes).forEach((raw, i) => {
    const v = obj(raw);
    const p = `${path}[${i}]`;
    const name = str(v['name']);
    const el = validateVolumeSource(v, p);
    if (!name) el.push(field.required(`${p}.name`));
    else for (const m of isDNS1123Label(name)) el.push(field.invalid(`${p}.name`, name, m));
    if (names.has(name)) el.push(field.duplicate(`${p}.name`, name));
    if (el.length === 0) {
      names.add(name);
      valid.set(name, v);
    } else errors.push(...el);
  });
  return { volumes: valid, errors };
}
