/**
 * Removing the paths of a field set from an object (SMD's RemoveItems), and the typed normalization that stands
 * in for kube's round trip through Go structs.
 */
import { messageSpec } from '../../api/protobuf/schema.ts';
import { fieldOf, resolveNode, type SchemaNode, type StructNode } from '../schema-view.ts';
import { fieldElement } from '../fieldpath/element.ts';
import { listItemElement } from '../fieldpath/from-value.ts';
import type { FieldSet } from '../fieldpath/set.ts';

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * `value` without the members of `toRemove` (and everything below them). Struct fields, map entries and list
 * items that end up empty because everything in them was removed are dropped (`undefined` when the whole value
 * goes). Atomic values are only ever removed whole. The input is not modified.
 */
export function removeItems(value: unknown, toRemove: FieldSet, node: SchemaNode): unknown {
  if (toRemove.isEmpty()) return value;
  const n = resolveNode(node, value);
  if (n.kind === 'scalar') return value;
  if (n.kind === 'list') {
    if (!Array.isArray(value) || value.length === 0 || n.listType === 'atomic') return value;
    const out: unknown[] = [];
    for (const item of value) {
      let id: string;
      let pe;
      try {
        pe = listItemElement(n, item);
        id = pe.id;
      } catch {
        out.push(item);
        continue;
      }
      if (toRemove.members.has(id)) continue;
      const sub = toRemove.withPrefix(pe);
      const v = sub.isEmpty() ? item : removeItems(item, sub, n.element);
      if (v !== undefined) out.push(v);
    }
    return out.length > 0 ? out : undefined;
  }
  if (!isObject(value) || n.atomic) return value;
  const keys = Object.keys(value);
  if (keys.length === 0) return value;
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const pe = fieldElement(k);
    if (toRemove.members.has(pe.id)) continue;
    const sub = toRemove.withPrefix(pe);
    const v = sub.isEmpty() ? value[k] : removeItems(value[k], sub, n.kind === 'struct' ? fieldOf(n, k).node : n.value);
    if (v !== undefined) out[k] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Go fields serialized even when empty: slices without `omitempty` (kube's OpenAPI lists them as required), so a
 * zero object has them as `null` (and a created object does not own the list itself, only its items).
 */
const NON_OMITEMPTY_LISTS: Record<string, readonly string[]> = {
  'core.v1.PodSpec': ['containers'],
  'core.v1.LimitRangeSpec': ['limits'],
  'core.v1.NodeSelector': ['nodeSelectorTerms'],
  'rbac.v1.Role': ['rules'],
  'rbac.v1.ClusterRole': ['rules'],
  'discovery.v1.EndpointSlice': ['endpoints'],
  'storage.v1.CSINodeSpec': ['drivers'],
  'authentication.v1.TokenRequestSpec': ['audiences'],
};

/**
 * The object as kube's typed round trip would present it (the view SMD compares in kube): nulls dropped, empty
 * maps and lists dropped (Go's `omitempty`), and every non-pointer struct field present (`{}` when unset, as Go
 * always writes embedded values), recursively; required lists present as `null`. Untyped parts are left alone.
 * Returns a new object; the input is not modified.
 */
export function normalizeTyped(value: unknown, node: SchemaNode): unknown {
  if (node.kind === 'untyped') return value;
  if (node.kind === 'scalar') return value;
  if (node.kind === 'list') {
    if (!Array.isArray(value)) return value;
    return value.map((v) => normalizeTyped(v, node.element));
  }
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  if (node.kind === 'map') {
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = normalizeTyped(v, node.value);
    return out;
  }
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined || v === null) continue;
    const f = node.field(k);
    if (!f) {
      out[k] = v; // unknown or open fields: kept as written
      continue;
    }
    const nv = normalizeTyped(v, f.node);
    if ((f.node.kind === 'map' || f.node.kind === 'list') && isEmptyComposite(nv)) continue;
    out[k] = nv;
  }
  fillSkeleton(out, node);
  return out;
}

function isEmptyComposite(v: unknown): boolean {
  return (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
}

/** Adds `{}` for absent non-pointer struct fields (recursively) and `null` for required lists. */
function fillSkeleton(obj: Record<string, unknown>, node: StructNode): void {
  if (node.open) return;
  for (const name of NON_OMITEMPTY_LISTS[node.name] ?? []) if (!(name in obj)) obj[name] = null;
  for (const f of structFields(node)) {
    if (f.pointer || f.node.kind !== 'struct' || f.name in obj) continue;
    const child: Record<string, unknown> = {};
    fillSkeleton(child, f.node);
    obj[f.name] = child;
  }
}

const fieldLists = new Map<string, Array<{ name: string; pointer: boolean; node: SchemaNode }>>();

function structFields(node: StructNode): Array<{ name: string; pointer: boolean; node: SchemaNode }> {
  let list = fieldLists.get(node.name);
  if (!list) {
    list = [];
    for (const name of candidateNames(node)) {
      const f = node.field(name);
      if (f) list.push({ name, pointer: f.pointer, node: f.node });
    }
    fieldLists.set(node.name, list);
  }
  return list;
}

function candidateNames(node: StructNode): string[] {
  const names: string[] = [];
  const visit = (full: string): void => {
    let spec;
    try {
      spec = messageSpec(full);
    } catch {
      return;
    }
    for (const f of spec.fields) {
      if (f.inline && f.type.kind === 'message') visit(f.type.name);
      else names.push(f.json);
    }
  };
  visit(node.name);
  return names;
}
