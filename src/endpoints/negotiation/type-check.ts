/**
 * Whether a decoded JSON body fits its built-in kind's Go struct, reporting the first mismatch as
 * kube-apiserver's decoder (sigs.k8s.io/json, a fork of Go's encoding/json) words it:
 *   `json: cannot unmarshal <json type> into Go struct field <Struct>.<json path> of type <go type>`
 * where <Struct> is the Go struct holding the innermost field, <json path> the dotted field names from the
 * root (array indexes and map keys are not part of it), <json type> one of string/number/bool/array/object,
 * and `number <literal>` when a number does not fit an integer field (fraction or out of range).
 * Invariants: JSON null fits everything (Go's zero value); unknown keys are ignored (strict decoding reports
 * them); types with their own UnmarshalJSON (Time, MicroTime, Duration, IntOrString, Quantity) are checked as
 * those methods check them (times with Go's time.Parse and its error text: src/machinery/go-time.ts). Custom resources have no schema: `typeErrorFor` answers undefined for them.
 *
 * Go judges numbers by their literal (`1.0` does not fit an int32): given the JSON text, numbers written
 * with a fraction or exponent are checked as written (json-literals.ts). Without it (YAML bodies, patch
 * results) only the value is known, and `number <x>` quotes its shortest form.
 */
import { protobufMessageFor } from '../../api/protobuf/codec.ts';
import { messageSpec, type FieldSpec, type MessageSpec, type ScalarType } from '../../api/protobuf/schema.ts';
import { ERR_FORMAT_WRONG, parseQuantity, QuantityParseError } from '../../machinery/quantity.ts';
import { goTimeParseError, RFC3339, RFC3339_MICRO } from '../../machinery/go-time.ts';
import { mayHaveFractionLiterals, NumberLiteral, parseWithLiterals } from './json-literals.ts';

/** Where a value sits: the Go struct holding the innermost field, and the JSON field names from the root. */
interface Place {
  readonly struct: string;
  readonly path: readonly string[];
}

/** Thrown on the first mismatch; carries the whole message. */
class TypeMismatch extends Error {}

export interface TypeCheckOptions {
  /** The JSON text `obj` was parsed from, when there is one: numbers are then judged by their literal. */
  readonly jsonText?: string;
}

/** The first type error in `obj` (a decoded body of `apiVersion`/`kind`), or undefined when it fits. */
export function typeErrorFor(obj: unknown, apiVersion: string, kind: string, o: TypeCheckOptions = {}): string | undefined {
  const spec = protobufMessageFor(apiVersion, kind);
  if (!spec || spec.special) return undefined;
  try {
    const tree = o.jsonText !== undefined && mayHaveFractionLiterals(o.jsonText) ? literalTree(o.jsonText, obj) : obj;
    checkStruct(tree, spec, undefined);
    return undefined;
  } catch (e) {
    if (e instanceof TypeMismatch) return e.message;
    throw e;
  }
}

/** The literal-preserving parse, or the plain value if the text cannot be parsed again (it always can). */
function literalTree(text: string, fallback: unknown): unknown {
  try {
    return parseWithLiterals(text);
  } catch {
    return fallback;
  }
}

type JsonKind = 'null' | 'string' | 'number' | 'bool' | 'array' | 'object';

function jsonType(v: unknown): JsonKind {
  if (v === null || v === undefined) return 'null';
  if (v instanceof NumberLiteral) return 'number';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'string' ? 'string' : 'number';
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
  if (jsonType(value) !== 'object') fail(value, place, goMessageType(spec.fullName));
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
    if (jsonType(v) !== 'object') fail(v, place, fieldGoType(f));
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

const INT_BITS: Record<string, bigint> = { int32: 31n, int64: 63n };

/** Whether a number fits a Go integer type as Go's ParseInt reads its literal. */
function intFits(v: number | NumberLiteral, goType: 'int32' | 'int64'): boolean {
  const bits = INT_BITS[goType]!;
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) return false;
    return goType === 'int32' ? v >= -2147483648 && v <= 2147483647 : v >= -(2 ** 63) && v < 2 ** 63;
  }
  if (!/^-?\d+$/.test(v.text)) return false; // a fraction or exponent: ParseInt refuses it
  const b = BigInt(v.text);
  return b >= -(1n << bits) && b < (1n << bits);
}

function numberText(v: number | NumberLiteral): string {
  return v instanceof NumberLiteral ? v.text : JSON.stringify(v);
}

function checkScalar(v: unknown, t: ScalarType, place: Place): void {
  const goType = SCALAR_GO[t];
  const k = jsonType(v);
  switch (t) {
    case 'string':
    case 'bytes':
      if (k !== 'string') fail(v, place, goType);
      return;
    case 'bool':
      if (k !== 'bool') fail(v, place, goType);
      return;
    case 'double':
      if (k !== 'number') fail(v, place, goType);
      if (v instanceof NumberLiteral && !Number.isFinite(v.value)) fail(v, place, goType, `number ${v.text}`);
      return;
    default:
      checkInt(v, t as 'int32' | 'int64', place);
  }
}

function checkInt(v: unknown, goType: 'int32' | 'int64', place: Place): void {
  if (jsonType(v) !== 'number') fail(v, place, goType);
  const n = v as number | NumberLiteral;
  if (!intFits(n, goType)) fail(v, place, goType, `number ${numberText(n)}`);
}


function checkSpecial(v: unknown, spec: MessageSpec, place: Place): void {
  switch (spec.special) {
    case 'time':
    case 'microtime': {
      // UnmarshalJSON decodes a string (the inner error gets the outer field's context), then time.Parse with
      // RFC 3339 (Time) or RFC 3339 with exactly six fraction digits (MicroTime), whose ParseError is the
      // decode error as it is.
      if (jsonType(v) !== 'string') fail(v, place, 'string');
      const parseError = goTimeParseError(spec.special === 'time' ? RFC3339 : RFC3339_MICRO, v as string);
      if (parseError) throw new TypeMismatch(parseError);
      return;
    }
    case 'duration':
      if (jsonType(v) !== 'string') fail(v, place, 'string');
      return;
    case 'intorstring':
      // A quoted value is the string form; anything else is decoded as int32.
      if (typeof v === 'string') return;
      checkInt(v, 'int32', place);
      return;
    case 'quantity':
      // UnmarshalJSON parses the raw text (unquoted, trimmed): only strings and numbers can be quantities,
      // and its ParseQuantity error is the decode error as it is (no field context).
      if (jsonType(v) !== 'string' && jsonType(v) !== 'number') throw new TypeMismatch(ERR_FORMAT_WRONG);
      try {
        parseQuantity(typeof v === 'string' ? v.trim() : numberText(v as number | NumberLiteral));
      } catch (e) {
        if (e instanceof QuantityParseError) throw new TypeMismatch(e.message);
        throw e;
      }
      return;
    case 'stringlist':
      if (!Array.isArray(v)) fail(v, place, goMessageType(spec.fullName));
      for (const item of v as unknown[]) if (item !== null && jsonType(item) !== 'string') fail(item, place, 'string');
      return;
    default: // rawextension, json, fieldsv1: any JSON
      return;
  }
}
