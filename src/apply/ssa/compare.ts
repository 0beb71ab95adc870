/**
 * Schema-aware comparison of two versions of an object (SMD's TypedValue.Compare): the paths added, modified and
 * removed. Leaves (scalars, atomic values, and empty composites) compare by value; granular composites recurse,
 * and a composite that appears or disappears as a whole is itself added or removed (so a new map field shows as
 * a member with its entries: `{".":{},"f:a":{}}`). Absent (`undefined`) and `null` differ: a null field is present.
 */
import { fieldOf, resolveNode, type ListNode, type SchemaNode } from '../schema-view.ts';
import { fieldElement, type PathElement } from '../fieldpath/element.ts';
import { listItemElement } from '../fieldpath/from-value.ts';
import { FieldSet } from '../fieldpath/set.ts';
import { jsonEqual } from '../fieldpath/value.ts';

export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isEmptyComposite(v: unknown): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
}

export function compareObjects(lhs: unknown, rhs: unknown, root: SchemaNode): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  walk(c, [], lhs, rhs, root);
  return c;
}

function leaf(c: Comparison, path: PathElement[], lhs: unknown, rhs: unknown): void {
  if (lhs === undefined) c.added.insert(path);
  else if (rhs === undefined) c.removed.insert(path);
  else if (!jsonEqual(lhs, rhs)) c.modified.insert(path);
}

function walk(c: Comparison, path: PathElement[], lhs: unknown, rhs: unknown, node: SchemaNode): void {
  const nl = lhs === undefined ? undefined : resolveNode(node, lhs);
  const nr = rhs === undefined ? undefined : resolveNode(node, rhs);
  const n = nr ?? nl!;
  // A deduced shape that changes between versions (untyped data) compares as one value.
  if (nl && nr && nl !== nr && node.kind === 'untyped' && lhs !== null && rhs !== null) return leaf(c, path, lhs, rhs);
  let isLeaf = false;
  switch (n.kind) {
    case 'scalar': isLeaf = true; break;
    case 'list': {
      const l = Array.isArray(lhs) ? lhs : undefined;
      const r = Array.isArray(rhs) ? rhs : undefined;
      if (n.listType === 'atomic' || (isEmptyComposite(l) && isEmptyComposite(r)) || shapeMismatch(lhs, rhs, Array.isArray)) {
        isLeaf = true;
        break;
      }
      walkList(c, path, l ?? [], r ?? [], n);
      break;
    }
    default: {
      const l = isObject(lhs) ? lhs : undefined;
      const r = isObject(rhs) ? rhs : undefined;
      if (n.atomic || (isEmptyComposite(l) && isEmptyComposite(r)) || shapeMismatch(lhs, rhs, isObject)) {
        isLeaf = true;
        break;
      }
      const keys = new Set([...Object.keys(l ?? {}), ...Object.keys(r ?? {})]);
      for (const k of keys) {
        const lv = l?.[k];
        const rv = r?.[k];
        if (lv === undefined && rv === undefined) continue;
        const child = n.kind === 'struct' ? fieldOf(n, k).node : n.value;
        path.push(fieldElement(k));
        walk(c, path, lv, rv, child);
        path.pop();
      }
    }
  }
  if (isLeaf) return leaf(c, path, lhs, rhs);
  if (lhs === undefined) c.added.insert(path);
  else if (rhs === undefined) c.removed.insert(path);
}

/** A value of the wrong shape for its schema (say a string where a struct belongs) compares as a leaf. */
function shapeMismatch(lhs: unknown, rhs: unknown, ok: (v: unknown) => boolean): boolean {
  return (lhs !== undefined && lhs !== null && !ok(lhs)) || (rhs !== undefined && rhs !== null && !ok(rhs));
}

function walkList(c: Comparison, path: PathElement[], lhs: unknown[], rhs: unknown[], list: ListNode): void {
  const order: PathElement[] = [];
  const lValues = new Map<string, unknown[]>();
  const rValues = new Map<string, unknown[]>();
  const index = (items: unknown[], into: Map<string, unknown[]>, addNew: (pe: PathElement) => boolean): void => {
    for (const item of items) {
      let pe: PathElement;
      try {
        pe = listItemElement(list, item);
      } catch {
        continue;
      }
      const got = into.get(pe.id);
      if (got) got.push(item);
      else {
        into.set(pe.id, [item]);
        if (addNew(pe)) order.push(pe);
      }
    }
  };
  index(lhs, lValues, () => true);
  index(rhs, rValues, (pe) => !lValues.has(pe.id));
  for (const pe of order) {
    const l = lValues.get(pe.id) ?? [];
    const r = rValues.get(pe.id) ?? [];
    path.push(pe);
    if (l.length <= 1 && r.length <= 1) {
      walk(c, path, l[0], r[0], list.element);
    } else if (l.length >= 2 && r.length >= 2) {
      if (l.length !== r.length || l.some((v, i) => !jsonEqual(v, r[i]))) c.modified.insert(path);
    } else if (l.length >= 2) {
      if (r.length !== 0) walk(c, path, undefined, r[0], list.element);
      c.removed.insert(path);
    } else {
      if (l.length !== 0) walk(c, path, l[0], undefined, list.element);
      c.added.insert(path);
    }
    path.pop();
  }
}
