/**
 * Merging an applied configuration into the live object (SMD's TypedValue.Merge with "keep RHS" at leaves):
 * - leaves (scalars, atomic lists/maps/structs, composites empty on both sides) take the applied value;
 * - struct fields and map entries merge key by key; keys only in live stay;
 * - granular lists merge item by item by key (map lists) or value (sets), keeping the applied order for items
 *   the config lists and slotting live-only items where they were (SMD's ordering algorithm, ported);
 * - a `null` in the config for a non-empty granular composite keeps the live value (SMD reads it as an empty
 *   container), for anything else it sets null (the caller drops nulls when normalizing).
 *
 * Throws `MergeError` for duplicate keys in the config's map lists or items that cannot be keyed.
 */
import { fieldOf, resolveNode, type ListNode, type SchemaNode } from '../schema-view.ts';
import { listItemElement } from '../fieldpath/from-value.ts';
import { pathString, type PathElement } from '../fieldpath/element.ts';

export class MergeError extends Error {}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
}

/** `merge(live, config)`; neither input is modified; the result may share unchanged subtrees with the inputs. */
export function mergeObjects(lhs: unknown, rhs: unknown, root: SchemaNode): unknown {
  return merge(lhs, rhs, root, []);
}

function merge(lhs: unknown, rhs: unknown, node: SchemaNode, path: PathElement[]): unknown {
  if (rhs === undefined) return lhs;
  if (lhs === undefined) return rhs;
  const n = resolveNode(node, rhs === null ? lhs : rhs);
  if (node.kind === 'untyped' && rhs !== null && resolveNode(node, lhs) !== n) return rhs;
  switch (n.kind) {
    case 'scalar': return rhs;
    case 'list': {
      if (n.listType === 'atomic') return rhs;
      const l = Array.isArray(lhs) ? lhs : undefined;
      const r = Array.isArray(rhs) ? rhs : undefined;
      if ((rhs !== null && !r) || (isEmpty(l) && isEmpty(r))) return rhs;
      if (!l) return rhs;
      return mergeList(l, r ?? [], n, path);
    }
    default: {
      if (n.atomic) return rhs;
      const l = isObject(lhs) ? lhs : undefined;
      const r = isObject(rhs) ? rhs : undefined;
      if ((rhs !== null && !r) || (isEmpty(l) && isEmpty(r))) return rhs;
      if (!l) return rhs;
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(l)) {
        if (l[k] === undefined) continue;
        out[k] = r && k in r ? mergeChild(l[k], r[k], n.kind === 'struct' ? fieldOf(n, k).node : n.value, path, k) : l[k];
      }
      if (r) for (const k of Object.keys(r)) if (!(k in out) && r[k] !== undefined) out[k] = r[k];
      return out;
    }
  }
}

function mergeChild(lv: unknown, rv: unknown, node: SchemaNode, path: PathElement[], key: string): unknown {
  path.push({ id: `f:${key}`, type: 'field', name: key });
  const v = merge(lv, rv, node, path);
  path.pop();
  return v;
}

function elementsOf(items: unknown[], list: ListNode, path: PathElement[], allowDuplicates: boolean): { pes: PathElement[]; observed: Map<string, unknown> } {
  const pes: PathElement[] = [];
  const observed = new Map<string, unknown>();
  items.forEach((item, i) => {
    let pe: PathElement;
    try {
      pe = listItemElement(list, item);
    } catch (err) {
      throw new MergeError(`${pathString(path)}: element ${i}: ${(err as Error).message}`);
    }
    if (observed.has(pe.id)) {
      if (!allowDuplicates) throw new MergeError(`${pathString(path)}: duplicate entries for key ${pathString([pe])}`);
      observed.set(pe.id, null); // duplicated live items merge as if absent
    } else {
      observed.set(pe.id, item);
    }
    pes.push(pe);
  });
  return { pes, observed };
}

/** SMD's visitListItems: config order for shared and new items, live-only items kept in place. */
function mergeList(lhs: unknown[], rhs: unknown[], list: ListNode, path: PathElement[]): unknown[] {
  const R = elementsOf(rhs, list, path, false);
  const L = elementsOf(lhs, list, path, true);
  const out: unknown[] = [];
  const sharedOrder = R.pes.filter((pe) => L.observed.has(pe.id));
  let nextShared: PathElement | undefined = sharedOrder.shift();
  const mergedRHS = new Set<string>();
  const item = (pe: PathElement, l: unknown, r: unknown): void => {
    path.push(pe);
    const v = merge(l, r, list.element, path);
    path.pop();
    if (v !== undefined) out.push(v);
  };
  let lI = 0;
  let rI = 0;
  while (lI < L.pes.length || rI < R.pes.length) {
    if (lI < L.pes.length && rI < R.pes.length) {
      const pe = L.pes[lI]!;
      if (pe.id === R.pes[rI]!.id) {
        mergedRHS.add(pe.id);
        item(pe, L.observed.get(pe.id) ?? undefined, R.observed.get(pe.id));
        lI++;
        rI++;
        nextShared = sharedOrder.shift();
        continue;
      }
      if (R.observed.has(pe.id) && nextShared && nextShared.id !== pe.id) {
        lI++;
        continue;
      }
    }
    if (lI < L.pes.length) {
      const pe = L.pes[lI]!;
      if (!R.observed.has(pe.id)) {
        item(pe, lhs[lI], undefined);
        lI++;
        continue;
      } else if (mergedRHS.has(pe.id)) {
        lI++;
      }
    }
    if (rI < R.pes.length) {
      const pe = R.pes[rI]!;
      mergedRHS.add(pe.id);
      const l = L.observed.get(pe.id);
      item(pe, l === null ? undefined : l, R.observed.get(pe.id));
      rI++;
      if (nextShared && nextShared.id === pe.id) nextShared = sharedOrder.shift();
    }
  }
  return out;
}
