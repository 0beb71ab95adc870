/**
 * The field set an object sets, as structured-merge-diff's ToFieldSet computes it:
 * - scalars, atomic lists, atomic maps and atomic structs are leaves (members, nothing below);
 * - granular lists (set, map) contribute one element per item: `v:<value>` for sets, `k:{keys}` for map
 *   lists, each a member too (hence `"k:{...}":{".":{}, ...}`), with the item's own fields below;
 * - struct fields contribute their leaves; a struct field is itself a member only when its value is null or an
 *   empty object; entries of maps (not declared fields) are always members.
 * Items with duplicate keys are owned as a whole (a member, nothing below).
 */
import { fieldOf, isDeclaredField, resolveNode, type ListNode, type SchemaNode, type StructNode } from '../schema-view.ts';
import { fieldElement, keyElement, valueElement, type PathElement } from './element.ts';
import { FieldSet } from './set.ts';

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Defaults of list-map key fields from kube's OpenAPI v3 (`+default=`), used when an item omits the key, as SMD
 * does with the schema default (so `ports: [{containerPort: 80}]` is keyed `{"containerPort":80,"protocol":"TCP"}`).
 * Other non-pointer scalar keys default to their zero value, as kube's generated schemas declare them.
 */
const KEY_DEFAULTS: Record<string, Record<string, unknown>> = {
  'core.v1.ContainerPort': { protocol: 'TCP' },
  'core.v1.ServicePort': { protocol: 'TCP' },
};

function keyDefault(list: ListNode, key: string): unknown {
  if (list.element.kind !== 'struct') return undefined;
  const explicit = KEY_DEFAULTS[list.element.name]?.[key];
  if (explicit !== undefined) return explicit;
  const f = list.element.field(key);
  if (!f || f.pointer || f.node.kind !== 'scalar') return undefined;
  switch (f.node.scalar) {
    case 'string': return '';
    case 'integer': case 'number': return 0;
    case 'boolean': return false;
    default: return undefined;
  }
}

/** Why an item cannot be addressed in a granular list (SMD's wording). */
export class ListItemError extends Error {}

/** The path element of one item of a set or map list; throws ListItemError when the item cannot be keyed. */
export function listItemElement(list: ListNode, item: unknown): PathElement {
  if (list.listType === 'map' && list.keys.length > 0) {
    if (item === null) throw new ListItemError('associative list with keys may not have a null element');
    if (!isObject(item)) throw new ListItemError('associative list with keys may not have non-map elements');
    const fields: Array<readonly [string, unknown]> = [];
    for (const k of list.keys) {
      if (Object.prototype.hasOwnProperty.call(item, k) && item[k] !== undefined) {
        fields.push([k, item[k]]);
        continue;
      }
      const d = keyDefault(list, k);
      if (d !== undefined) fields.push([k, d]);
    }
    if (fields.length === 0) {
      throw new ListItemError(`associative list with keys has an element that omits all key fields [${list.keys.map((k) => JSON.stringify(k)).join(' ')}] (and doesn't have default values for any key fields)`);
    }
    return keyElement(fields);
  }
  if (isObject(item)) throw new ListItemError("associative list without keys has an element that's a map type");
  if (Array.isArray(item)) throw new ListItemError('not supported: associative list with lists as elements');
  if (item === null) throw new ListItemError("associative list without keys has an element that's an explicit null");
  return valueElement(item);
}

/** The set of fields `obj` sets, per the schema rooted at `root`. */
export function fieldSetOf(obj: unknown, root: SchemaNode): FieldSet {
  const set = new FieldSet();
  walkChildren(obj, root, set);
  return set;
}

/**
 * Adds the paths below the current place (whose node in the set tree is `here`) to `here`. The caller adds the
 * current place itself when it is a leaf.
 * @returns whether the value is a leaf (the caller must then add the current path as a member).
 */
function walkChildren(value: unknown, node: SchemaNode, here: FieldSet): boolean {
  const n = resolveNode(node, value);
  switch (n.kind) {
    case 'scalar': return true;
    case 'list': {
      if (n.listType === 'atomic') return true;
      if (!Array.isArray(value)) return value !== null && value !== undefined;
      walkList(value, n, here);
      return false;
    }
    case 'map':
    case 'struct': {
      if (n.atomic) return true;
      if (!isObject(value)) return value !== null && value !== undefined;
      for (const key of Object.keys(value)) {
        const v = value[key];
        if (v === undefined) continue;
        const pe = fieldElement(key);
        const child = n.kind === 'struct' ? fieldOf(n, key).node : n.value;
        const sub = here.descend(pe);
        const leaf = walkChildren(v, child, sub);
        if (sub.isEmpty()) here.children.delete(pe.id);
        const member = leaf || v === null || (isObject(v) && Object.keys(v).length === 0)
          || !(n.kind === 'struct' && isDeclaredField(n as StructNode, key));
        if (member) here.members.set(pe.id, pe);
      }
      return false;
    }
  }
}

function walkList(items: unknown[], list: ListNode, here: FieldSet): void {
  const pes: Array<PathElement | undefined> = [];
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const item of items) {
    let pe: PathElement | undefined;
    try {
      pe = listItemElement(list, item);
    } catch {
      pe = undefined; // unaddressable items (bad data already stored) own nothing
    }
    pes.push(pe);
    if (!pe) continue;
    if (seen.has(pe.id)) {
      if (!dup.has(pe.id)) {
        dup.add(pe.id);
        here.members.set(pe.id, pe);
      }
    } else {
      seen.add(pe.id);
    }
  }
  for (let i = 0; i < items.length; i++) {
    const pe = pes[i];
    if (!pe || dup.has(pe.id)) continue;
    const sub = here.descend(pe);
    walkChildren(items[i], list.element, sub);
    if (sub.isEmpty()) here.children.delete(pe.id);
    here.members.set(pe.id, pe);
  }
}
