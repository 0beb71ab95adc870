/**
 * "Is this schema structural?" (kube's pkg/apiserver/schema/validation.go and complete.go), on the raw
 * JSONSchemaProps: every field has a type (or int-or-string / preserve-unknown), arrays have items,
 * allOf/anyOf/oneOf/not only restate value validations of fields the structural part specifies (no type,
 * description, default, nullable, x-kubernetes-* in there), metadata at a resource root limited to name
 * and generateName. Errors come back sorted by their text, as kube sorts them.
 */
import { field, type FieldError } from '../../machinery/errors.ts';
import { childPath, indexPath, isObject, keyPath, type JSONSchemaProps } from './types.ts';
import { compilePattern } from './value-validation.ts';
import { RE2JS } from '@bufbuild/re2';

type Level = 'root' | 'item' | 'field';

export function validateStructural(root: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  invariants(root, 'root', path, errs);
  completeness(root, root, path, path, errs);
  return errs.sort((a, b) => (a.toString() < b.toString() ? -1 : a.toString() > b.toString() ? 1 : 0));
}

function props(p: JSONSchemaProps): [string, JSONSchemaProps][] {
  return isObject(p.properties) ? Object.entries(p.properties).filter(([, v]) => isObject(v)) : [];
}

function itemsOf(p: JSONSchemaProps): JSONSchemaProps | undefined {
  return isObject(p.items) ? (p.items as JSONSchemaProps) : undefined;
}

function isIntOrStringPair(list: unknown): boolean {
  if (!Array.isArray(list) || list.length !== 2) return false;
  const [a, b] = list as JSONSchemaProps[];
  const only = (x: JSONSchemaProps | undefined, t: string) => isObject(x) && Object.keys(x).length === 1 && x.type === t;
  return only(a, 'integer') && only(b, 'string');
}

function invariants(s: JSONSchemaProps, lvl: Level, path: string, errs: FieldError[]): void {
  const type = typeof s.type === 'string' ? s.type : '';
  const items = itemsOf(s);
  if (type === 'array' && !items) errs.push(field.required(childPath(path, 'items'), 'must be specified'));
  if (items) invariants(items, 'item', childPath(path, 'items'), errs);
  for (const [k, v] of props(s)) invariants(v, 'field', keyPath(childPath(path, 'properties'), k), errs);
  if (s.additionalProperties !== undefined && s.additionalProperties !== false) {
    if (lvl === 'root') errs.push(field.forbidden(childPath(path, 'additionalProperties'), 'must not be used at the root'));
    if (isObject(s.additionalProperties)) invariants(s.additionalProperties as JSONSchemaProps, 'field', childPath(path, 'additionalProperties'), errs);
  }
  const ios = s['x-kubernetes-int-or-string'] === true;
  const pruf = s['x-kubernetes-preserve-unknown-fields'] === true;
  const emb = s['x-kubernetes-embedded-resource'] === true;
  if (ios && pruf) errs.push(field.invalid(childPath(path, 'x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  if (ios && emb) errs.push(field.invalid(childPath(path, 'x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));
  const skipAnyOf = isIntOrStringPair(s.anyOf);
  const skipFirstAllOfAnyOf = Array.isArray(s.allOf) && s.allOf.length >= 1 && isIntOrStringPair(s.allOf[0]?.anyOf);
  valueValidation(s, skipAnyOf, skipFirstAllOfAnyOf, path, errs);
  const checkMetadata = lvl === 'root' || emb;
  if (emb && type !== 'object') {
    if (type === '') errs.push(field.required(childPath(path, 'type'), 'must be object if x-kubernetes-embedded-resource is true'));
    else errs.push(field.invalid(childPath(path, 'type'), type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (type === '' && !ios && !pruf) {
    const msg = lvl === 'root' ? 'must not be empty at the root' : lvl === 'item' ? 'must not be empty for specified array items' : 'must not be empty for specified object fields';
    errs.push(field.required(childPath(path, 'type'), msg));
  }
  if (emb && s.additionalProperties !== undefined && s.additionalProperties !== false) {
    errs.push(field.forbidden(childPath(path, 'additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (lvl === 'root' && type !== '' && type !== 'object') errs.push(field.invalid(childPath(path, 'type'), type, 'must be object at the root'));
  const p = isObject(s.properties) ? s.properties : {};
  const pp = keyPath.bind(null, childPath(path, 'properties'));
  if (checkMetadata && isObject(p.kind) && p.kind.type !== 'string') errs.push(field.invalid(childPath(pp('kind'), 'type'), p.kind.type ?? '', 'must be string'));
  if (checkMetadata && isObject(p.apiVersion) && p.apiVersion.type !== 'string') errs.push(field.invalid(childPath(pp('apiVersion'), 'type'), p.apiVersion.type ?? '', 'must be string'));
  if (isObject(p.metadata)) metadataInvariants(p.metadata, checkMetadata, lvl, pp('metadata'), errs);
  if (emb && !pruf && props(s).length === 0) {
    errs.push(field.required(childPath(path, 'properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
}

/** Go's zero values count as unset (kube compares the struct with reflect.DeepEqual). */
function isZero(v: unknown): boolean {
  return v === undefined || v === false || v === '' || v === null || (Array.isArray(v) && v.length === 0);
}

function metadataInvariants(m: JSONSchemaProps, checkMetadata: boolean, lvl: Level, path: string, errs: FieldError[]): void {
  if (checkMetadata && m.type !== 'object') errs.push(field.invalid(childPath(path, 'type'), m.type ?? '', 'must be object'));
  if (lvl !== 'root') return;
  const rest: Record<string, unknown> = { ...m };
  delete rest.type;
  delete rest.default;
  if (isObject(m.properties)) {
    const keys = Object.keys(m.properties);
    if (keys.length > 0 && keys.length <= 2 && keys.every((k) => k === 'name' || k === 'generateName')) delete rest.properties;
  }
  if (Object.values(rest).some((v) => !isZero(v) && !(isObject(v) && Object.keys(v).length === 0))) {
    errs.push(field.forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  }
}

function valueValidation(v: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, path: string, errs: FieldError[]): void {
  if (!skipAnyOf && Array.isArray(v.anyOf)) v.anyOf.forEach((a, i) => nested(a, false, indexPath(childPath(path, 'anyOf'), i), errs));
  if (Array.isArray(v.allOf)) v.allOf.forEach((a, i) => nested(a, skipFirstAllOfAnyOf && i === 0, indexPath(childPath(path, 'allOf'), i), errs));
  if (Array.isArray(v.oneOf)) v.oneOf.forEach((a, i) => nested(a, false, indexPath(childPath(path, 'oneOf'), i), errs));
  if (isObject(v.not)) nested(v.not, false, childPath(path, 'not'), errs);
  if (typeof v.pattern === 'string' && v.pattern !== '' && compilePattern(v.pattern) === null) {
    let why = 'invalid pattern';
    try {
      RE2JS.compile(v.pattern);
    } catch (e) {
      why = e instanceof Error ? e.message : String(e);
    }
    errs.push(field.invalid(childPath(path, 'pattern'), v.pattern, `must be a valid regular expression, but isn't: ${why}`));
  }
}

const FORBIDDEN_NESTED: [keyof JSONSchemaProps, string][] = [
  ['default', 'must be undefined to be structural'],
  ['title', 'must be empty to be structural'],
  ['description', 'must be empty to be structural'],
  ['nullable', 'must be false to be structural'],
  ['x-kubernetes-preserve-unknown-fields', 'must be false to be structural'],
  ['x-kubernetes-embedded-resource', 'must be false to be structural'],
  ['x-kubernetes-int-or-string', 'must be false to be structural'],
  ['x-kubernetes-list-map-keys', 'must be empty to be structural'],
  ['x-kubernetes-list-type', 'must be undefined to be structural'],
  ['x-kubernetes-map-type', 'must be undefined to be structural'],
  ['x-kubernetes-validations', 'must be empty to be structural'],
];

function nested(v: JSONSchemaProps, skipAnyOf: boolean, path: string, errs: FieldError[]): void {
  if (!isObject(v)) return;
  valueValidation(v, skipAnyOf, false, path, errs);
  const items = itemsOf(v);
  if (items) nested(items, false, childPath(path, 'items'), errs);
  for (const [k, f] of props(v)) nested(f, false, keyPath(childPath(path, 'properties'), k), errs);
  if (typeof v.type === 'string' && v.type !== '') errs.push(field.forbidden(childPath(path, 'type'), 'must be empty to be structural'));
  if (v.additionalProperties !== undefined) errs.push(field.forbidden(childPath(path, 'additionalProperties'), 'must be undefined to be structural'));
  for (const [k, msg] of FORBIDDEN_NESTED) {
    const x = v[k];
    const set = k === 'default' ? x !== undefined && x !== null : k === 'x-kubernetes-list-type' || k === 'x-kubernetes-map-type' ? x !== undefined : !isZero(x);
    if (set) errs.push(field.forbidden(childPath(path, k), msg));
  }
  if (isObject(v.properties) && 'metadata' in v.properties) {
    errs.push(field.forbidden(keyPath(childPath(path, 'properties'), 'metadata'), 'must not be specified in a nested context'));
  }
}

/** Value validations may only speak of fields the structural part specifies. */
function completeness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string, errs: FieldError[]): void {
  if (isObject(v.not)) nestedCompleteness(v.not, s, sPath, childPath(vPath, 'not'), errs);
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    const arr = v[k];
    if (Array.isArray(arr)) arr.forEach((a, i) => nestedCompleteness(a, s, sPath, indexPath(childPath(vPath, k), i), errs));
  }
  if (s === v) {
    // Recurse into the structural part itself so nested value validations are checked too.
    const items = itemsOf(s);
    if (items) completeness(items, items, childPath(sPath, 'items'), childPath(vPath, 'items'), errs);
    for (const [k, f] of props(s)) completeness(f, f, keyPath(childPath(sPath, 'properties'), k), keyPath(childPath(vPath, 'properties'), k), errs);
    if (isObject(s.additionalProperties)) {
      const ap = s.additionalProperties as JSONSchemaProps;
      completeness(ap, ap, childPath(sPath, 'additionalProperties'), childPath(vPath, 'additionalProperties'), errs);
    }
  }
}

function nestedCompleteness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string, errs: FieldError[]): void {
  if (!isObject(v)) return;
  if (!s) {
    errs.push(field.required(sPath, `because it is defined in ${vPath}`));
    return;
  }
  completeness(v, s, sPath, vPath, errs);
  const vi = itemsOf(v);
  if (vi) nestedCompleteness(vi, itemsOf(s), childPath(sPath, 'items'), childPath(vPath, 'items'), errs);
  const sp = isObject(s.properties) ? s.properties : {};
  for (const [k, f] of props(v)) {
    nestedCompleteness(f, isObject(sp[k]) ? sp[k] : undefined, keyPath(childPath(sPath, 'properties'), k), keyPath(childPath(vPath, 'properties'), k), errs);
  }
}
