/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition validation, after kube's
 * apiextensions/validation/validation.go (ValidateCustomResourceDefinition{,Update,Status}).
 *
 * kube validates the internal form: converting from v1 moves per-version schema, subresources,
 * additionalPrinterColumns and selectableFields that are identical in every version to the top level
 * (`spec.validation`, `spec.subresources`, …), so errors about them carry top-level paths — a single-version
 * CRD's schema errors read `spec.validation.openAPIV3Schema…`. `hoist` reproduces that.
 *
 * Schema checks (structural rules, defaults, CEL rules) come from src/apiextensions/schema through the
 * `schemaErrors` option (paths per version, `spec.versions[i].schema.openAPIV3Schema…`); they are re-pathed here.
 */
import type { KObject } from '../../machinery/objects.ts';
import { field, FieldError } from '../../machinery/errors.ts';
import { isDNS1035Label, isDNS1123Subdomain } from '../../machinery/validation/names.ts';
import { arr, goStringSlice, isObj, obj, RenderedFieldError, semanticEqual, str, type J } from './util.ts';

const PRINTER_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const PRINTER_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
export const MAX_SELECTABLE_FIELDS = 8;
const APPROVAL_ANNOTATION = 'api-approved.kubernetes.io';

export interface CrdValidationOptions {
  /** Schema errors for every version (src/apiextensions/schema validateCrdSchemas), per-version paths. */
  schemaErrors?: FieldError[];
}

/** The internal (hoisted) view of the per-version fields. */
interface Hoisted {
  schema: boolean;
  subresources: boolean;
  columns: boolean;
  selectable: boolean;
}

function identical(versions: J[], key: string): boolean {
  if (versions.length === 0) return false;
  const first = versions[0]![key];
  return versions.every((v) => semanticEqual(v[key], first) && (v[key] === undefined) === (first === undefined));
}

function hoist(versions: J[]): Hoisted {
  return {
    schema: identical(versions, 'schema'), subresources: identical(versions, 'subresources'),
    columns: identical(versions, 'additionalPrinterColumns'), selectable: identical(versions, 'selectableFields'),
  };
}

const join = (errs: string[]) => errs.join(',');

/** Go's %#v of the internal versions, as field.Invalid renders `spec.versions` (pointers shown by type). */
function renderVersions(versions: J[], h: Hoisted): string {
  const ptr = (set: boolean, t: string) => (set ? `(*apiextensions.${t})(0xc000000000)` : `(*apiextensions.${t})(nil)`);
  const items = versions.map((v) => {
    const dw = v['deprecationWarning'];
    return `apiextensions.CustomResourceDefinitionVersion{Name:${JSON.stringify(str(v['name']))}, Served:${v['served'] === true}, Storage:${v['storage'] === true}, `
      + `Deprecated:${v['deprecated'] === true}, DeprecationWarning:${typeof dw === 'string' ? '(*string)(0xc000000000)' : '(*string)(nil)'}, `
      + `Schema:${ptr(!h.schema && v['schema'] !== undefined, 'CustomResourceValidation')}, Subresources:${ptr(!h.subresources && v['subresources'] !== undefined, 'CustomResourceSubresources')}, `
      + `AdditionalPrinterColumns:${!h.columns && arr(v['additionalPrinterColumns']).length ? `[]apiextensions.CustomResourceColumnDefinition{...}` : '[]apiextensions.CustomResourceColumnDefinition(nil)'}, `
      + `SelectableFields:${!h.selectable && arr(v['selectableFields']).length ? '[]apiextensions.SelectableField{...}' : '[]apiextensions.SelectableField(nil)'}}`;
  });
  return `[]apiextensions.CustomResourceDefinitionVersion{${items.join(', ')}}`;
}

export function validateCrdNames(names: J, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const plural = str(names['plural']);
  const singular = str(names['singular']);
  const kind = str(names['kind']);
  const listKind = str(names['listKind']);
  if (plural && isDNS1035Label(plural).length) errs.push(field.invalid(`${path}.plural`, plural, join(isDNS1035Label(plural))));
  if (singular && isDNS1035Label(singular).length) errs.push(field.invalid(`${path}.singular`, singular, join(isDNS1035Label(singular))));
  if (kind && isDNS1035Label(kind.toLowerCase()).length) {
    errs.push(field.invalid(`${path}.kind`, kind, `may have mixed case, but should otherwise match: ${join(isDNS1035Label(kind.toLowerCase()))}`));
  }
  if (listKind && isDNS1035Label(listKind.toLowerCase()).length) {
    errs.push(field.invalid(`${path}.listKind`, listKind, `may have mixed case, but should otherwise match: ${join(isDNS1035Label(listKind.toLowerCase()))}`));
  }
  arr(names['shortNames']).forEach((s, i) => {
    const e = isDNS1035Label(str(s));
    if (e.length) errs.push(field.invalid(`${path}.shortNames[${i}]`, str(s), join(e)));
  });
  if (kind && kind === listKind) errs.push(field.invalid(`${path}.listKind`, listKind, 'kind and listKind may not be the same'));
  arr(names['categories']).forEach((c, i) => {
    const e = isDNS1035Label(str(c));
    if (e.length) errs.push(field.invalid(`${path}.categories[${i}]`, str(c), join(e)));
  });
  return errs;
}

function simpleJsonPath(s: string, path: string): FieldError[] {
  if (s.length === 0) return [field.invalid(path, s, 'must not be empty')];
  if (s[0] !== '.') return [field.invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

export function validateColumn(col: J, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(col['name'])) errs.push(field.required(`${path}.name`));
  const type = str(col['type']);
  if (!type) errs.push(field.required(`${path}.type`, `must be one of ${PRINTER_TYPES.join(',')}`));
  else if (!PRINTER_TYPES.includes(type)) errs.push(field.invalid(`${path}.type`, type, `must be one of ${PRINTER_TYPES.join(',')}`));
  const format = str(col['format']);
  if (format && !PRINTER_FORMATS.includes(format)) errs.push(field.invalid(`${path}.format`, format, `must be one of ${PRINTER_FORMATS.join(',')}`));
  const jp = str(col['jsonPath']);
  if (!jp) errs.push(field.required(`${path}.JSONPath`));
  else errs.push(...simpleJsonPath(jp, `${path}.JSONPath`));
  return errs;
}

function validateSubresources(sub: unknown, path: string): FieldError[] {
  if (!isObj(sub) || !isObj(sub['scale'])) return [];
  const scale = sub['scale'];
  const errs: FieldError[] = [];
  const spec = str(scale['specReplicasPath']);
  if (!spec) errs.push(field.required(`${path}.scale.specReplicasPath`));
  else {
    const e = simpleJsonPath(spec, `${path}.scale.specReplicasPath`);
    if (e.length) errs.push(...e);
    else if (!spec.startsWith('.spec.')) errs.push(field.invalid(`${path}.scale.specReplicasPath`, spec, 'should be a json path under .spec'));
  }
  const status = str(scale['statusReplicasPath']);
  if (!status) errs.push(field.required(`${path}.scale.statusReplicasPath`));
  else {
    const e = simpleJsonPath(status, `${path}.scale.statusReplicasPath`);
    if (e.length) errs.push(...e);
    else if (!status.startsWith('.status.')) errs.push(field.invalid(`${path}.scale.statusReplicasPath`, status, 'should be a json path under .status'));
  }
  const sel = str(scale['labelSelectorPath']);
  if (sel) {
    const e = simpleJsonPath(sel, `${path}.scale.labelSelectorPath`);
    if (e.length) errs.push(...e);
    else if (!sel.startsWith('.spec.') && !sel.startsWith('.status.')) {
      errs.push(field.invalid(`${path}.scale.labelSelectorPath`, sel, 'should be a json path under either .spec or .status'));
    }
  }
  return errs;
}

/** The schema node a selectable field's path points at (properties only: no array notation). */
function schemaAt(schema: J, jsonPath: string): { node?: J; error?: string } {
  if (!jsonPath.startsWith('.')) return { error: 'must start with a dot' };
  let cur: J = schema;
  for (const seg of jsonPath.slice(1).split('.')) {
    if (!seg || seg.includes('[')) return { error: `does not refer to a valid field` };
    const props = obj(cur['properties']);
    if (!isObj(props[seg])) return { error: `does not refer to a valid field` };
    cur = props[seg];
  }
  return { node: cur };
}

function validateSelectableFields(fields: unknown[], schema: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    const p = `${path}[${i}].jsonPath`;
    const jp = str(obj(f)['jsonPath']);
    if (!jp) {
      errs.push(field.required(p));
      return;
    }
    const found = schemaAt(obj(schema), jp);
    if (found.error) {
      errs.push(field.invalid(p, jp, `is an invalid path: ${found.error}`));
      return;
    }
    if (jp.split('.')[1] === 'metadata') errs.push(field.invalid(p, jp, 'must not point to fields in metadata'));
    if (!['string', 'boolean', 'integer'].includes(str(found.node!['type']))) {
      errs.push(field.invalid(p, jp, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    if (seen.has(jp)) errs.push(field.duplicate(p, jp));
    else seen.add(jp);
  });
  if (seen.size > MAX_SELECTABLE_FIELDS) {
    errs.push(new FieldError('FieldValueTooMany', path, `${seen.size}: must have at most ${MAX_SELECTABLE_FIELDS} items`));
  }
  return errs;
}

function deprecationWarningErrors(v: J): string[] {
  const w = v['deprecationWarning'];
  if (v['deprecated'] !== true && w !== undefined && w !== null) return ['can only be set for deprecated versions'];
  if (typeof w !== 'string') return [];
  const out: string[] = [];
  if (Buffer.byteLength(w) > 256) out.push('must be <= 256 characters long');
  if (w.length === 0) out.push('must not be an empty string');
  let byteIndex = 0;
  for (const ch of w) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) {
      out.push(`must only contain printable UTF-8 characters; non-printable character found at index ${byteIndex}`);
      break;
    }
    byteIndex += Buffer.byteLength(ch);
  }
  return out;
}

function schemaErrorsFor(all: FieldError[], prefix: string, to: string): FieldError[] {
  return all.filter((e) => e.field === prefix || e.field.startsWith(`${prefix}.`) || e.field.startsWith(`${prefix}[`))
    .map((e) => (to === prefix ? e : Object.assign(Object.create(Object.getPrototypeOf(e) as object) as FieldError, e, { field: to + e.field.slice(prefix.length) })));
}

function validateConversion(conv: unknown, path: string): FieldError[] {
  if (!isObj(conv)) return [];
  const errs: FieldError[] = [];
  const strategy = str(conv['strategy']);
  if (!strategy) errs.push(field.required(`${path}.strategy`));
  else if (strategy !== 'None' && strategy !== 'Webhook') errs.push(field.notSupported(`${path}.strategy`, strategy, ['None', 'Webhook']));
  const webhook = conv['webhook'];
  if (strategy === 'Webhook') {
    const cc = isObj(webhook) ? webhook['clientConfig'] : undefined;
    if (!isObj(cc)) errs.push(field.required(`${path}.webhookClientConfig`, 'required when strategy is set to Webhook'));
    else if ((cc['url'] === undefined) === (cc['service'] === undefined)) {
      errs.push(field.required(`${path}.webhookClientConfig`, 'exactly one of url or service is required'));
    } else if (typeof cc['url'] === 'string') {
      const url = cc['url'];
      let u: URL | undefined;
      try {
        u = new URL(url);
      } catch { /* reported below */ }
      if (!u) errs.push(field.invalid(`${path}.webhookClientConfig.url`, url, 'host must be specified'));
      else if (u.protocol !== 'https:') errs.push(field.invalid(`${path}.webhookClientConfig.url`, url, "'https' is the only allowed URL scheme"));
    } else if (isObj(cc['service'])) {
      const svc = cc['service'];
      if (!str(svc['name'])) errs.push(field.required(`${path}.webhookClientConfig.service.name`, 'service name is required'));
      if (!str(svc['namespace'])) errs.push(field.required(`${path}.webhookClientConfig.service.namespace`, 'service namespace is required'));
    }
    const crv = arr(isObj(webhook) ? webhook['conversionReviewVersions'] : undefined).map(str);
    if (crv.length === 0) errs.push(field.required(`${path}.conversionReviewVersions`));
    else if (!crv.some((v) => v === 'v1' || v === 'v1beta1')) {
      errs.push(new RenderedFieldError('FieldValueInvalid', `${path}.conversionReviewVersions`, goStringSlice(crv), 'must include at least one of v1, v1beta1'));
    }
  } else if (isObj(webhook)) {
    if (webhook['clientConfig'] !== undefined) errs.push(field.forbidden(`${path}.webhookClientConfig`, 'should not be set when strategy is not set to Webhook'));
    if (arr(webhook['conversionReviewVersions']).length) errs.push(field.forbidden(`${path}.conversionReviewVersions`, 'should not be set when strategy is not set to Webhook'));
  }
  return errs;
}

function validateSpec(spec: J, o: CrdValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const group = str(spec['group']);
  if (!group) errs.push(field.required('spec.group'));
  else if (isDNS1123Subdomain(group).length) errs.push(field.invalid('spec.group', group, join(isDNS1123Subdomain(group))));
  else if (group.split('.').length < 2) errs.push(field.invalid('spec.group', group, 'should be a domain with at least one dot'));
  const scope = str(spec['scope']);
  if (!scope) errs.push(field.required('spec.scope'));
  else if (scope !== 'Cluster' && scope !== 'Namespaced') errs.push(field.notSupported('spec.scope', scope, ['Cluster', 'Namespaced']));

  const versions = arr(spec['versions']).map(obj);
  const h = hoist(versions);
  const schemaErrs = o.schemaErrors ?? [];
  if (!h.schema || versions[0]?.['schema'] === undefined) {
    versions.forEach((v, i) => {
      if (!isObj(obj(v['schema'])['openAPIV3Schema'])) errs.push(field.required(`spec.versions[${i}].schema.openAPIV3Schema`));
    });
  }
  let storage = 0;
  const names = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    const p = `spec.versions[${i}]`;
    const name = str(v['name']);
    if (v['storage'] === true) storage++;
    if (names.has(name)) unique = false;
    else names.add(name);
    if (isDNS1035Label(name).length) errs.push(field.invalid(`${p}.name`, name, join(isDNS1035Label(name))));
    for (const m of deprecationWarningErrors(v)) errs.push(field.invalid(`${p}.deprecationWarning`, v['deprecationWarning'] ?? null, m));
    if (!h.schema) errs.push(...schemaErrorsFor(schemaErrs, `${p}.schema`, `${p}.schema`));
    if (!h.subresources) errs.push(...validateSubresources(v['subresources'], `${p}.subresources`));
    if (!h.columns) arr(v['additionalPrinterColumns']).forEach((c, j) => errs.push(...validateColumn(obj(c), `${p}.additionalPrinterColumns[${j}]`)));
    if (!h.selectable && arr(v['selectableFields']).length) {
      const sch = obj(v['schema'])['openAPIV3Schema'];
      if (!isObj(sch)) errs.push(field.invalid(`${p}.selectableFields`, '', 'may only be set when `version.schema.openAPIV3Schema` is not included'));
      else errs.push(...validateSelectableFields(arr(v['selectableFields']), sch, `${p}.selectableFields`));
    }
  });
  if (!unique) errs.push(new RenderedFieldError('FieldValueInvalid', 'spec.versions', renderVersions(versions, h), 'must contain unique version names'));
  if (storage !== 1) errs.push(new RenderedFieldError('FieldValueInvalid', 'spec.versions', renderVersions(versions, h), 'must have exactly one version marked as storage version'));
  // The internal spec.version is versions[0].name, validated once more.
  if (versions.length > 0) {
    const first = str(versions[0]!['name']);
    if (first && isDNS1035Label(first).length) errs.push(field.invalid('spec.version', first, join(isDNS1035Label(first))));
  }

  const n = obj(spec['names']);
  if (!str(n['plural'])) errs.push(field.required('spec.names.plural'));
  if (!str(n['singular'])) errs.push(field.required('spec.names.singular'));
  if (!str(n['kind'])) errs.push(field.required('spec.names.kind'));
  if (!str(n['listKind'])) errs.push(field.required('spec.names.listKind'));
  errs.push(...validateCrdNames(n, 'spec.names'));

  if (h.schema && versions.length) errs.push(...schemaErrorsFor(schemaErrs, 'spec.versions[0].schema', 'spec.validation'));
  if (h.subresources && versions.length) errs.push(...validateSubresources(versions[0]!['subresources'], 'spec.subresources'));
  if (h.columns && versions.length) arr(versions[0]!['additionalPrinterColumns']).forEach((c, j) => errs.push(...validateColumn(obj(c), `spec.additionalPrinterColumns[${j}]`)));
  if (h.selectable && versions.length && arr(versions[0]!['selectableFields']).length) {
    const sch = obj(versions[0]!['schema'])['openAPIV3Schema'];
    if (!h.schema || !isObj(sch)) errs.push(field.invalid('spec.selectableFields', '', 'may only be set when validations.schema is included'));
    else errs.push(...validateSelectableFields(arr(versions[0]!['selectableFields']), sch, 'spec.selectableFields'));
  }
  errs.push(...validateConversion(spec['conversion'], 'spec.conversion'));
  return errs;
}

export function validateStoredVersions(stored: string[], versions: J[]): FieldError[] {
  const path = 'status.storedVersions';
  if (stored.length === 0) return [new RenderedFieldError('FieldValueInvalid', path, goStringSlice(stored), 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const left = new Map(stored.map((v, i) => [v, i]));
  for (const v of versions) {
    const name = str(v['name']);
    if (v['storage'] === true && !left.has(name)) errs.push(new RenderedFieldError('FieldValueInvalid', path, goStringSlice(stored), `must have the storage version ${name}`));
    left.delete(name);
  }
  for (const [v, i] of left) {
    errs.push(field.invalid(`${path}[${i}]`, v, `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`));
  }
  return errs;
}

function approvalState(annotations: Record<string, string> | undefined): { state: 'missing' | 'bypassed' | 'approved' | 'invalid'; reason: string } {
  const a = annotations?.[APPROVAL_ANNOTATION] ?? '';
  if (!a) return { state: 'missing', reason: `protected groups must have approval annotation "${APPROVAL_ANNOTATION}", see https://github.com/kubernetes/enhancements/pull/1111` };
  if (a.startsWith('unapproved')) return { state: 'bypassed', reason: `not approved: ${JSON.stringify(a)}` };
  try {
    const u = new URL(a);
    if (u.host && u.protocol) return { state: 'approved', reason: `approved in ${a}` };
  } catch { /* invalid */ }
  return { state: 'invalid', reason: `protected groups must have approval annotation "${APPROVAL_ANNOTATION}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111` };
}

export function isProtectedCommunityGroup(group: string): boolean {
  return group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
}

/** The KubernetesAPIApprovalPolicyConformant state kube's apiapproval controller reports. */
export function apiApprovalState(crd: KObject): { state: 'missing' | 'bypassed' | 'approved' | 'invalid'; reason: string } {
  return approvalState(crd.metadata.annotations);
}

function validateApproval(crd: KObject, old: KObject | undefined): FieldError[] {
  if (!isProtectedCommunityGroup(str(obj(crd['spec'])['group']))) return [];
  const next = approvalState(crd.metadata.annotations);
  if (old && approvalState(old.metadata.annotations).state === next.state) return [];
  const path = `metadata.annotations[${APPROVAL_ANNOTATION}]`;
  if (next.state === 'missing') return [field.required(path, next.reason)];
  if (next.state === 'invalid') return [field.invalid(path, crd.metadata.annotations?.[APPROVAL_ANNOTATION] ?? '', next.reason)];
  return [];
}

function validatePreserveUnknownFields(crd: KObject, old: KObject | undefined): FieldError[] {
  if (old && obj(old['spec'])['preserveUnknownFields'] === true) return [];
  if (obj(crd['spec'])['preserveUnknownFields'] === true) {
    return [field.invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead')];
  }
  return [];
}

function validateStatus(crd: KObject): FieldError[] {
  return validateCrdNames(obj(obj(crd['status'])['acceptedNames']), 'status.acceptedNames');
}

/** ValidateCustomResourceDefinition (the generic store validates the rest of metadata itself). */
export function validateCrd(crd: KObject, o: CrdValidationOptions = {}): FieldError[] {
  const spec = obj(crd['spec']);
  const errs: FieldError[] = [];
  const name = crd.metadata.name ?? '';
  const required = `${str(obj(spec['names'])['plural'])}.${str(spec['group'])}`;
  if (name && name !== required) errs.push(field.invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  errs.push(...validateSpec(spec, o));
  errs.push(...validateStatus(crd));
  errs.push(...validateStoredVersions(arr(obj(crd['status'])['storedVersions']).map(str), arr(spec['versions']).map(obj)));
  errs.push(...validateApproval(crd, undefined));
  errs.push(...validatePreserveUnknownFields(crd, undefined));
  return errs;
}

const established = (crd: KObject) => arr(obj(crd['status'])['conditions']).some((c) => obj(c)['type'] === 'Established' && obj(c)['status'] === 'True');

/** ValidateCustomResourceDefinitionUpdate. */
export function validateCrdUpdate(crd: KObject, old: KObject, o: CrdValidationOptions = {}): FieldError[] {
  const spec = obj(crd['spec']);
  const oldSpec = obj(old['spec']);
  const errs = validateSpec(spec, o);
  const immutable = (a: unknown, b: unknown, p: string) => {
    if (!semanticEqual(a, b)) errs.push(field.invalid(p, a, 'field is immutable'));
  };
  if (established(old)) {
    immutable(spec['scope'], oldSpec['scope'], 'spec.scope');
    immutable(obj(spec['names'])['kind'], obj(oldSpec['names'])['kind'], 'spec.names.kind');
  }
  immutable(spec['group'], oldSpec['group'], 'spec.group');
  immutable(obj(spec['names'])['plural'], obj(oldSpec['names'])['plural'], 'spec.names.plural');
  errs.push(...validateStatus(crd));
  errs.push(...validateStoredVersions(arr(obj(crd['status'])['storedVersions']).map(str), arr(spec['versions']).map(obj)));
  errs.push(...validateApproval(crd, old));
  errs.push(...validatePreserveUnknownFields(crd, old));
  return errs;
}

/** ValidateUpdateCustomResourceDefinitionStatus (metadata is the generic store's). */
export function validateCrdStatusUpdate(crd: KObject): FieldError[] {
  return validateStatus(crd);
}
