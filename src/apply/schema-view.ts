/**
 * A merge-oriented view of the catalog's type descriptions (src/api/protobuf/schema.ts), answering "what is the
 * value at this place" for strategic merge patch and server-side apply:
 *
 * - `scalar`: a leaf (strings, numbers, booleans, and every special form — Time, Quantity, IntOrString,
 *   RawExtension, FieldsV1 — since those are replaced whole);
 * - `struct`: named fields (embedded `inline` structs flattened into their parent, as in JSON), `atomic` when
 *   the struct is `+structType=atomic`; `open` structs accept any key as an untyped field (custom resources);
 * - `map`: string keys to one value type, `atomic` for `+mapType=atomic`;
 * - `list`: `listType` atomic | set | map (with `keys`), plus the strategic-merge markers `patchStrategy` and
 *   `patchMergeKey` as written on the Go field. When `listType` is missing, `patchStrategy=merge` reads as
 *   listType=map keyed by the merge key (or set for scalar lists), otherwise atomic (SPEC "Merge strategy markers");
 * - `untyped`: no schema; the shape is deduced from the value ({@link resolveNode}): objects are open structs,
 *   arrays atomic lists, the rest scalars.
 *
 * Nodes are built lazily and cached per message, so walking the same kind repeatedly allocates nothing new.
 * Invariant: a node never changes after construction; field lookups return the same node object each time.
 */
import { messageSpec, type FieldSpec } from '../api/protobuf/schema.ts';
import { packageOf } from '../api/protobuf/codec.ts';

export type SchemaNode = ScalarNode | StructNode | MapNode | ListNode | UntypedNode;

/** Field-level strategic merge markers (Go struct tags `patchStrategy` / `patchMergeKey`). */
export interface PatchMarkers {
  /** e.g. `merge`, `replace`, `retainKeys`, `merge,retainKeys`. */
  readonly patchStrategy?: string;
  readonly patchMergeKey?: string;
}

export interface ScalarNode {
  readonly kind: 'scalar';
  /** The JSON type expected (undefined for special forms, which accept several). */
  readonly scalar?: 'string' | 'number' | 'integer' | 'boolean';
  /** The Go type of the field (`string`, `int32`, `int64`, `float64`, `bool`, `[]uint8`), for error messages. */
  readonly goType?: string;
  /** Special form name (time, quantity, intorstring, rawextension, …) when the value has a JSON form of its own. */
  readonly special?: string;
}

export interface StructNode {
  readonly kind: 'struct';
  readonly atomic: boolean;
  /** Unknown keys are accepted as untyped fields (custom resources, preserved unknown fields). */
  readonly open: boolean;
  /** The message name, for error messages and debugging. */
  readonly name: string;
  field(name: string): FieldNode | undefined;
}

export interface MapNode extends PatchMarkers {
  readonly kind: 'map';
  readonly atomic: boolean;
  readonly value: SchemaNode;
}

export interface ListNode extends PatchMarkers {
  readonly kind: 'list';
  readonly listType: 'atomic' | 'set' | 'map';
  /** Key fields of listType=map, in declaration order. */
  readonly keys: readonly string[];
  readonly element: SchemaNode;
}

export interface UntypedNode {
  readonly kind: 'untyped';
}

/** A struct field: its node plus the markers written on the field. */
export interface FieldNode extends PatchMarkers {
  readonly name: string;
  readonly node: SchemaNode;
  /** Go pointer (`*T`): absent when unset. Non-pointer struct fields are always present in Go's encoding. */
  readonly pointer: boolean;
}

export const UNTYPED: UntypedNode = { kind: 'untyped' };
const SPECIAL_SCALARS = new Map<string, ScalarNode>();
const PLAIN_SCALARS: Record<string, ScalarNode> = {
  string: { kind: 'scalar', scalar: 'string', goType: 'string' },
  bytes: { kind: 'scalar', scalar: 'string', goType: '[]uint8' },
  bool: { kind: 'scalar', scalar: 'boolean', goType: 'bool' },
  int32: { kind: 'scalar', scalar: 'integer', goType: 'int32' },
  int64: { kind: 'scalar', scalar: 'integer', goType: 'int64' },
  double: { kind: 'scalar', scalar: 'number', goType: 'float64' },
};
const ANY_SCALAR: ScalarNode = { kind: 'scalar' };

/** Open struct for schemaless objects: every key is a field whose shape is deduced from its value. */
export const UNTYPED_STRUCT: StructNode = {
  kind: 'struct', atomic: false, open: true, name: 'untyped',
  field: (name) => untypedField(name),
};
/** Schemaless arrays are atomic (SPEC: "all lists are atomic"). */
export const UNTYPED_LIST: ListNode = { kind: 'list', listType: 'atomic', keys: [], element: UNTYPED };

const untypedFields = new Map<string, FieldNode>();
function untypedField(name: string): FieldNode {
  let f = untypedFields.get(name);
  if (!f) {
    f = { name, node: UNTYPED, pointer: true };
    if (untypedFields.size < 10_000) untypedFields.set(name, f);
  }
  return f;
}

/**
 * The concrete node for a value at a place typed `node`: untyped places take their shape from the value.
 * Returns `node` itself for typed places.
 */
export function resolveNode(node: SchemaNode, value: unknown): Exclude<SchemaNode, UntypedNode> {
  if (node.kind !== 'untyped') return node;
  if (Array.isArray(value)) return UNTYPED_LIST;
  if (value !== null && typeof value === 'object') return UNTYPED_STRUCT;
  return ANY_SCALAR;
}

const structCache = new Map<string, StructNode>();

function valueNodeOf(f: FieldSpec): SchemaNode {
  if (f.type.kind === 'scalar') return PLAIN_SCALARS[f.type.scalar] ?? ANY_SCALAR;
  return messageNode(f.type.name);
}

/** The node for one protobuf message (struct, or scalar for special forms). */
export function messageNode(fullName: string): StructNode | ScalarNode {
  const hit = structCache.get(fullName) ?? SPECIAL_SCALARS.get(fullName);
  if (hit) return hit;
  const spec = messageSpec(fullName);
  if (spec.special) {
    const s: ScalarNode = { kind: 'scalar', special: spec.special };
    SPECIAL_SCALARS.set(fullName, s);
    return s;
  }
  let fields: Map<string, FieldNode> | undefined;
  const node: StructNode = {
    kind: 'struct', atomic: spec.atomic, open: false, name: fullName,
    field(name) {
      fields ??= buildFields(fullName);
      return fields.get(name);
    },
  };
  structCache.set(fullName, node);
  return node;
}

const fieldsCache = new Map<string, Map<string, FieldNode>>();

/** Fields of a message by JSON name, with embedded (`inline`) structs flattened in, as Go's JSON does. */
function buildFields(fullName: string): Map<string, FieldNode> {
  const hit = fieldsCache.get(fullName);
  if (hit) return hit;
  const out = new Map<string, FieldNode>();
  fieldsCache.set(fullName, out);
  for (const f of messageSpec(fullName).fields) {
    if (f.inline && f.type.kind === 'message' && !messageSpec(f.type.name).special) {
      for (const [k, v] of buildFields(f.type.name)) out.set(k, v);
      continue;
    }
    out.set(f.json, fieldNodeOf(f));
  }
  return out;
}

function fieldNodeOf(f: FieldSpec): FieldNode {
  const markers: PatchMarkers = {
    ...(f.patchStrategy ? { patchStrategy: f.patchStrategy } : {}),
    ...(f.patchMergeKey ? { patchMergeKey: f.patchMergeKey } : {}),
  };
  const element = valueNodeOf(f);
  let node: SchemaNode;
  if (f.mapKey) {
    node = { kind: 'map', atomic: f.mapType === 'atomic', value: element, ...markers };
  } else if (f.repeated) {
    node = { kind: 'list', ...listShape(f, element), element, ...markers };
  } else if (element.kind === 'struct' && f.structType === 'atomic' && !element.atomic) {
    node = { ...element, atomic: true, field: element.field };
  } else {
    node = element;
  }
  return { name: f.json, node, pointer: f.pointer, ...markers };
}

function listShape(f: FieldSpec, element: SchemaNode): { listType: ListNode['listType']; keys: readonly string[] } {
  if (f.listType === 'map') return { listType: 'map', keys: f.listMapKeys ?? (f.patchMergeKey ? [f.patchMergeKey] : []) };
  if (f.listType) return { listType: f.listType, keys: [] };
  if (f.patchStrategy?.split(',').includes('merge')) {
    if (f.patchMergeKey) return { listType: 'map', keys: [f.patchMergeKey] };
    return { listType: element.kind === 'scalar' ? 'set' : 'atomic', keys: [] };
  }
  return { listType: 'atomic', keys: [] };
}

const TYPE_META: Record<string, FieldNode> = {
  apiVersion: { name: 'apiVersion', node: PLAIN_SCALARS.string!, pointer: false },
  kind: { name: 'kind', node: PLAIN_SCALARS.string!, pointer: false },
};

const rootCache = new Map<string, StructNode>();

/**
 * The root node for a top-level object of (apiVersion, kind): the kind's message plus TypeMeta's `apiVersion`
 * and `kind`. Undefined when the catalog has no schema for it (use {@link unstructuredRoot}).
 */
export function rootNodeFor(apiVersion: string, kind: string): StructNode | undefined {
  const pkg = packageOf(apiVersion);
  if (pkg === undefined) return undefined;
  const fullName = `${pkg}.${kind}`;
  const hit = rootCache.get(fullName);
  if (hit) return hit;
  let inner: StructNode | ScalarNode;
  try {
    inner = messageNode(fullName);
  } catch {
    return undefined;
  }
  if (inner.kind !== 'struct') return undefined;
  const base = inner;
  const root: StructNode = {
    kind: 'struct', atomic: false, open: false, name: fullName,
    field: (name) => TYPE_META[name] ?? base.field(name),
  };
  rootCache.set(fullName, root);
  return root;
}

let unstructured: StructNode | undefined;

/**
 * Root for objects without a schema (custom resources): `metadata` is ObjectMeta as for every object;
 * every other key is an untyped field (open struct), lists are atomic.
 */
export function unstructuredRoot(): StructNode {
  if (unstructured) return unstructured;
  const meta: FieldNode = { name: 'metadata', node: messageNode('meta.ObjectMeta'), pointer: false };
  unstructured = {
    kind: 'struct', atomic: false, open: true, name: 'unstructured',
    field: (name) => (name === 'metadata' ? meta : TYPE_META[name] ?? untypedField(name)),
  };
  return unstructured;
}

/** Root node for an object: typed when the catalog knows (apiVersion, kind), unstructured otherwise. */
export function rootNodeForObject(obj: { apiVersion?: unknown; kind?: unknown }): StructNode {
  if (typeof obj.apiVersion === 'string' && typeof obj.kind === 'string') {
    return rootNodeFor(obj.apiVersion, obj.kind) ?? unstructuredRoot();
  }
  return unstructuredRoot();
}

/** The field node of `name` in `struct`, falling back to an untyped field for open structs and unknown keys. */
export function fieldOf(struct: StructNode, name: string): FieldNode {
  return struct.field(name) ?? untypedField(name);
}

/** Whether `name` is a declared field of `struct` (open structs declare every key). */
export function isDeclaredField(struct: StructNode, name: string): boolean {
  return struct.open || struct.field(name) !== undefined;
}
