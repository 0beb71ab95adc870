/**
 * OpenAPI (structural) schema → CEL type, following kube's model (apiserver/pkg/cel/common/schemas.go and
 * apiextensions-apiserver's schema/cel/model): objects with properties become object types whose field names
 * are escaped (`__dash__`, `__dot__`, `__slash__`, `__underscores__`, reserved words `__{word}__`; names
 * that cannot be escaped are left out), `additionalProperties` a map, `x-kubernetes-preserve-unknown-fields`
 * without properties and `x-kubernetes-int-or-string` dyn, embedded resources gain apiVersion/kind/metadata,
 * formats `date-time`/`date` timestamp, `duration` duration, `byte` bytes. Size hints (maxLength, maxItems,
 * maxProperties, or kube's worst case from the request size limit) are keyed by value path for the estimator.
 */
import type { CelListType, CelObjectType, CelType } from './contract.ts';

/** The JSONSchemaProps fields the mapping reads. */
export interface CelSchema {
  readonly type?: string;
  readonly format?: string;
  readonly properties?: Readonly<Record<string, CelSchema>>;
  readonly additionalProperties?: CelSchema | boolean;
  readonly items?: CelSchema;
  readonly required?: readonly string[];
  readonly maxLength?: number;
  readonly maxItems?: number;
  readonly maxProperties?: number;
  readonly enum?: readonly unknown[];
  readonly nullable?: boolean;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-embedded-resource'?: boolean;
  readonly 'x-kubernetes-list-type'?: string;
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
}

export interface SchemaCelType {
  readonly type: CelType;
  readonly sizeHints: Readonly<Record<string, number>>;
}

/** kube's max request size, the bound for strings and lists that declare none. */
const MAX_REQUEST_BYTES = 3 * 1024 * 1024;

const RESERVED = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import',
  'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);
const ESCAPABLE = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;

/** The CEL name of a property, or undefined when kube cannot make it accessible. */
export function escapeCelName(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!ESCAPABLE.test(name)) return undefined;
  return name.replace(/__|[.\-/]/g, (m) => (m === '__' ? '__underscores__' : m === '.' ? '__dot__' : m === '-' ? '__dash__' : '__slash__'));
}

/** The CEL type and size hints for a value described by `schema`, reachable as `name`. */
export function celTypeFromSchema(schema: CelSchema, opts: { readonly name: string }): SchemaCelType {
  const hints: Record<string, number> = {};
  const type = convert(schema, opts.name, opts.name, hints) ?? 'dyn';
  return { type, sizeHints: hints };
}

/** The smallest JSON text a value of this schema can take (kube's estimateMinSizeJSON), for list bounds. */
function minJsonSize(s: CelSchema | undefined): number {
  if (!s) return 1;
  if (s['x-kubernetes-int-or-string'] || s['x-kubernetes-preserve-unknown-fields']) return 1;
  switch (s.type) {
    case 'string':
      switch (s.format) {
        case 'date': return 12;
        case 'date-time': return 21;
        case 'duration': return 3;
        default: return 2;
      }
    case 'boolean': return 4;
    case 'number': case 'integer': return 1;
    case 'array': return 2;
    case 'object': {
      // "{}" plus each required property's `"name":<min value>` and the commas between them.
      const req = (s.required ?? []).filter((r) => s.properties?.[r]);
      return 2 + req.reduce((n, r) => n + r.length + 3 + minJsonSize(s.properties![r]), 0) + Math.max(0, req.length - 1);
    }
    default: return 1;
  }
}

/** The worst-case size in bytes kube assumes for a string (maxLength counts characters, up to 4 bytes each). */
function maxLengthOf(s: CelSchema): number {
  if (s.maxLength !== undefined) return s.maxLength * 4;
  if (s.enum?.length && s.enum.every((e) => typeof e === 'string')) return Math.max(...s.enum.map((e) => (e as string).length));
  return MAX_REQUEST_BYTES - 2;
}

function convert(s: CelSchema, typeName: string, path: string, hints: Record<string, number>): CelType | undefined {
  if (s['x-kubernetes-int-or-string']) return 'dyn';
  switch (s.type) {
    case 'boolean': return 'bool';
    case 'integer': return 'int';
    case 'number': return 'double';
    case 'string':
      switch (s.format) {
        case 'byte': hints[path] = maxLengthOf(s); return 'bytes';
        case 'duration': return 'duration';
        case 'date': case 'date-time': return 'timestamp';
        default: hints[path] = maxLengthOf(s); return 'string';
      }
    case 'array': {
      if (!s.items) return undefined;
      hints[path] = s.maxItems ?? Math.floor((MAX_REQUEST_BYTES - 2) / (minJsonSize(s.items) + 1));
      const elem = convert(s.items, `${typeName}.@idx`, `${path}[*]`, hints);
      if (elem === undefined) return undefined;
      const listType = s['x-kubernetes-list-type'];
      const out: CelListType = listType === 'set' || listType === 'map' ? { list: elem, listType } : { list: elem };
      return out;
    }
    case 'object':
    case undefined:
      return objectType(s, typeName, path, hints);
    default:
      return undefined;
  }
}

function objectType(s: CelSchema, typeName: string, path: string, hints: Record<string, number>): CelType | undefined {
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const props: Record<string, CelSchema> = { ...(s.properties ?? {}) };
  if (embedded) {
    props.apiVersion ??= { type: 'string' };
    props.kind ??= { type: 'string' };
    props.metadata ??= { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } };
  }
  if (Object.keys(props).length === 0) {
    if (s['x-kubernetes-preserve-unknown-fields']) return 'dyn';
    const ap = s.additionalProperties;
    if (ap !== undefined && ap !== false) {
      hints[path] = s.maxProperties ?? Math.floor((MAX_REQUEST_BYTES - 2) / (minJsonSize(typeof ap === 'object' ? ap : undefined) + 6));
      if (ap === true) return { map: 'dyn' };
      const v = convert(ap, `${typeName}.@elem`, `${path}[*]`, hints);
      return v === undefined ? undefined : { map: v };
    }
    if (s.type === undefined) return 'dyn';
  }
  const fields: Record<string, CelType> = {};
  const jsonNames: Record<string, string> = {};
  for (const [name, prop] of Object.entries(props)) {
    const cel = escapeCelName(name);
    if (cel === undefined) continue;
    const t = convert(prop, `${typeName}.${cel}`, `${path}.${cel}`, hints);
    if (t === undefined) continue;
    fields[cel] = t;
    if (cel !== name) jsonNames[cel] = name;
  }
  const out: CelObjectType = {
    object: typeName,
    fields,
    ...(s.required?.length ? { required: s.required.map((r) => escapeCelName(r) ?? r) } : {}),
    ...(Object.keys(jsonNames).length ? { jsonNames } : {}),
  };
  return out;
}
