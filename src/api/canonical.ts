/**
 * Objects in the JSON shape kube-apiserver's codec gives them: what decoding into the Go types and encoding with
 * encoding/json produces, derived from the catalog's type descriptions (src/api/protobuf/schema.ts).
 *
 * Built-in kinds (typed):
 * - keys in Go declaration order, embedded inline structs' fields in place; `kind`, `apiVersion` first (TypeMeta);
 * - map keys sorted (labels, annotations, data, selectors, resource lists: every `map<…>`);
 * - `omitempty` fields with an empty value ("", 0, false, empty or absent map/list, absent pointer) are dropped;
 *   fields without `omitempty` (`!` in the notation) are always written, with their zero value when absent:
 *   "", 0, false, `null` for absent lists, maps and pointers;
 * - a non-pointer struct is always written (encoding/json never treats a struct as empty), filled recursively
 *   with its own always-written fields; its special forms write their zero: Time/MicroTime `null`, Quantity
 *   "0", IntOrString 0, Duration "0s", RawExtension/JSON/FieldsV1 `null`;
 * - quantities in the form kube writes back after decoding ({@link canonicalQuantity});
 * - RawExtension, JSON, FieldsV1, IntOrString, times: as given (Go keeps their raw form);
 * - keys the description does not know keep their relative order after the known ones (after pruning in
 *   src/apply/drop-unknown.ts there are none).
 *
 * Custom resources (unstructured in Go: a map encoded by encoding/json): every object's keys sorted at every
 * level; `metadata` is first made ObjectMeta's JSON (empties dropped, as kube's ObjectMeta coercion does).
 *
 * Plans are computed once per message and reused; a call allocates only its output.
 */
import { canonicalQuantity } from '../machinery/quantity.ts';
import { messageSpec, type FieldSpec, type MessageSpec, type SpecialForm } from './protobuf/schema.ts';

type Obj = Record<string, unknown>;

const enum Shape { One, List, Map }
const enum Val { Scalar, Message, Special }

interface FieldPlan {
  readonly json: string;
  readonly inline: boolean;
  readonly pointer: boolean;
  readonly omitEmpty: boolean;
  readonly shape: Shape;
  readonly val: Val;
  /** The Go zero value's JSON for a non-pointer scalar or special (undefined: none). */
  readonly zero: unknown;
  readonly special?: SpecialForm;
  /** The message name for Val.Message, or the schema message for schema-or-* specials. */
  readonly message?: string;
}

interface MessagePlan {
  readonly fields: readonly FieldPlan[];
  /** Every JSON key the message owns, embedded inline structs' keys included. */
  readonly known: ReadonlySet<string>;
}

const SPECIAL_ZERO: Record<SpecialForm, unknown> = {
  time: null, microtime: null, duration: '0s', quantity: '0', intorstring: 0, rawextension: null, fieldsv1: null,
  json: null, stringlist: null, schemaorbool: false, schemaorarray: null, schemaorstringarray: null,
};
const SCHEMA_PROPS = 'apiextensions.v1.JSONSchemaProps';

const plans = new Map<string, MessagePlan>();

function fieldPlan(f: FieldSpec): FieldPlan {
  const shape = f.mapKey ? Shape.Map : f.repeated ? Shape.List : Shape.One;
  const base = { json: f.json, inline: f.inline, pointer: f.pointer, omitEmpty: f.omitEmpty, shape };
  if (f.type.kind === 'scalar') {
    const s = f.type.scalar;
    const zero = s === 'string' ? '' : s === 'bool' ? false : s === 'bytes' ? null : 0;
    return { ...base, val: Val.Scalar, zero };
  }
  const spec = messageSpec(f.type.name);
  if (spec.special) {
    const special = spec.special;
    return { ...base, val: Val.Special, zero: SPECIAL_ZERO[special], special, ...(special.startsWith('schemaor') ? { message: SCHEMA_PROPS } : {}) };
  }
  return { ...base, val: Val.Message, zero: undefined, message: spec.fullName };
}

/** The plan of one message, built on first use. */
function planOf(fullName: string): MessagePlan {
  let p = plans.get(fullName);
  if (p) return p;
  const spec: MessageSpec = messageSpec(fullName);
  const fields = spec.declared.map(fieldPlan);
  const known = new Set<string>();
  p = { fields, known };
  plans.set(fullName, p); // before recursing: messages refer to themselves (JSONSchemaProps)
  for (const f of fields) {
    if (f.inline && f.val === Val.Message) for (const k of planOf(f.message!).known) known.add(k);
    else known.add(f.json);
  }
  return p;
}

/** Marker: the field is not written. */
const SKIP = Symbol('skip');

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function hasKeys(o: Obj): boolean {
  for (const k in o) if (o[k] !== undefined) return true;
  return false;
}

/** One value of a field's element type (a list item, a map value or the field itself). */
function element(f: FieldPlan, v: unknown): unknown {
  switch (f.val) {
    case Val.Scalar: return v;
    case Val.Message: return isObj(v) ? message(v, planOf(f.message!)) : v;
    default: return special(f, v);
  }
}

function special(f: FieldPlan, v: unknown): unknown {
  switch (f.special) {
    case 'quantity':
      return typeof v === 'string' || typeof v === 'number' ? canonicalQuantity(v) ?? v : v;
    case 'schemaorbool':
    case 'schemaorstringarray':
      return isObj(v) ? message(v, planOf(SCHEMA_PROPS)) : v;
    case 'schemaorarray':
      if (isObj(v)) return message(v, planOf(SCHEMA_PROPS));
      return Array.isArray(v) ? v.map((x) => (isObj(x) ? message(x, planOf(SCHEMA_PROPS)) : x)) : v;
    default:
      return v;
  }
}

function sortedMap(f: FieldPlan, m: Obj): Obj {
  const keys = Object.keys(m).sort();
  const out: Obj = {};
  for (const k of keys) {
    const v = m[k];
    if (v !== undefined) out[k] = v === null ? null : element(f, v);
  }
  return out;
}

/** The JSON value of one field given the source value, or SKIP. */
function fieldValue(f: FieldPlan, v: unknown): unknown {
  if (v === undefined || v === null) {
    if (f.shape !== Shape.One || f.pointer) return f.omitEmpty ? SKIP : null;
    if (f.val === Val.Message) return message(EMPTY, planOf(f.message!));
    if (f.val === Val.Special) return f.special === 'stringlist' ? (f.omitEmpty ? SKIP : null) : f.zero;
    return f.omitEmpty ? SKIP : f.zero;
  }
  switch (f.shape) {
    case Shape.List:
      if (!Array.isArray(v)) return v;
      if (v.length === 0) return f.omitEmpty ? SKIP : v;
      return f.val === Val.Scalar ? v : v.map((x) => (x === null ? null : element(f, x)));
    case Shape.Map:
      if (!isObj(v)) return v;
      if (f.omitEmpty && !hasKeys(v)) return SKIP;
      return sortedMap(f, v);
    default:
      if (f.val === Val.Scalar) {
        if (f.omitEmpty && !f.pointer && (v === '' || v === 0 || v === false)) return SKIP;
        return v;
      }
      if (f.val === Val.Special && f.special === 'stringlist') {
        if (f.omitEmpty && Array.isArray(v) && v.length === 0) return SKIP;
        return v;
      }
      return element(f, v);
  }
}

const EMPTY: Obj = Object.freeze({}) as Obj;

/** Writes `src`'s fields in plan order into `out` (inline structs recurse into the same objects). */
function writeFields(src: Obj, plan: MessagePlan, out: Obj, meta: MetaOverride | undefined): void {
  for (const f of plan.fields) {
    if (f.inline) {
      if (f.val === Val.Message) writeFields(src, planOf(f.message!), out, undefined);
      continue;
    }
    let v = src[f.json];
    if (meta) {
      if (f.json === 'resourceVersion') v = meta.resourceVersion;
      else if (f.json === 'selfLink') continue;
    }
    const w = fieldValue(f, v);
    if (w !== SKIP) out[f.json] = w;
  }
}

function appendUnknown(src: Obj, plan: MessagePlan, out: Obj): void {
  for (const k in src) {
    if (!plan.known.has(k) && src[k] !== undefined && !(k in out)) out[k] = src[k];
  }
}

function message(src: Obj, plan: MessagePlan, meta?: MetaOverride): Obj {
  const out: Obj = {};
  writeFields(src, plan, out, meta);
  appendUnknown(src, plan, out);
  return out;
}

/** Top-level metadata: `resourceVersion` comes from storage (undefined: not written), `selfLink` is never written. */
interface MetaOverride {
  readonly resourceVersion: string | undefined;
}

/** A canonicalizer for the top-level objects of one kind. */
export interface ObjectShape {
  /** Typed (a built-in kind with a description) or unstructured (custom resources). */
  readonly typed: boolean;
  /**
   * The object in kube's JSON shape. `resourceVersion` replaces `metadata.resourceVersion` (undefined drops it,
   * as stored bytes carry none); `metadata.selfLink` is dropped.
   */
  canonical(obj: Obj, resourceVersion?: string): Obj;
  /** A canonical object with `metadata.resourceVersion` set in its place (cheaper than {@link canonical}). */
  withResourceVersion(obj: Obj, resourceVersion: string | undefined): Obj;
}

const TYPE_FIELDS = new Set(['kind', 'apiVersion']);

class TypedShape implements ObjectShape {
  readonly typed = true;
  private readonly plan: MessagePlan;
  private readonly metaIndex: number;

  constructor(fullName: string) {
    this.plan = planOf(fullName);
    this.metaIndex = this.plan.fields.findIndex((f) => f.json === 'metadata' && f.message === 'meta.ObjectMeta');
  }

  canonical(obj: Obj, resourceVersion?: string): Obj {
    const out: Obj = {};
    if (typeof obj['kind'] === 'string' && obj['kind'] !== '') out['kind'] = obj['kind'];
    if (typeof obj['apiVersion'] === 'string' && obj['apiVersion'] !== '') out['apiVersion'] = obj['apiVersion'];
    const fields = this.plan.fields;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      if (i === this.metaIndex) {
        const m = obj['metadata'];
        out['metadata'] = message(isObj(m) ? m : EMPTY, planOf('meta.ObjectMeta'), { resourceVersion });
        continue;
      }
      if (f.inline) {
        if (f.val === Val.Message) writeFields(obj, planOf(f.message!), out, undefined);
        continue;
      }
      const w = fieldValue(f, obj[f.json]);
      if (w !== SKIP) out[f.json] = w;
    }
    for (const k in obj) {
      if (!this.plan.known.has(k) && !TYPE_FIELDS.has(k) && obj[k] !== undefined) out[k] = obj[k];
    }
    return out;
  }

  withResourceVersion(obj: Obj, resourceVersion: string | undefined): Obj {
    return setMetaKey(obj, resourceVersion, META_BEFORE_RV);
  }
}

/** ObjectMeta's keys that come before `resourceVersion` in its Go order. */
const META_BEFORE_RV = new Set(['name', 'generateName', 'namespace', 'selfLink', 'uid']);

/** `obj` with metadata.resourceVersion set (or removed) in place: after the keys `before` says precede it. */
function setMetaKey(obj: Obj, rv: string | undefined, before: ReadonlySet<string> | 'sorted'): Obj {
  const meta = obj['metadata'];
  if (!isObj(meta)) return obj;
  if (meta['resourceVersion'] === rv) return obj;
  const m: Obj = {};
  let placed = rv === undefined;
  for (const k in meta) {
    if (k === 'resourceVersion') continue;
    if (!placed && (before === 'sorted' ? k > 'resourceVersion' : !before.has(k))) {
      m['resourceVersion'] = rv;
      placed = true;
    }
    m[k] = meta[k];
  }
  if (!placed) m['resourceVersion'] = rv;
  const out: Obj = {};
  for (const k in obj) out[k] = k === 'metadata' ? m : obj[k];
  return out;
}

/** Every object's keys sorted, at every level (encoding/json of map[string]interface{}). */
export function sortedDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedDeep);
  if (!isObj(v)) return v;
  const keys = Object.keys(v).sort();
  const out: Obj = {};
  for (const k of keys) {
    const x = v[k];
    if (x !== undefined) out[k] = sortedDeep(x);
  }
  return out;
}

class UnstructuredShape implements ObjectShape {
  readonly typed = false;

  canonical(obj: Obj, resourceVersion?: string): Obj {
    const keys = Object.keys(obj).sort();
    const out: Obj = {};
    for (const k of keys) {
      const v = obj[k];
      if (v === undefined) continue;
      if (k === 'metadata' && isObj(v)) {
        out[k] = sortedDeep(message(v, planOf('meta.ObjectMeta'), { resourceVersion }));
      } else {
        out[k] = sortedDeep(v);
      }
    }
    return out;
  }

  withResourceVersion(obj: Obj, resourceVersion: string | undefined): Obj {
    return setMetaKey(obj, resourceVersion, 'sorted');
  }
}

const UNSTRUCTURED = new UnstructuredShape();
const shapes = new Map<string, ObjectShape>();

/**
 * The shape of top-level objects of one kind: typed when the catalog describes `message` (a full name such as
 * `apps.v1.DaemonSet`), unstructured when `message` is undefined or not described.
 */
export function objectShape(message: string | undefined): ObjectShape {
  if (message === undefined) return UNSTRUCTURED;
  let s = shapes.get(message);
  if (!s) {
    try {
      s = new TypedShape(message);
    } catch {
      s = UNSTRUCTURED;
    }
    shapes.set(message, s);
  }
  return s;
}

/**
 * Rewrites, in place, the values decoding changes in kube (quantities become their canonical text) without
 * touching the object's shape: what validation and comparisons must see before the write canonicalizes the rest.
 * `message` as in {@link objectShape}; nothing happens for unstructured objects.
 */
export function normalizeValues(message: string | undefined, obj: Obj): void {
  if (message === undefined) return;
  let plan: MessagePlan;
  try {
    plan = planOf(message);
  } catch {
    return;
  }
  normalizeIn(obj, plan, 0);
}

/** Does a value of this field's type contain quantities somewhere? Cached per message. */
const hasQuantities = new Map<string, boolean>();

function messageHasQuantities(name: string): boolean {
  const hit = hasQuantities.get(name);
  if (hit !== undefined) return hit;
  hasQuantities.set(name, false); // recursion guard
  let any = false;
  for (const f of planOf(name).fields) if (fieldHasQuantities(f)) any = true;
  hasQuantities.set(name, any);
  return any;
}

function fieldHasQuantities(f: FieldPlan): boolean {
  if (f.val === Val.Special) return f.special === 'quantity';
  return f.val === Val.Message && messageHasQuantities(f.message!);
}

function normalizeIn(src: Obj, plan: MessagePlan, depth: number): void {
  if (depth > 100) return;
  for (const f of plan.fields) {
    if (!fieldHasQuantities(f)) continue;
    if (f.inline) {
      normalizeIn(src, planOf(f.message!), depth + 1);
      continue;
    }
    const v = src[f.json];
    if (v === undefined || v === null) continue;
    if (f.shape === Shape.List) {
      if (Array.isArray(v)) for (let i = 0; i < v.length; i++) v[i] = normalizeElement(f, v[i], depth);
    } else if (f.shape === Shape.Map) {
      if (isObj(v)) for (const k of Object.keys(v)) v[k] = normalizeElement(f, v[k], depth);
    } else {
      src[f.json] = normalizeElement(f, v, depth);
    }
  }
}

function normalizeElement(f: FieldPlan, v: unknown, depth: number): unknown {
  if (f.val === Val.Special) return typeof v === 'string' || typeof v === 'number' ? canonicalQuantity(v) ?? v : v;
  if (isObj(v)) normalizeIn(v, planOf(f.message!), depth + 1);
  return v;
}

/** The canonical JSON value of one embedded message (not a top-level object): for tests and callers below. */
export function canonicalMessage(fullName: string, value: Obj): Obj {
  return message(value, planOf(fullName));
}
