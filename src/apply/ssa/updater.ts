/**
 * The ownership bookkeeping shared by apply and update (SMD merge.Updater):
 * - `reassign`: given the old and new object, other managers lose the fields that were removed, and the fields
 *   that were added or changed unless they conflict — which, without `force`, is a ConflictError listing each
 *   (manager, field);
 * - `prune`: fields the applier applied last time but not now are removed from the object, unless another
 *   manager (or the new config) still owns them.
 * Single-version model: every manager's set is read against the current schema (Keelson converts objects, not
 * field sets, between versions).
 */
import type { SchemaNode } from '../schema-view.ts';
import { ensureNamedFieldsAreMembers } from '../fieldpath/named.ts';
import { fieldSetOf } from '../fieldpath/from-value.ts';
import { FieldSet } from '../fieldpath/set.ts';
import { compareObjects, type Comparison } from './compare.ts';
import { ConflictError, type Conflict } from './conflict.ts';
import type { Managers } from './managers.ts';
import { removeItems } from './remove.ts';

/** Drops reset fields (a strategy's GetResetFields) from a set: the field and everything below it. */
export function filterIgnored(set: FieldSet, ignored: FieldSet | undefined): FieldSet {
  return ignored && !ignored.isEmpty() ? set.recursiveDifference(ignored) : set;
}

export function compareFiltered(oldObj: unknown, newObj: unknown, root: SchemaNode, ignored: FieldSet | undefined): Comparison {
  const c = compareObjects(oldObj, newObj, root);
  if (!ignored || ignored.isEmpty()) return c;
  return { added: filterIgnored(c.added, ignored), modified: filterIgnored(c.modified, ignored), removed: filterIgnored(c.removed, ignored) };
}

/**
 * Moves ownership for a change from `oldObj` to `newObj` made by `workflow` (mutates `managers`).
 * @throws ConflictError when another manager owns a changed field and `force` is false (managers untouched).
 */
export function reassign(opts: {
  oldObj: unknown; newObj: unknown; managers: Managers; workflow: string; force: boolean; root: SchemaNode; ignored?: FieldSet;
}): Comparison {
  const compare = compareFiltered(opts.oldObj, opts.newObj, opts.root, opts.ignored);
  const changed = compare.modified.union(compare.added);
  const conflicts: Conflict[] = [];
  const taken = new Map<string, FieldSet>();
  for (const id of [...opts.managers.keys()].sort()) {
    if (id === opts.workflow) continue;
    const c = opts.managers.get(id)!.set.intersection(changed);
    if (!c.isEmpty()) {
      taken.set(id, c);
      for (const path of c.paths()) conflicts.push({ manager: id, path });
    }
  }
  if (!opts.force && conflicts.length > 0) throw new ConflictError(conflicts);
  for (const [id, m] of [...opts.managers]) {
    if (id === opts.workflow) continue;
    let set = m.set;
    const c = taken.get(id);
    if (c) set = set.difference(c);
    if (!compare.removed.isEmpty()) set = set.difference(compare.removed);
    if (set.isEmpty()) opts.managers.delete(id);
    else if (set !== m.set) opts.managers.set(id, { ...m, set });
  }
  return compare;
}

/**
 * Removes from `merged` what the applier owned before (`lastSet`) and no manager owns now (`managers` already
 * holds the applier's new set). Mirrors SMD's prune → addBackOwnedItems → addBackDanglingItems.
 */
export function prune(merged: unknown, managers: Managers, lastSet: FieldSet | undefined, root: SchemaNode): unknown {
  if (!lastSet || lastSet.isEmpty()) return merged;
  const named = (s: FieldSet): FieldSet => ensureNamedFieldsAreMembers(s, root);
  const last = named(lastSet);
  let pruned = removeItems(merged, last, root) ?? {};
  let managed = new FieldSet();
  for (const m of managers.values()) managed = managed.union(m.set);
  const mergedSet = named(fieldSetOf(merged, root));
  pruned = removeItems(merged, mergedSet.difference(named(fieldSetOf(pruned, root)).union(named(managed))), root) ?? {};
  const prunedSet = named(fieldSetOf(pruned, root));
  return removeItems(merged, mergedSet.difference(prunedSet).intersection(last), root) ?? {};
}
