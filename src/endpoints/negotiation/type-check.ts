/**
 * Whether a decoded JSON body fits its built-in kind's Go struct, reporting the first mismatch as
 * kube-apiserver's decoder (sigs.k8s.io/json, a fork of Go's encoding/json) words it:
 *   `json: cannot unmarshal <json type> into Go struct field <Struct>.<json path> of type <go type>`
 * where <Struct> is the Go struct holding the innermost field, <json path> the dotted field names from the
 * root (array indexes and map keys are not part of it), <json type> one of string/number/bool/array/object,
 * and `number <literal>` when a number does not fit an integer field (fraction or out of range).
 * Invariants: JSON null fits everything (Go's zero value); unknown keys are ignored (strict decoding reports
 * them); types with their own UnmarshalJSON (Time, Duration, IntOrString, Quantity) are checked as those
 * methods check them. Custom resources have no schema: `typeErrorFor` answers undefined for them.
 *
 * Known gap: Go sees the number literal (`1.0` does not fit an int32 in JSON); after JSON.parse we only
 * see the value, so integral literals written with a fraction or exponent pass.
 */
import { protobufMessageFor } from '../../api/protobuf/codec.ts';
import { messageSpec, type FieldSpec, type MessageSpec, type ScalarType } from '../../api/protobuf/schema.ts';

/** Where a value sits: the Go struct holding the innermost field, and the JSON field names from the root. */
interface Place {
  readonly struct: string;
  readonly path: readonly string[];
}

/** Thrown on the first mismatch; carries the whole message. */
class TypeMismatch extends Error {}

/** The first type error in `obj` (a decoded body of `apiVersion`/`kind`), or undefined when it fits. */
export function typeErrorFor(obj: unknown, apiVersion: string, kind: string): string | undefined {
  const spec = protobufMessageFor(apiVersion, kind);
  if (!spec || spec.special) return undefined;
  try {
    checkStruct(obj, spec, undefined);
    return undefined;
  } catch (e) {
    if (e instanceof TypeMismatch) return e.message;
    throw e;
  }
}

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'boolean') return 'bool';
  return typeof v; // 'string' | 'number'
}

function fail(value: unknown, place: Place | undefined, goType: string, valueText?: string): never {
  const what = valueText ?? jsonType(value);
  if (!place) throw new TypeMismatch(`json: cannot unmarshal ${what} into Go value of type ${goType}`);
  throw new TypeMismatch(`json: cannot unmarshal ${what} into Go struct field ${place.struct}.${place.path.join('.')} of type ${goType}`);
}

/** Go's package name for a catalog package: `apps.v1` → `v1`, `meta` → `v1`, `runtime` → `runtime`. */
function goPackage(fullName: string): string {
  const pkg = fullName.slice(0, fullName.lastIndexOf('.'));
  if (pkg === 'meta') return 'v1';
  if (pkg === 'runtime') return 'runtime';
  if (fullName === 'util.Quantity') return 'resource';
  if (pkg === 'util') return 'intstr';
  return pkg.slice(pkg.lastIndexOf('.') + 1);
}

function shortName(fullName: string): string {
  return fullName.slice(fullName.lastIndexOf('.') + 1);
}

function goMessageType(fullName: string): string {
  return `${goPackage(fullName)}.${shortName(fullName)}`;
}

const SCALAR_GO: Record<ScalarType, string> = {
  string: 'string', bytes: '[]uint8', bool: 'bool', int32: 'int32', int64: 'int64', double: 'float64',
};

function elemGoType(f: FieldSpec): string {
  return f.type.kind === 'scalar' ? SCALAR_GO[f.type.scalar] : goMessageType(f.type.name);
}

function fieldGoType(f: FieldSpec): string {
  if (f.mapKey) return `map[${SCALAR_GO[f.mapKey]}]${elemGoType(f)}`;
  return f.repeated ? `[]${elemGoType(f)}` : elemGoType(f);
}

/** A struct's JSON keys, with inline-embedded structs' keys lifted into it (as Go's decoder sees them). */
const flatFields = new Map<string, ReadonlyMap<string, FieldSpec>>();
function fieldsOf(spec: MessageSpec): ReadonlyMap<string, FieldSpec> {
  const hit = flatFields.get(spec.fullName);
  if (hit) return hit;
  const out = new Map<string, FieldSpec>();
  const add = (s: MessageSpec): void => {
    for (const f of s.declared) {
      if (f.inline && f.type.kind === 'message') add(messageSpec(f.type.name));
      else if (!out.has(f.json)) out.set(f.json, f);
    }
  };
  add(spec);
  flatFields.set(spec.fullName, out);
  return out;
}

function checkStruct(value: unknown, spec: MessageSpec, place: Place | undefined): void {
  if (value === null || value === undefined) return;
  if (typeof value !== 'object' || Array.isArray(value)) fail(value, place, goMessageType(spec.fullName));
  const fields = fieldsOf(spec);
  const struct = shortName(spec.fullName);
  const base = place?.path ?? [];
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const f = fields.get(key); // Case-sensitive, as kube's decoder.
    if (!f || v === null) continue;
    checkField(v, f, { struct, path: [...base, key] });
  }
}

function checkField(v: unknown, f: FieldSpec, place: Place): void {
  if (f.mapKey) {
    if (typeof v !== 'object' || Array.isArray(v)) fail(v, place, fieldGoType(f));
    for (const item of Object.values(v as Record<string, unknown>)) checkElem(item, f, place);
    return;
  }
  if (f.repeated) {
    if (!Array.isArray(v)) fail(v, place, fieldGoType(f));
    for (const item of v as unknown[]) checkElem(item, f, place);
    return;
  }
  checkElem(v, f, place);
}

function checkElem(v: unknown, f: FieldSpec, place: Place): void {
  if (v === null) return;
  if (f.type.kind === 'scalar') return checkScalar(v, f.type.scalar, place);
  const spec = messageSpec(f.type.name);
  if (spec.special) return checkSpecial(v, spec, place);
  checkStruct(v, spec, place);
}

const INT32: readonly [number, number] = [-2147483648, 2147483647];

function checkScalar(v: unknown, t: ScalarType, place: Place): void {
  const goType = SCALAR_GO[t];
  switch (t) {
    case 'string':
    case 'bytes':
      if (typeof v !== 'string') fail(v, place, goType);
      return;
    case 'bool':
      if (typeof v !== 'boolean') fail(v, place, goType);
      return;
    case 'double':
      if (typeof v !== 'number') fail(v, place, goType);
      return;
    default: {
      if (typeof v !== 'number') fail(v, place, goType);
      const [lo, hi] = INT32;
      const outOfRange = t === 'int32' ? (v < lo || v > hi) : (v >= 2 ** 63 || v < -(2 ** 63));
      if (!Number.isInteger(v) || outOfRange) fail(v, place, goType, `number ${goNumberText(v)}`);
    }
  }
}

/** The literal Go would quote: JSON.stringify gives the shortest round-trip form, as clients send it. */
function goNumberText(n: number): string {
  return JSON.stringify(n);
}

/** The regular expression kube's resource.ParseQuantity names in its format error. */
const QUANTITY_FORMAT = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

function checkSpecial(v: unknown, spec: MessageSpec, place: Place): void {
  switch (spec.special) {
    case 'time':
    case 'microtime':
    case 'duration':
      // Their UnmarshalJSON decodes a string; the inner error gets the outer field's context.
      if (typeof v !== 'string') fail(v, place, 'string');
      return;
    case 'intorstring':
      // A quoted value is the string form; anything else is decoded as int32.
      if (typeof v === 'string') return;
      if (typeof v !== 'number') fail(v, place, 'int32');
      if (!Number.isInteger(v) || v < -2147483648 || v > 2147483647) fail(v, place, 'int32', `number ${goNumberText(v)}`);
      return;
    case 'quantity':
      // UnmarshalJSON parses the raw text: only strings and numbers can be quantities.
      if (typeof v !== 'string' && typeof v !== 'number') throw new TypeMismatch(QUANTITY_FORMAT);
      return;
    case 'stringlist':
      if (!Array.isArray(v)) fail(v, place, goMessageType(spec.fullName));
      for (const item of v as unknown[]) if (item !== null && typeof item !== 'string') fail(item, place, 'string');
      return;
    default: // rawextension, json, fieldsv1: any JSON
      return;
  }
}
