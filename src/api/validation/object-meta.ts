/**
 * ObjectMeta validation on create and update (k8s.io/apimachinery/pkg/api/validation/objectmeta.go, plus
 * pkg/apis/core/validation's extra finalizer-name rule that every built-in kind gets). Paths are rooted at
 * `path` (default `metadata`), so embedded metadata (pod templates) can reuse the label/annotation checks.
 */
import type { ObjectMeta } from '../../machinery/objects.ts';
import type { NameRule } from '../types.ts';
import { FieldError, field } from '../../machinery/errors.ts';
import {
  isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidPathSegmentName, isValidPathSegmentPrefix,
} from '../../machinery/validation/names.ts';
import { FIELD_IMMUTABLE, arr, goStringSlice, immutable, isObj, isSet, nonNegative, semanticEqual, str, validateLabels } from './util.ts';
import { GO_NULL, goInvalid, goOwnerReference, goStrings, goTime } from './go-render.ts';

export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;
const FIELD_MANAGER_MAX_LENGTH = 128;
const MAX_SUBRESOURCE_NAME_LENGTH = 256;
const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/** Per-resource name rules (api/types.ts NameRule; `dns1035-label` is the Service rule, ValidateServiceName). */
export type MetaNameRule = NameRule;

export interface ObjectMetaOptions {
  namespaced: boolean;
  nameRule: MetaNameRule;
}

/** kube's maskTrailingDash, quirk included: a trailing '-' drops the last two characters before appending 'a'. */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

/** ValidateNameFunc for a rule: `prefix` is true when checking a generateName. */
export function nameProblems(rule: MetaNameRule, name: string, prefix: boolean): string[] {
  switch (rule) {
    case 'dns1123-subdomain': return isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
    case 'dns1123-label': return isDNS1123Label(prefix ? maskTrailingDash(name) : name);
    case 'dns1035-label': return isDNS1035Label(prefix ? maskTrailingDash(name) : name);
    case 'path-segment': return prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name);
    case 'none': return [];
  }
}

/** ValidateAnnotations: keys are qualified names (case-insensitive); total size at most 256 KiB. */
export function validateAnnotations(annotations: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(isObj(annotations) ? annotations : {})) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(field.invalid(path, k, m));
    total += Buffer.byteLength(k) + Buffer.byteLength(typeof v === 'string' ? v : String(v));
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(field.tooLong(path, '', TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}

/** ValidateOwnerReferences: apiVersion/kind/name/uid set, banned owners, at most one controller. */
export function validateOwnerReferences(refs: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const r of arr(refs)) {
    const ref = isObj(r) ? r : {};
    const apiVersion = str(ref['apiVersion']);
    const parts = apiVersion.split('/');
    // schema.ParseGroupVersion: more than one '/' fails and leaves the version empty.
    const version = parts.length === 1 ? parts[0]! : parts.length === 2 ? parts[1]! : '';
    const group = parts.length === 2 ? parts[0]! : '';
    const kind = str(ref['kind']);
    if (!version) errs.push(field.invalid(`${path}.apiVersion`, apiVersion, 'version must not be empty'));
    if (!kind) errs.push(field.invalid(`${path}.kind`, kind, 'kind must not be empty'));
    if (!str(ref['name'])) errs.push(field.invalid(`${path}.name`, str(ref['name']), 'name must not be empty'));
    if (!str(ref['uid'])) errs.push(field.invalid(`${path}.uid`, str(ref['uid']), 'uid must not be empty'));
    if (group === '' && version === 'v1' && kind === 'Event') errs.push(goInvalid(path, goOwnerReference(ref), '/v1, Kind=Event is disallowed from being an owner'));
    if (ref['controller'] === true) {
      const cur = `${kind}/${str(ref['name'])}`;
      if (firstController) {
        errs.push(goInvalid(path, `[]v1.OwnerReference{${arr(refs).map(goOwnerReference).join(', ')}}`, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${cur}`));
      } else firstController = cur;
    }
  }
  return errs;
}

/** apimachinery ValidateFinalizerName: a qualified name. */
export function validateFinalizerName(name: string, path: string): FieldError[] {
  return isQualifiedName(name).map((m) => field.invalid(path, name, m));
}

/** core validateKubeFinalizerName: an unqualified finalizer must be one of kube's standard ones. */
export function validateKubeFinalizerName(name: string, path: string): FieldError[] {
  if (name.split('/').length === 1 && !STANDARD_FINALIZERS.has(name)) {
    return [field.invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified')];
  }
  return [];
}

function validateFinalizers(finalizers: unknown, path: string): FieldError[] {
  const list = arr(finalizers).map(str);
  const errs: FieldError[] = [];
  for (const f of list) errs.push(...validateFinalizerName(f, path));
  if (list.includes('orphan') && list.includes('foregroundDeletion')) {
    errs.push(goInvalid(path, goStrings(list), 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

function validateFieldManager(manager: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (Buffer.byteLength(manager) > FIELD_MANAGER_MAX_LENGTH) errs.push(field.tooLong(path, '', FIELD_MANAGER_MAX_LENGTH));
  let i = 0;
  for (const ch of manager) {
    const cp = ch.codePointAt(0)!;
    if (!(/[\p{L}\p{M}\p{N}\p{P}\p{S}]/u.test(ch) || cp === 0x20)) {
      errs.push(field.invalid(path, manager, `invalid character U+${cp.toString(16).toUpperCase().padStart(4, '0')} (at position ${i})`));
    }
    i += Buffer.byteLength(ch);
  }
  return errs;
}

function validateManagedFields(entries: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  arr(entries).forEach((raw, i) => {
    const e = isObj(raw) ? raw : {};
    const p = `${path}[${i}]`;
    const op = str(e['operation']);
    if (op !== 'Apply' && op !== 'Update') errs.push(field.invalid(`${p}.operation`, op, 'must be `Apply` or `Update`'));
    const ft = str(e['fieldsType']);
    if (ft && ft !== 'FieldsV1') errs.push(field.invalid(`${p}.fieldsType`, ft, 'must be `FieldsV1`'));
    errs.push(...validateFieldManager(str(e['manager']), `${p}.manager`));
    if (Buffer.byteLength(str(e['subresource'])) > MAX_SUBRESOURCE_NAME_LENGTH) errs.push(field.tooLong(`${p}.subresource`, '', MAX_SUBRESOURCE_NAME_LENGTH));
  });
  return errs;
}

/** ValidateObjectMeta (create), run after name generation. */
export function validateObjectMeta(meta: ObjectMeta, opts: ObjectMetaOptions, path = 'metadata'): FieldError[] {
  const errs: FieldError[] = [];
  const m = meta as Record<string, unknown>;
  const generateName = str(m['generateName']);
  const name = str(m['name']);
  const namespace = str(m['namespace']);
  if (generateName) for (const msg of nameProblems(opts.nameRule, generateName, true)) errs.push(field.invalid(`${path}.generateName`, generateName, msg));
  if (!name) errs.push(field.required(`${path}.name`, 'name or generateName is required'));
  else for (const msg of nameProblems(opts.nameRule, name, false)) errs.push(field.invalid(`${path}.name`, name, msg));
  if (opts.namespaced) {
    if (!namespace) errs.push(field.required(`${path}.namespace`));
    else for (const msg of isDNS1123Label(namespace)) errs.push(field.invalid(`${path}.namespace`, namespace, msg));
  } else if (namespace) {
    errs.push(field.forbidden(`${path}.namespace`, 'not allowed on this type'));
  }
  errs.push(...nonNegative(m['generation'], `${path}.generation`));
  errs.push(...validateLabels(m['labels'], `${path}.labels`));
  errs.push(...validateAnnotations(m['annotations'], `${path}.annotations`));
  errs.push(...validateOwnerReferences(m['ownerReferences'], `${path}.ownerReferences`));
  errs.push(...validateFinalizers(m['finalizers'], `${path}.finalizers`));
  errs.push(...validateManagedFields(m['managedFields'], `${path}.managedFields`));
  arr(m['finalizers']).forEach((f, i) => errs.push(...validateKubeFinalizerName(str(f), `${path}.finalizers[${i}]`)));
  return errs;
}

/** ValidateObjectMetaUpdate (the create-time checks on the new object run separately). */
export function validateObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta, path = 'metadata'): FieldError[] {
  const errs: FieldError[] = [];
  const m = meta as Record<string, unknown>;
  const o = old as Record<string, unknown>;
  if (o['deletionTimestamp']) {
    const oldSet = new Set(arr(o['finalizers']).map(str));
    const extra = [...new Set(arr(m['finalizers']).map(str).filter((f) => !oldSet.has(f)))].sort();
    if (extra.length) {
      errs.push(field.forbidden(`${path}.finalizers`, `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(extra)}`));
    }
  }
  if (!str(m['resourceVersion'])) errs.push(field.invalid(`${path}.resourceVersion`, str(m['resourceVersion']), 'must be specified for an update'));
  const gen = typeof m['generation'] === 'number' ? m['generation'] : 0;
  const oldGen = typeof o['generation'] === 'number' ? o['generation'] : 0;
  if (gen < oldGen) errs.push(field.invalid(`${path}.generation`, gen, 'must not be decremented'));
  for (const k of ['name', 'namespace', 'uid']) {
    if (str(m[k]) !== str(o[k])) errs.push(field.invalid(`${path}.${k}`, str(m[k]), FIELD_IMMUTABLE));
  }
  if (!semanticEqual(m['creationTimestamp'], o['creationTimestamp'])) errs.push(goInvalid(`${path}.creationTimestamp`, goTime(m['creationTimestamp']), FIELD_IMMUTABLE));
  if (!semanticEqual(m['deletionTimestamp'], o['deletionTimestamp'])) {
    errs.push(goInvalid(`${path}.deletionTimestamp`, isSet(m['deletionTimestamp']) ? goTime(m['deletionTimestamp']) : GO_NULL, FIELD_IMMUTABLE));
  }
  errs.push(...immutable(m['deletionGracePeriodSeconds'], o['deletionGracePeriodSeconds'], `${path}.deletionGracePeriodSeconds`));
  errs.push(...validateLabels(m['labels'], `${path}.labels`));
  errs.push(...validateAnnotations(m['annotations'], `${path}.annotations`));
  errs.push(...validateOwnerReferences(m['ownerReferences'], `${path}.ownerReferences`));
  errs.push(...validateManagedFields(m['managedFields'], `${path}.managedFields`));
  arr(m['finalizers']).forEach((f, i) => errs.push(...validateKubeFinalizerName(str(f), `${path}.finalizers[${i}]`)));
  return errs;
}
