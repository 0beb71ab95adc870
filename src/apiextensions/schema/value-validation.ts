/**
 * OpenAPI value validation of a custom resource against its version's schema, as kube-apiserver runs it
 * (kube-openapi's validate package, errors turned into field errors by apiextensions-apiserver
 * pkg/apiserver/validation/validation.go): per schema node, in kube-openapi's order, type → allOf/anyOf/
 * oneOf/not → string length/pattern → format → number bounds → list size/uniqueness → enum → object
 * properties/required. Messages keep kube's wording, e.g.
 *   `spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`.
 *
 * Ratcheting (CRDValidationRatcheting, on in 1.33): on update, a node whose value equals the correlated old
 * value is not validated at all. Correlation follows object fields, map keys and `listType=map` keys;
 * atomic lists correlate only as a whole.
 */
import { RE2JS } from '@bufbuild/re2';
import { FieldError, field, type StatusCause } from '../../machinery/errors.ts';
import { checkedFormat, formatValid } from './formats.ts';
import { isObject, jsonEqual, type JSONSchemaProps } from './types.ts';

/** The old value correlated with the node being validated (present only on update). */
export interface Correlated {
  readonly value: unknown;
}

const patternCache = new Map<string, RE2JS | null>();

/** Compiles an RE2 pattern once; null when it does not compile. */
export function compilePattern(p: string): RE2JS | null {
  let re = patternCache.get(p);
  if (re === undefined) {
    try {
      re = RE2JS.compile(p);
    } catch {
      re = null;
    }
    if (patternCache.size < 5000) patternCache.set(p, re);
  }
  return re;
}

/** JSON type name of a value as kube-openapi reports it (`integer` for whole numbers). */
export function jsonTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(t: string, v: unknown): boolean {
  switch (t) {
    case 'object': return isObject(v);
    case 'array': return Array.isArray(v);
    case 'string': return typeof v === 'string';
    case 'integer': return typeof v === 'number' && Number.isInteger(v);
    case 'number': return typeof v === 'number';
    case 'boolean': return typeof v === 'boolean';
    default: return true;
  }
}

/** Go's %v for a float64 as kube-openapi prints bounds. */
function goNum(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const s = String(n);
  return s.replace(/e\+?(-?)(\d)$/, (_, sign: string, d: string) => `e${sign || '+'}0${d}`);
}

/** apimachinery's TypeInvalid: worded as Invalid, with its own cause reason (`FieldValueTypeInvalid`). */
export class TypeInvalidError extends FieldError {
  constructor(path: string, value: unknown, detail: string) {
    super('FieldValueInvalid', path, detail, value, true);
  }

  override toCause(): StatusCause {
    return { ...super.toCause(), reason: 'FieldValueTypeInvalid' };
  }
}

function typeInvalid(path: string, value: unknown, detail: string): FieldError {
  return new TypeInvalidError(path, value, detail);
}

/** kube-openapi's subject: `spec.x in body`, or just `in body` at the root of the validated value. */
function inBody(path: string): string {
  return path ? `${path} in body` : 'in body';
}

function invalid(path: string, value: unknown, msg: string): FieldError {
  return field.invalid(path, value, `${inBody(path)} ${msg}`);
}

function runeLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Validates `value` at `path` against `s`; `old` is the correlated old value for ratcheting. */
export function validateValue(value: unknown, s: JSONSchemaProps, path: string, old?: Correlated): FieldError[] {
  const errs: FieldError[] = [];
  validateNode(value, s, path, old, errs);
  // Errors about the validated value itself have a nil path in kube, printed `<nil>`.
  return errs.map((e) => (e.field !== '' ? e : e instanceof TypeInvalidError ? new TypeInvalidError(NIL, e.value, e.detail) : new FieldError(e.type, NIL, e.detail, e.value, e.hasValue)));
}

const NIL = '<nil>';

function validateNode(v: unknown, s: JSONSchemaProps, path: string, old: Correlated | undefined, errs: FieldError[]): void {
  if (old !== undefined && jsonEqual(old.value, v)) return;
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const type = intOrString ? '' : (s.type ?? '');
  // 1. type
  if (v === null) {
    if (s.nullable === true) return;
    if (type || intOrString) {
      const t = intOrString ? 'integer,string' : type;
      errs.push(typeInvalid(path, 'null', `${inBody(path)} must be of type ${t}: "null"`));
      return;
    }
  } else if (intOrString) {
    if (!(typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v)))) {
      errs.push(typeInvalid(path, jsonTypeName(v), `${inBody(path)} must be of type integer,string: "${jsonTypeName(v)}"`));
      return;
    }
  } else if (type && !typeMatches(type, v)) {
    errs.push(typeInvalid(path, jsonTypeName(v), `${inBody(path)} must be of type ${type}: "${jsonTypeName(v)}"`));
    return;
  }
  // 2. allOf / anyOf / oneOf / not (no ratcheting inside: they judge the value as a whole)
  if (Array.isArray(s.allOf) && s.allOf.length > 0) {
    const sub: FieldError[] = [];
    let ok = 0;
    for (const a of s.allOf) {
      const e = validateNode0(v, a, path);
      if (e.length === 0) ok++;
      sub.push(...e);
    }
    if (ok !== s.allOf.length) {
      errs.push(invalid(path, '', `must validate all the schemas (allOf)${ok === 0 ? '. None validated' : ''}`));
      errs.push(...sub);
    }
  }
  // anyOf/oneOf: when nothing matches, kube-openapi also reports the errors of the closest alternative
  // (here: the one with the fewest errors, the first on ties).
  if (Array.isArray(s.anyOf) && s.anyOf.length > 0) {
    const results = s.anyOf.map((a) => validateNode0(v, a, path));
    if (!results.some((r) => r.length === 0)) {
      errs.push(invalid(path, '', 'must validate at least one schema (anyOf)'));
      errs.push(...closest(results));
    }
  }
  if (Array.isArray(s.oneOf) && s.oneOf.length > 0) {
    const results = s.oneOf.map((a) => validateNode0(v, a, path));
    const n = results.filter((r) => r.length === 0).length;
    if (n !== 1) {
      errs.push(invalid(path, '', `must validate one and only one schema (oneOf). ${n === 0 ? 'Found none valid' : `Found ${n} valid alternatives`}`));
      if (n === 0) errs.push(...closest(results));
    }
  }
  if (isObject(s.not) && validateNode0(v, s.not, path).length === 0) {
    errs.push(invalid(path, '', 'must not validate the schema (not)'));
  }
  // 3. string
  if (typeof v === 'string') {
    if (typeof s.maxLength === 'number' && runeLength(v) > s.maxLength) errs.push(tooLong(path, s.maxLength));
    if (typeof s.minLength === 'number' && runeLength(v) < s.minLength) errs.push(invalid(path, v, `should be at least ${s.minLength} chars long`));
    if (typeof s.pattern === 'string' && s.pattern !== '') {
      const re = compilePattern(s.pattern);
      if (re && !re.test(v)) errs.push(invalid(path, v, `should match '${s.pattern}'`));
    }
    // 4. format
    const f = checkedFormat(intOrString ? 'string' : s.type, s.format);
    if (f && !formatValid(f, v)) errs.push(typeInvalid(path, v, `${inBody(path)} must be of type ${s.format}: ${JSON.stringify(v)}`));
  }
  // 5. number
  if (typeof v === 'number') {
    if (typeof s.multipleOf === 'number' && s.multipleOf > 0) {
      const q = v / s.multipleOf;
      if (Math.abs(q - Math.round(q)) > 1e-9) errs.push(invalid(path, v, `should be a multiple of ${goNum(s.multipleOf)}`));
    }
    if (typeof s.maximum === 'number') {
      if (s.exclusiveMaximum === true ? v >= s.maximum : v > s.maximum) {
        errs.push(invalid(path, v, `should be less than ${s.exclusiveMaximum === true ? '' : 'or equal to '}${goNum(s.maximum)}`));
      }
    }
    if (typeof s.minimum === 'number') {
      if (s.exclusiveMinimum === true ? v <= s.minimum : v < s.minimum) {
        errs.push(invalid(path, v, `should be greater than ${s.exclusiveMinimum === true ? '' : 'or equal to '}${goNum(s.minimum)}`));
      }
    }
  }
  // 6. lists
  if (Array.isArray(v)) {
    if (typeof s.minItems === 'number' && v.length < s.minItems) errs.push(invalid(path, v.length, `should have at least ${s.minItems} items`));
    if (typeof s.maxItems === 'number' && v.length > s.maxItems) errs.push(tooMany(path, v.length, s.maxItems));
    if (s.uniqueItems === true && hasDuplicates(v)) errs.push(invalid(path, '', "shouldn't contain duplicates"));
    if (isObject(s.items)) {
      const items = s.items as JSONSchemaProps;
      const oldList = old !== undefined && Array.isArray(old.value) ? old.value : undefined;
      const correlate = oldList ? listCorrelator(s, oldList) : undefined;
      v.forEach((item, i) => {
        validateNode(item, items, `${path}[${i}]`, correlate?.(item), errs);
      });
    }
  }
  // 7. enum
  if (Array.isArray(s.enum) && s.enum.length > 0 && !s.enum.some((e) => jsonEqual(e, v))) {
    errs.push(field.notSupported(path, v, s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)))));
  }
  // 8. objects
  if (isObject(v)) {
    const n = Object.keys(v).length;
    if (typeof s.maxProperties === 'number' && n > s.maxProperties) errs.push(tooMany(path, n, s.maxProperties));
    if (typeof s.minProperties === 'number' && n < s.minProperties) errs.push(invalid(path, n, `should have at least ${s.minProperties} properties`));
    if (Array.isArray(s.required)) {
      for (const r of s.required) if (!(r in v)) errs.push(field.required(path ? `${path}.${r}` : r, ''));
    }
    const oldObj = old !== undefined && isObject(old.value) ? old.value : undefined;
    const props = isObject(s.properties) ? s.properties : undefined;
    const ap = isObject(s.additionalProperties) ? (s.additionalProperties as JSONSchemaProps) : undefined;
    for (const [k, cv] of Object.entries(v)) {
      const ps = props?.[k] ?? ap;
      if (!ps) continue;
      const co = oldObj && k in oldObj ? { value: oldObj[k] } : undefined;
      validateNode(cv, ps, path ? `${path}.${k}` : k, co, errs);
    }
  }
}

/** The same errors with `prefix` put before each field path (messages keep the relative path, as kube's). */
export function underPath(errs: FieldError[], prefix: string): FieldError[] {
  if (!prefix) return errs;
  return errs.map((e) => {
    const rel = e.field === NIL ? '' : e.field;
    const p = rel ? (rel.startsWith('[') ? `${prefix}${rel}` : `${prefix}.${rel}`) : prefix;
    return e instanceof TypeInvalidError ? new TypeInvalidError(p, e.value, e.detail) : new FieldError(e.type, p, e.detail, e.value, e.hasValue);
  });
}

/** Validation of a value against a sub-schema (allOf/anyOf/oneOf member), paths kept as they are. */
function validateNode0(v: unknown, s: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  validateNode(v, s, path, undefined, errs);
  return errs;
}

function closest(results: FieldError[][]): FieldError[] {
  let best = results[0] ?? [];
  for (const r of results) if (r.length < best.length) best = r;
  return best;
}

/** apimachinery's TooMany, whose body carries the actual count: `Too many: 5: must have at most 3 items`. */
export function tooMany(path: string, actual: number, max: number): FieldError {
  return new FieldError('FieldValueTooMany', path, `${actual}: must have at most ${max} ${max === 1 ? 'item' : 'items'}`);
}

/** apimachinery's TooLong (`may not be more than 1 byte` / `… 5 bytes`). */
export function tooLong(path: string, max: number): FieldError {
  return new FieldError('FieldValueTooLong', path, `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}`);
}

function hasDuplicates(v: unknown[]): boolean {
  const seen = new Set<string>();
  for (const x of v) {
    const k = stableKey(x);
    if (seen.has(k)) return true;
    seen.add(k);
  }
  return false;
}

/** A canonical string for a JSON value (object keys sorted), for set membership. */
export function stableKey(x: unknown): string {
  if (x === null || typeof x !== 'object') return JSON.stringify(x) ?? 'undefined';
  if (Array.isArray(x)) return `[${x.map(stableKey).join(',')}]`;
  const o = x as Record<string, unknown>;
  return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${stableKey(o[k])}`).join(',')}}`;
}

/**
 * Correlates new list items with old ones on update (by map keys for listType=map, by equality for sets):
 * one index of the old list, built once per list, so correlating n items costs O(n) and not O(n²). The first
 * old item with a key wins (as a linear search would find it).
 */
export function listCorrelator(list: JSONSchemaProps, oldList: readonly unknown[]): (item: unknown) => Correlated | undefined {
  const lt = list['x-kubernetes-list-type'];
  if (lt !== 'map' && lt !== 'set') return () => undefined;
  const keys = lt === 'map' ? list['x-kubernetes-list-map-keys'] ?? [] : undefined;
  return itemIndex(oldList, keys);
}

/** An index of `oldList` by map keys (`keys`) or, for sets (`keys` undefined), by the whole item. */
export function itemIndex(oldList: readonly unknown[], keys: readonly string[] | undefined): (item: unknown) => Correlated | undefined {
  const keyOf = (o: unknown): string | undefined => {
    if (keys === undefined) return stableKey(o);
    if (!isObject(o)) return undefined;
    return keys.map((k) => stableKey(o[k])).join('\u0000');
  };
  const index = new Map<string, unknown>();
  for (const o of oldList) {
    const k = keyOf(o);
    if (k !== undefined && !index.has(k)) index.set(k, o);
  }
  return (item) => {
    const k = keyOf(item);
    return k !== undefined && index.has(k) ? { value: index.get(k) } : undefined;
  };
}
