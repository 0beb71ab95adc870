/**
 * How the catalog describes protobuf messages: one compact line per field, the way Kubernetes' Go types carry
 * `protobuf:"bytes,1,opt,name=metadata"` tags. A package file declares its messages with `definePackage`:
 *
 * ```ts
 * definePackage('core.v1', {
 *   ConfigMap: {
 *     metadata: '1 meta.ObjectMeta',
 *     data: '2 map<string,string>',
 *     binaryData: '3 map<string,bytes>',
 *     immutable: '4 *bool',          // '*' = pointer in Go: written only when set, kept when zero
 *   },
 *   Volume: { name: '1 !string', _inline2: '2 ~VolumeSource' }, // '~' = embedded inline in JSON, nested on the wire
 * });
 * ```
 * `!` (before `*`/`[]`/the type) marks a field whose Go JSON tag has no `omitempty`: its JSON is always written,
 * with the zero value when unset ("", 0, false, `null` for nil pointers, slices and maps). Fields without `!` are
 * `omitempty`: dropped from JSON when empty. (Struct values are never empty in Go's encoding/json: a non-pointer
 * struct field is written either way; see src/api/canonical.ts.) Most fields are `omitempty`, so the rarer case
 * carries the mark.
 * After the type come merge markers (Go struct tags and `+listType`/`+listMapKey`/`+mapType`/`+structType`
 * comments), used by strategic merge patch and server-side apply:
 *   `list=map(name)`, `list=set`, `list=atomic`, `patch=merge(name)`, `patch=merge+retainKeys(name)`, `patch=replace`,
 *   `map=atomic`, `struct=atomic`; a message-level list of atomic structs is `definePackage`'s third argument.
 * Types: string, bytes, bool, int32, int64, double, `[]T` (repeated), `map<K,V>`, or a message name — short names
 * resolve in the same package first, then in `meta`, `runtime`, `util`; other packages are written qualified.
 * Non-pointer scalars and nested messages are always written on the wire (as Go's generated marshallers do);
 * pointers only when present. Field order on the wire is ascending field number.
 */

export type ScalarType = 'string' | 'bytes' | 'bool' | 'int32' | 'int64' | 'double';

export type ValueType =
  | { readonly kind: 'scalar'; readonly scalar: ScalarType }
  | { readonly kind: 'message'; readonly name: string };

export interface FieldSpec {
  readonly json: string;
  readonly number: number;
  readonly type: ValueType;
  readonly repeated: boolean;
  /** map<K,V>: `type` is the value type. */
  readonly mapKey?: ScalarType;
  readonly pointer: boolean;
  /** Go struct embedded with `json:",inline"`: its fields sit in the parent's JSON object. */
  readonly inline: boolean;
  /** The JSON tag has `omitempty` (no `!` in the notation): empty values are dropped from JSON. */
  readonly omitEmpty: boolean;
  readonly listType?: 'atomic' | 'set' | 'map';
  readonly listMapKeys?: readonly string[];
  /** Strategic merge patch strategy: `merge`, `replace`, with `retainKeys` for unions. */
  readonly patchStrategy?: string;
  readonly patchMergeKey?: string;
  readonly mapType?: 'atomic' | 'granular';
  readonly structType?: 'atomic' | 'granular';
}

/**
 * Messages with a JSON form of their own (Go types with custom MarshalJSON): the codec converts them by hand.
 */
export type SpecialForm = 'time' | 'microtime' | 'duration' | 'quantity' | 'intorstring' | 'rawextension' | 'fieldsv1' | 'json' | 'stringlist'
  // apiextensions' JSONSchemaPropsOrBool / OrArray / OrStringArray: a schema object, or a bool / list of schemas /
  // list of strings, as one JSON value; on the wire a message with one field per alternative.
  | 'schemaorbool' | 'schemaorarray' | 'schemaorstringarray';

export interface MessageSpec {
  readonly fullName: string;
  /** In field-number order (the wire order). */
  readonly fields: readonly FieldSpec[];
  /** In Go declaration order (the JSON key order Go writes). */
  readonly declared: readonly FieldSpec[];
  readonly byNumber: ReadonlyMap<number, FieldSpec>;
  readonly byJson: ReadonlyMap<string, FieldSpec>;
  readonly special?: SpecialForm;
  /** The whole struct is owned and replaced as one value (`+structType=atomic`). */
  readonly atomic: boolean;
}

const SCALARS = new Set<string>(['string', 'bytes', 'bool', 'int32', 'int64', 'double']);
const FALLBACK_PACKAGES = ['meta', 'runtime', 'util'];

type RawPackage = Record<string, Record<string, string>>;

const rawPackages = new Map<string, RawPackage>();
const specials = new Map<string, SpecialForm>();
const atomicStructs = new Set<string>();
const resolved = new Map<string, MessageSpec>();

/** Registers a package's messages (parsed lazily, on first use). */
export function definePackage(pkg: string, messages: RawPackage, special: Record<string, SpecialForm> = {}, atomic: string[] = []): void {
  rawPackages.set(pkg, messages);
  for (const [name, form] of Object.entries(special)) specials.set(`${pkg}.${name}`, form);
  for (const name of atomic) atomicStructs.add(`${pkg}.${name}`);
}

export function hasMessage(fullName: string): boolean {
  const dot = fullName.lastIndexOf('.');
  return rawPackages.get(fullName.slice(0, dot))?.[fullName.slice(dot + 1)] !== undefined;
}

function resolveName(pkg: string, name: string): string {
  if (rawPackages.get(pkg)?.[name]) return `${pkg}.${name}`;
  for (const p of FALLBACK_PACKAGES) if (rawPackages.get(p)?.[name]) return `${p}.${name}`;
  if (hasMessage(name)) return name;
  throw new Error(`protobuf schema: unknown message ${name} referenced from package ${pkg}`);
}

function parseType(pkg: string, t: string): ValueType {
  return SCALARS.has(t) ? { kind: 'scalar', scalar: t as ScalarType } : { kind: 'message', name: resolveName(pkg, t) };
}

function parseField(pkg: string, json: string, line: string): FieldSpec {
  const [head, ...marks] = line.trim().split(/ +(?=[a-z]+=)/);
  const m = /^(\d+) (!)?(\*)?(~)?(\[\])?(?:map<(\w+),([\w.]+)>|([\w.]+))$/.exec(head!);
  if (!m) throw new Error(`protobuf schema: cannot parse field ${pkg}.${json}: ${JSON.stringify(line)}`);
  const [, num, always, ptr, inl, rep, mapK, mapV, plain] = m;
  if (mapK && !SCALARS.has(mapK)) throw new Error(`protobuf schema: map key must be scalar in ${pkg}.${json}`);
  const spec: { -readonly [K in keyof FieldSpec]: FieldSpec[K] } = {
    json, number: Number(num), type: parseType(pkg, (mapV ?? plain)!), repeated: !!rep, pointer: !!ptr, inline: !!inl,
    omitEmpty: !always,
  };
  if (mapK) spec.mapKey = mapK as ScalarType;
  for (const mark of marks) {
    const mm = /^(list|patch|map|struct)=([A-Za-z+]+)(?:\(([\w,]+)\))?$/.exec(mark);
    if (!mm) throw new Error(`protobuf schema: bad marker ${JSON.stringify(mark)} on ${pkg}.${json}`);
    const [, what, value, keys] = mm;
    if (what === 'list') {
      spec.listType = value as FieldSpec['listType'];
      if (keys) spec.listMapKeys = keys.split(',');
    } else if (what === 'patch') {
      spec.patchStrategy = value!.replace('+', ',');
      if (keys) spec.patchMergeKey = keys;
    } else if (what === 'map') {
      spec.mapType = value as FieldSpec['mapType'];
    } else {
      spec.structType = value as FieldSpec['structType'];
    }
  }
  return spec;
}

/** The parsed description of a message, e.g. `core.v1.ConfigMap`. Throws when unknown. */
export function messageSpec(fullName: string): MessageSpec {
  const hit = resolved.get(fullName);
  if (hit) return hit;
  const dot = fullName.lastIndexOf('.');
  const pkg = fullName.slice(0, dot);
  const raw = rawPackages.get(pkg)?.[fullName.slice(dot + 1)];
  if (!raw) throw new Error(`protobuf schema: unknown message ${fullName}`);
  const declared = Object.entries(raw).map(([json, line]) => parseField(pkg, json, line));
  const fields = [...declared].sort((a, b) => a.number - b.number);
  const spec: MessageSpec = {
    fullName, fields, declared, special: specials.get(fullName), atomic: atomicStructs.has(fullName),
    byNumber: new Map(fields.map((f) => [f.number, f])), byJson: new Map(fields.map((f) => [f.json, f])),
  };
  resolved.set(fullName, spec);
  return spec;
}

/** Every registered message's full name (for tests that check all references resolve). */
export function allMessageNames(): string[] {
  const out: string[] = [];
  for (const [pkg, msgs] of rawPackages) for (const name of Object.keys(msgs)) out.push(`${pkg}.${name}`);
  return out;
}
