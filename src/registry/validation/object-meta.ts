/**
 * ObjectMeta validation on create and update, as k8s.io/apimachinery/pkg/api/validation/objectmeta.go words it.
 * Field paths are rooted at `metadata`.
 */
import type { ManagedFieldsEntry, ObjectMeta, OwnerReference } from '../../machinery/objects.ts';
import { FieldError, field } from '../../machinery/errors.ts';
import { isDNS1123Label, isQualifiedName, isValidLabelValue, type NameValidator } from './names.ts';

export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;
export const FIELD_IMMUTABLE = 'field is immutable';
export const FIELD_MANAGER_MAX_LENGTH = 128;

/** A field error whose bad value is shown the way Go's `%#v` prints it (e.g. `0x0`, `[]string{"a"}`). */
export class GoValueFieldError extends FieldError {
  constructor(type: FieldError['type'], path: string, readonly rendered: string, detail: string) {
    super(type, path, detail, rendered, true);
  }

  override body(): string {
    const head = this.type === 'FieldValueInvalid' ? 'Invalid value' : this.type === 'FieldValueNotSupported' ? 'Unsupported value' : 'Forbidden';
    return `${head}: ${this.rendered}${this.detail ? `: ${this.detail}` : ''}`;
  }
}

/** Go's `%#v` of a []string. */
export function goStringSlice(values: readonly string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

export function validateLabels(labels: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const m of isQualifiedName(k)) errs.push(field.invalid(path, k, m));
    for (const m of isValidLabelValue(typeof v === 'string' ? v : String(v))) errs.push(field.invalid(path, v, m));
  }
  return errs;
}

export function validateAnnotations(annotations: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    // QualifiedName, except that case does not matter.
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(field.invalid(path, k, m));
    total += Buffer.byteLength(k) + Buffer.byteLength(typeof v === 'string' ? v : String(v));
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(field.tooLong(path, '', TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}

function validateOwnerReferences(refs: OwnerReference[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs ?? []) {
    const apiVersion = ref.apiVersion ?? '';
    const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
    const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
    if (!version) errs.push(field.invalid(`${path}.apiVersion`, apiVersion, 'version must not be empty'));
    if (!ref.kind) errs.push(field.invalid(`${path}.kind`, ref.kind ?? '', 'kind must not be empty'));
    if (!ref.name) errs.push(field.invalid(`${path}.name`, ref.name ?? '', 'name must not be empty'));
    if (!ref.uid) errs.push(field.invalid(`${path}.uid`, ref.uid ?? '', 'uid must not be empty'));
    if (group === '' && version === 'v1' && ref.kind === 'Event') {
      errs.push(field.invalid(path, ref, '/v1, Kind=Event is disallowed from being an owner'));
    }
    if (ref.controller === true) {
      const cur = `${ref.kind}/${ref.name}`;
      if (firstController) {
        errs.push(field.invalid(path, refs, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${cur}`));
      } else firstController = cur;
    }
  }
  return errs;
}

function validateFinalizers(finalizers: string[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of finalizers ?? []) for (const m of isQualifiedName(f)) errs.push(field.invalid(path, f, m));
  const list = finalizers ?? [];
  if (list.includes('orphan') && list.includes('foregroundDeletion')) {
    errs.push(new GoValueFieldError('FieldValueInvalid', path, goStringSlice(list), 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

export function validateFieldManager(manager: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (Buffer.byteLength(manager) > FIELD_MANAGER_MAX_LENGTH) errs.push(field.tooLong(path, '', FIELD_MANAGER_MAX_LENGTH));
  let i = 0;
  for (const ch of manager) {
    const cp = ch.codePointAt(0)!;
    // Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
    if (!(/[\p{L}\p{M}\p{N}\p{P}\p{S}]/u.test(ch) || cp === 0x20)) {
      errs.push(field.invalid(path, manager, `invalid character U+${cp.toString(16).toUpperCase().padStart(4, '0')} (at position ${i})`));
    }
    i += Buffer.byteLength(ch);
  }
  return errs;
}

function validateManagedFields(entries: ManagedFieldsEntry[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (entries ?? []).forEach((e, i) => {
    const p = `${path}[${i}]`;
    if (e.operation !== 'Apply' && e.operation !== 'Update') errs.push(field.invalid(`${p}.operation`, e.operation ?? '', 'must be `Apply` or `Update`'));
    if (e.fieldsType && e.fieldsType !== 'FieldsV1') errs.push(field.invalid(`${p}.fieldsType`, e.fieldsType, 'must be `FieldsV1`'));
    errs.push(...validateFieldManager(e.manager ?? '', `${p}.manager`));
    if (e.subresource && e.subresource.length > 256) errs.push(field.tooLong(`${p}.subresource`, '', 256));
  });
  return errs;
}

/** ValidateObjectMetaAccessor: run after name generation, with the resource's name rule. */
export function validateObjectMeta(meta: ObjectMeta, namespaced: boolean, nameFn: NameValidator): FieldError[] {
  const errs: FieldError[] = [];
  if (meta.generateName) for (const m of nameFn(meta.generateName, true)) errs.push(field.invalid('metadata.generateName', meta.generateName, m));
  if (!meta.name) errs.push(field.required('metadata.name', 'name or generateName is required'));
  else for (const m of nameFn(meta.name, false)) errs.push(field.invalid('metadata.name', meta.name, m));
  if (namespaced) {
    if (!meta.namespace) errs.push(field.required('metadata.namespace'));
    else for (const m of isDNS1123Label(meta.namespace)) errs.push(field.invalid('metadata.namespace', meta.namespace, m));
  } else if (meta.namespace) {
    errs.push(field.forbidden('metadata.namespace', 'not allowed on this type'));
  }
  if (typeof meta.generation === 'number' && meta.generation < 0) errs.push(field.invalid('metadata.generation', meta.generation, 'must be greater than or equal to 0'));
  errs.push(...validateLabels(meta.labels, 'metadata.labels'));
  errs.push(...validateAnnotations(meta.annotations, 'metadata.annotations'));
  errs.push(...validateOwnerReferences(meta.ownerReferences, 'metadata.ownerReferences'));
  errs.push(...validateFinalizers(meta.finalizers, 'metadata.finalizers'));
  errs.push(...validateManagedFields(meta.managedFields, 'metadata.managedFields'));
  return errs;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** ValidateObjectMetaAccessorUpdate (the create-time checks run separately via validateObjectMeta). */
export function validateObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta): FieldError[] {
  const errs: FieldError[] = [];
  if (old.deletionTimestamp) {
    const oldSet = new Set(old.finalizers ?? []);
    const extra = [...new Set((meta.finalizers ?? []).filter((f) => !oldSet.has(f)))].sort();
    if (extra.length) {
      errs.push(field.forbidden('metadata.finalizers', `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(extra)}`));
    }
  }
  if (!meta.resourceVersion) errs.push(field.invalid('metadata.resourceVersion', meta.resourceVersion ?? '', 'must be specified for an update'));
  if ((meta.generation ?? 0) < (old.generation ?? 0)) errs.push(field.invalid('metadata.generation', meta.generation ?? 0, 'must not be decremented'));
  const immutable: [keyof ObjectMeta, unknown][] = [
    ['name', meta.name ?? ''], ['namespace', meta.namespace ?? ''], ['uid', meta.uid ?? ''],
  ];
  for (const [k, v] of immutable) {
    if (v !== ((old[k] as string | undefined) ?? '')) errs.push(field.invalid(`metadata.${k}`, v, FIELD_IMMUTABLE));
  }
  if (!sameJson(meta.creationTimestamp, old.creationTimestamp)) errs.push(field.invalid('metadata.creationTimestamp', meta.creationTimestamp ?? null, FIELD_IMMUTABLE));
  if (!sameJson(meta.deletionTimestamp, old.deletionTimestamp)) errs.push(field.invalid('metadata.deletionTimestamp', meta.deletionTimestamp ?? null, FIELD_IMMUTABLE));
  if (!sameJson(meta.deletionGracePeriodSeconds, old.deletionGracePeriodSeconds)) {
    errs.push(field.invalid('metadata.deletionGracePeriodSeconds', meta.deletionGracePeriodSeconds ?? null, FIELD_IMMUTABLE));
  }
  errs.push(...validateLabels(meta.labels, 'metadata.labels'));
  errs.push(...validateAnnotations(meta.annotations, 'metadata.annotations'));
  errs.push(...validateOwnerReferences(meta.ownerReferences, 'metadata.ownerReferences'));
  errs.push(...validateManagedFields(meta.managedFields, 'metadata.managedFields'));
  return errs;
}
