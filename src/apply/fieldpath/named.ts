/**
 * SMD's EnsureNamedFieldsAreMembers: a set plus every struct field that has children in it (a set holding
 * `a.b.c` also holds `a` when `a` is a declared field, but not `a.b` when `a` is a map). Used when pruning
 * fields an applier stopped applying, so that emptied structs go too.
 */
import { fieldOf, isDeclaredField, UNTYPED_STRUCT, type SchemaNode } from '../schema-view.ts';
import { FieldSet } from './set.ts';

export function ensureNamedFieldsAreMembers(set: FieldSet, node: SchemaNode): FieldSet {
  const out = new FieldSet();
  const n = node.kind === 'untyped' ? UNTYPED_STRUCT : node;
  for (const [id, pe] of set.members) out.members.set(id, pe);
  for (const [id, c] of set.children) {
    let childNode: SchemaNode | undefined;
    if (c.pe.type === 'field' && n.kind === 'struct') {
      if (isDeclaredField(n, c.pe.name)) out.members.set(id, c.pe);
      childNode = fieldOf(n, c.pe.name).node;
    } else if (c.pe.type === 'field' && n.kind === 'map') {
      childNode = n.value;
    } else if (c.pe.type === 'key' && n.kind === 'list') {
      childNode = n.element;
    }
    out.children.set(id, { pe: c.pe, set: childNode ? ensureNamedFieldsAreMembers(c.set, childNode) : c.set.copy() });
  }
  return out;
}
