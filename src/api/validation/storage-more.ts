/**
 * storage.k8s.io/v1 CSIDriver and VolumeAttachment (pkg/apis/storage/validation/validation.go:
 * ValidateCSIDriver, validateCSIDriverSpec, validateTokenRequests, ValidateCSIDriverUpdate,
 * ValidateVolumeAttachment, ValidateVolumeAttachmentV1, validateVolumeAttachmentSource, ValidateVolumeAttachmentUpdate).
 * CSIDriver spec fields kube defaults (attachRequired, podInfoOnMount, storageCapacity, fsGroupPolicy,
 * volumeLifecycleModes) are read as their defaults when unset: our strategy does not default them, kube
 * validates after defaulting. kube's path for attachRequired is `spec.attachedRequired` (sic).
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { isDNS1123Subdomain } from '../../machinery/validation/names.ts';
import { validateCSIDriverName } from './core-pv.ts';
import { goInvalid, goPtr, goQuote } from './go-render.ts';
import { type J, arr, immutable, isSet, obj, semanticEqual, str } from './util.ts';

const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES = ['Persistent', 'Ephemeral'];

function validateTokenRequests(reqs: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  arr(reqs).forEach((raw, i) => {
    const r = obj(raw);
    const p = `${path}[${i}]`;
    const aud = str(r['audience']);
    if (seen.has(aud)) return void errs.push(field.duplicate(`${p}.audience`, aud));
    seen.add(aud);
    const exp = r['expirationSeconds'];
    if (typeof exp !== 'number') return;
    if (exp < 600) errs.push(field.invalid(`${p}.expirationSeconds`, exp, 'may not specify a duration less than 10 minutes'));
    if (exp > 2 ** 32) errs.push(field.invalid(`${p}.expirationSeconds`, exp, 'may not specify a duration larger than 2^32 seconds'));
  });
  return errs;
}

export function validateCSIDriver(d: J): FieldError[] {
  const spec = obj(d['spec']);
  const errs = validateCSIDriverName(str(obj(d['metadata'])['name']), 'name');
  const policy = spec['fsGroupPolicy'];
  if (isSet(policy) && !FS_GROUP_POLICIES.includes(str(policy))) errs.push(field.notSupported('spec.fsGroupPolicy', policy, FS_GROUP_POLICIES));
  errs.push(...validateTokenRequests(spec['tokenRequests'], 'spec.tokenRequests'));
  for (const m of arr(spec['volumeLifecycleModes'])) {
    if (!LIFECYCLE_MODES.includes(str(m))) errs.push(field.notSupported('spec.volumeLifecycleModes', m, LIFECYCLE_MODES));
  }
  return errs;
}

export function validateCSIDriverUpdate(d: J, old: J): FieldError[] {
  const spec = obj(d['spec']);
  const oldSpec = obj(old['spec']);
  const errs = validateCSIDriver(d);
  errs.push(...immutable(spec['attachRequired'] ?? true, oldSpec['attachRequired'] ?? true, 'spec.attachedRequired'));
  const modes = spec['volumeLifecycleModes'] ?? ['Persistent'];
  const oldModes = oldSpec['volumeLifecycleModes'] ?? ['Persistent'];
  if (!semanticEqual(modes, oldModes)) errs.push(goInvalid('spec.volumeLifecycleModes', `[]storage.VolumeLifecycleMode{${arr(modes).map((m) => goQuote(str(m))).join(', ')}}`, 'field is immutable'));
  return errs;
}

/** The inline-volume rules of ValidatePersistentVolumeSpec (validateInlinePersistentVolumeSpec = true). */
function validateInlineSpec(spec: J, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isSet(spec['claimRef'])) errs.push(field.forbidden(`${path}.claimRef`, 'may not be specified in the context of inline volumes'));
  if (Object.keys(obj(spec['capacity'])).length) errs.push(field.forbidden(`${path}.capacity`, 'may not be specified in the context of inline volumes'));
  if (!isSet(spec['csi'])) errs.push(field.required(`${path}.csi`, 'has to be specified in the context of inline volumes'));
  if (arr(spec['accessModes']).length === 0) errs.push(field.required(`${path}.accessModes`));
  const policy = str(spec['persistentVolumeReclaimPolicy']);
  if (policy && policy !== 'Retain') errs.push(field.forbidden(`${path}.persistentVolumeReclaimPolicy`, 'may only be Retain in the context of inline volumes'));
  if (isSet(spec['nodeAffinity'])) errs.push(field.forbidden(`${path}.nodeAffinity`, 'may not be specified in the context of inline volumes'));
  if (isSet(spec['csi'])) {
    const csi = obj(spec['csi']);
    errs.push(...validateCSIDriverName(str(csi['driver']), `${path}.csi.driver`));
    if (!str(csi['volumeHandle'])) errs.push(field.required(`${path}.csi.volumeHandle`));
  }
  if (str(spec['storageClassName'])) errs.push(field.forbidden(`${path}.storageClassName`, 'may not be specified in the context of inline volumes'));
  return errs;
}

export function validateVolumeAttachment(va: J): FieldError[] {
  const spec = obj(va['spec']);
  const errs: FieldError[] = [];
  const attacher = str(spec['attacher']);
  if (!attacher) errs.push(field.required('spec.attacher'));
  const src = obj(spec['source']);
  const hasPv = isSet(src['persistentVolumeName']);
  const hasInline = isSet(src['inlineVolumeSpec']);
  const exactlyOne = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';
  if (!hasPv && !hasInline) errs.push(field.required('spec.source', exactlyOne));
  else if (hasPv && hasInline) errs.push(field.forbidden('spec.source', exactlyOne));
  else if (hasPv && !str(src['persistentVolumeName'])) errs.push(field.required('spec.source.persistentVolumeName', 'must specify non empty persistentVolumeName'));
  else if (hasInline) errs.push(...validateInlineSpec(obj(src['inlineVolumeSpec']), 'spec.source.inlineVolumeSpec'));
  const node = str(spec['nodeName']);
  for (const m of isDNS1123Subdomain(node)) errs.push(field.invalid('spec.nodeName', node, m));
  // ValidateVolumeAttachmentV1 (the v1 API's extra rules).
  errs.push(...validateCSIDriverName(attacher, 'spec.attacher'));
  if (hasPv) for (const m of isDNS1123Subdomain(str(src['persistentVolumeName']))) errs.push(field.invalid('spec.source.persistentVolumeName', str(src['persistentVolumeName']), m));
  return errs;
}

/** `%#v` of a storage.VolumeAttachmentSpec (pointers as placeholders). */
function goSpec(spec: J): string {
  const src = obj(spec['source']);
  return `storage.VolumeAttachmentSpec{Attacher:${goQuote(str(spec['attacher']))}, Source:storage.VolumeAttachmentSource{PersistentVolumeName:${goPtr(src['persistentVolumeName'], 'string')}, InlineVolumeSpec:${goPtr(src['inlineVolumeSpec'], 'core.PersistentVolumeSpec')}}, NodeName:${goQuote(str(spec['nodeName']))}}`;
}

export function validateVolumeAttachmentUpdate(va: J, old: J): FieldError[] {
  const errs = validateVolumeAttachment(va);
  if (!semanticEqual(va['spec'], old['spec'])) errs.push(goInvalid('spec', goSpec(obj(va['spec'])), 'field is immutable'));
  return errs;
}
