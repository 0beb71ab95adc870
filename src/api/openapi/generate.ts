/**
 * OpenAPI schemas derived from our protobuf type descriptions (src/api/protobuf), named and shaped as
 * kube-apiserver's generated OpenAPI names and shapes them: Go package paths as definition names, `$ref` to
 * named definitions (v3 wraps each in `allOf`, kube's style, so `default` can sit beside it), value-form
 * types (Time, Quantity, IntOrString, RawExtension, …) as kube renders them, and the merge markers as
 * `x-kubernetes-*` extensions. Descriptions come from ./docs (our own words; kube's doc text is not reproduced):
 * a type's on its definition, a field's on its property — beside the `$ref` in v2, beside the `allOf` in v3, on
 * the array or map itself when the field is a list or a map.
 *
 * Known gaps (the descriptions do not carry them): `required` lists, `enum`s, and `default` on non-pointer
 * scalar fields (which depends on Go's `omitempty`).
 */
import { requiredFieldsOf } from './required.ts';
import '../protobuf/messages/index.ts';
import { hasTypeMeta, kindOfMessage } from './kinds.ts';
import { typeDoc } from './docs/index.ts';
import { describeField, describeTypeMetaField } from './describe.ts';
import { unionsOf } from './unions.ts';
import { hasMessage, messageSpec, type FieldSpec, type MessageSpec, type ScalarType } from '../protobuf/schema.ts';

export type Dialect = 'v2' | 'v3';
export type Schema = Record<string, unknown>;

const META_PKG = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/** kube's definition name of one of our messages: `apps.v1.Deployment` → `io.k8s.api.apps.v1.Deployment`. */
export function definitionNameOf(fullName: string): string {
  const dot = fullName.lastIndexOf('.');
  const pkg = fullName.slice(0, dot);
  const name = fullName.slice(dot + 1);
  if (pkg === 'meta') return `${META_PKG}.${name}`;
  if (fullName === 'util.Quantity') return 'io.k8s.apimachinery.pkg.api.resource.Quantity';
  if (fullName === 'util.IntOrString') return 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
  if (pkg === 'runtime') return `io.k8s.apimachinery.pkg.runtime.${name}`;
  // Types of the servers kube-apiserver embeds keep their own Go package paths.
  if (pkg.startsWith('apiextensions.')) return `io.k8s.apiextensions-apiserver.pkg.apis.${pkg}.${name}`;
  if (pkg.startsWith('apiregistration.')) return `io.k8s.kube-aggregator.pkg.apis.${pkg}.${name}`;
  return `io.k8s.api.${pkg}.${name}`;
}

/** The message describing a kind of a served group version, if our descriptions have it (inverse of kinds.ts groupOfPackage). */
export function messageNameFor(group: string, version: string, kind: string): string | undefined {
  const base = group === '' ? 'core' : group === 'internal.apiserver.k8s.io' ? 'apiserverinternal' : group.split('.')[0];
  const pkg = `${base}.${version}`;
  const name = `${pkg}.${kind}`;
  return hasMessage(name) ? name : undefined;
}

function refTo(name: string, dialect: Dialect): Schema {
  return { $ref: dialect === 'v2' ? `#/definitions/${name}` : `#/components/schemas/${name}` };
}

function scalarSchema(s: ScalarType): Schema {
  switch (s) {
    case 'string': return { type: 'string' };
    case 'bytes': return { type: 'string', format: 'byte' };
    case 'bool': return { type: 'boolean' };
    case 'int32': return { type: 'integer', format: 'int32' };
    case 'int64': return { type: 'integer', format: 'int64' };
    case 'double': return { type: 'number', format: 'double' };
  }
}

const SCALAR_ZERO: Record<ScalarType, unknown> = { string: '', bytes: undefined, bool: false, int32: 0, int64: 0, double: 0 };

/** Messages rendered inline rather than referenced (kube gives them no definition of their own). */
function inlineForm(spec: MessageSpec, dialect: Dialect): Schema | undefined {
  if (spec.special === 'duration') return { type: 'string' };
  if (spec.special === 'stringlist') return { type: 'array', items: dialect === 'v3' ? { type: 'string', default: '' } : { type: 'string' } };
  return undefined;
}

/**
 * The schema of one value (a field's element type): a scalar, an inline form or a reference. `element` marks
 * array items and map values, which are never pointers in Go: v3 gives them a zero-value default as kube does.
 */
function valueSchema(f: FieldSpec, dialect: Dialect, element: boolean, seen: Set<string>): Schema {
  if (f.type.kind === 'scalar') {
    const s = scalarSchema(f.type.scalar);
    const zero = SCALAR_ZERO[f.type.scalar];
    return dialect === 'v3' && element && zero !== undefined ? { ...s, default: zero } : s;
  }
  const spec = messageSpec(f.type.name);
  const inline = inlineForm(spec, dialect);
  if (inline) return inline;
  seen.add(spec.fullName);
  const name = definitionNameOf(spec.fullName);
  if (dialect === 'v2') return refTo(name, dialect);
  // Value forms (Time, Quantity, IntOrString, …) are referenced bare in kube's v3 too, when used as elements.
  if (element && spec.special) return refTo(name, dialect);
  const out: Schema = { allOf: [refTo(name, dialect)] };
  if (!f.pointer && !spec.special && (element || !f.repeated)) out.default = {};
  return out;
}

function fieldSchema(f: FieldSpec, dialect: Dialect, seen: Set<string>): Schema {
  let s: Schema;
  if (f.mapKey) {
    s = { type: 'object', additionalProperties: valueSchema(f, dialect, true, seen) };
  } else if (f.repeated) {
    s = { type: 'array', items: valueSchema(f, dialect, true, seen) };
  } else {
    s = valueSchema(f, dialect, false, seen);
  }
  if (f.listType) s['x-kubernetes-list-type'] = f.listType;
  if (f.listMapKeys) s['x-kubernetes-list-map-keys'] = [...f.listMapKeys];
  if (f.patchMergeKey) s['x-kubernetes-patch-merge-key'] = f.patchMergeKey;
  if (f.patchStrategy) s['x-kubernetes-patch-strategy'] = f.patchStrategy;
  if (f.mapType) s['x-kubernetes-map-type'] = f.mapType;
  if (f.structType) s['x-kubernetes-map-type'] = f.structType;
  return s;
}

/**
 * A message's fields as JSON properties, with inline (embedded) messages lifted into the parent. `owners` are the
 * messages whose JSON object the fields land in, outermost first: a lifted field's description is the outermost
 * one written (the parent may say more about a field it embeds), else the embedded type's own.
 */
function properties(spec: MessageSpec, dialect: Dialect, seen: Set<string>, out: Record<string, Schema>, owners: readonly string[] = []): void {
  const chain = [...owners, spec.fullName];
  for (const f of spec.declared) {
    if (f.inline && f.type.kind === 'message') {
      properties(messageSpec(f.type.name), dialect, seen, out, chain);
      continue;
    }
    const s = fieldSchema(f, dialect, seen);
    const doc = describeField(chain, f.json);
    if (doc) s.description = doc;
    out[f.json] = s;
  }
}

/** Definitions of the value forms, as kube's OpenAPI defines them. */
function specialDefinition(spec: MessageSpec, dialect: Dialect): Schema | undefined {
  const s = specialShape(spec, dialect);
  const doc = typeDoc(spec.fullName);
  return s && doc ? { ...s, description: doc } : s;
}

/** A value form's definition, with a fallback description for types ./docs does not describe. */
function specialShape(spec: MessageSpec, dialect: Dialect): Schema | undefined {
  switch (spec.special) {
    case 'time': return { type: 'string', format: 'date-time', description: 'A point in time, RFC 3339, second precision.' };
    case 'microtime': return { type: 'string', format: 'date-time', description: 'A point in time, RFC 3339, microsecond precision.' };
    case 'fieldsv1': return { type: 'object', description: 'A set of fields as a trie of f:/k:/v:/i: keys.' };
    case 'rawextension': return { type: 'object', description: 'An embedded object of any kind.' };
    case 'json': return { description: 'Any JSON value.' };
    case 'schemaorbool': return { description: 'A JSON schema, or a boolean (true allows anything, false nothing).' };
    case 'schemaorarray': return { description: 'A JSON schema, or a list of JSON schemas.' };
    case 'schemaorstringarray': return { description: 'A JSON schema, or a list of property names.' };
    case 'quantity': return dialect === 'v2'
      ? { type: 'string', description: 'A decimal quantity with an optional SI or binary suffix, e.g. 100m, 1Gi.' }
      : { oneOf: [{ type: 'string' }, { type: 'number' }], description: 'A decimal quantity with an optional SI or binary suffix, e.g. 100m, 1Gi.' };
    case 'intorstring': return dialect === 'v2'
      ? { type: 'string', format: 'int-or-string', description: 'An integer or a string.' }
      : { oneOf: [{ type: 'integer' }, { type: 'string' }], format: 'int-or-string', description: 'An integer or a string.' };
    default: return undefined;
  }
}

/** `apiVersion` or `kind` of a kind: described by the kind, else as meta.TypeMeta describes it. */
function typeMetaField(fullName: string, json: 'apiVersion' | 'kind'): Schema {
  const doc = describeTypeMetaField(fullName, json);
  return doc ? { type: 'string', description: doc } : { type: 'string' };
}

/** The definition of one message (without GVK), recording the messages it references in `seen`. */
export function messageDefinition(fullName: string, dialect: Dialect, seen: Set<string> = new Set()): Schema {
  const spec = messageSpec(fullName);
  const special = specialDefinition(spec, dialect);
  if (special) return special;
  const props: Record<string, Schema> = {};
  properties(spec, dialect, seen, props);
  const s: Schema = { type: 'object' };
  const gvk = kindOfMessage(fullName);
  // A kind ./docs does not describe yet names its group version.
  const doc = typeDoc(fullName) ?? (gvk ? `${gvk.kind} (${gvk.group ? `${gvk.group}/` : ''}${gvk.version}).` : undefined);
  if (doc) s.description = doc;
  // Kinds carry TypeMeta, which our wire descriptions leave out (it travels in the protobuf envelope).
  const all = hasTypeMeta(fullName) ? { apiVersion: typeMetaField(fullName, 'apiVersion'), kind: typeMetaField(fullName, 'kind'), ...props } : props;
  if (Object.keys(all).length > 0) s.properties = all;
  const required = requiredFieldsOf(fullName);
  if (required.length > 0) s.required = [...required];
  if (spec.atomic) s['x-kubernetes-map-type'] = 'atomic';
  const unions = unionsOf(fullName);
  if (unions) s['x-kubernetes-unions'] = unions;
  if (gvk) s['x-kubernetes-group-version-kind'] = [gvk];
  return s;
}

/** The definitions of the given messages and everything they reference (transitively), by kube name. */
export function collectDefinitions(roots: Iterable<string>, dialect: Dialect): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  const done = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (done.has(name)) continue;
    done.add(name);
    const spec = messageSpec(name);
    if (inlineForm(spec, dialect)) continue;
    const seen = new Set<string>();
    out[definitionNameOf(name)] = messageDefinition(name, dialect, seen);
    for (const n of seen) if (!done.has(n)) queue.push(n);
  }
  return out;
}
