/**
 * managedFields upkeep for writes that are not apply (POST, PUT, JSON/merge/strategic PATCH), as kube's
 * FieldManager.Update does:
 * 1. Which managers to start from: the live object's when writing through a subresource; none when the request
 *    resets (`managedFields: [{}]`); the request's own entries when it carries readable, non-empty ones; else
 *    the live object's (clients that drop managedFields do not wipe them).
 * 2. Objects that have no managers when updated stay untracked (managedFields stays absent). Creates are tracked.
 * 3. The writer's `Update` entry (per manager, apiVersion, subresource) gains every field the write added or
 *    changed; other managers lose those fields, and everybody loses removed fields; emptied entries go.
 *    The writer's `time` is set only when it gained something.
 * 4. Fields never owned (apiVersion, kind, metadata.name/namespace/uid/…/managedFields) are stripped; more
 *    than 10 Update entries fold the oldest into `ancient-changes`.
 */
import type { ManagedFieldsEntry } from '../../machinery/objects.ts';
import { rootNodeFor, rootNodeForObject, type StructNode } from '../schema-view.ts';
import type { FieldSet } from '../fieldpath/set.ts';
import {
  capUpdateManagers, decodeManagedFields, encodeManagedFields, formatTime, isResetManagedFields, managerIdentifier,
  STRIPPED_FIELDS, type Managers,
} from './managers.ts';
import { normalizeTyped } from './remove.ts';
import { filterIgnored, reassign } from './updater.ts';

type Obj = Record<string, unknown>;

export interface UpdateManagedFieldsOptions {
  /** The object before the write; undefined for a create. */
  old: object | undefined;
  /** The object about to be stored (after defaulting/admission), possibly carrying managedFields from the request. */
  updated: object;
  /** fieldManager, else the User-Agent prefix; empty becomes `unknown`, as kube does. */
  manager: string;
  operation?: 'Update';
  /** The request's group/version (`v1`, `apps/v1`). */
  apiVersion: string;
  subresource?: string;
  /** The kind (defaults to the object's `kind`, then the old object's); picks the schema with `apiVersion`. */
  kind?: string;
  /** Root schema node; defaults to the catalog's for (apiVersion, kind), unstructured when it has none. */
  view?: StructNode;
  /** Reset fields of the strategy (e.g. `status` on the main resource); never owned through this write. */
  ignoredFields?: FieldSet;
  now: string | Date;
}

export interface ManagedFieldsResult {
  /** `updated` with metadata.managedFields replaced (removed when undefined). A new object; inputs untouched. */
  object: Obj;
  managedFields: ManagedFieldsEntry[] | undefined;
}

function metaOf(o: unknown): Obj | undefined {
  const m = (o as Obj | undefined)?.metadata;
  return m && typeof m === 'object' && !Array.isArray(m) ? (m as Obj) : undefined;
}

function decodeOrEmpty(mf: unknown): Managers {
  try {
    return decodeManagedFields(mf);
  } catch {
    return new Map();
  }
}

/** The object with metadata.managedFields set to `entries` (or removed). */
export function withManagedFields(obj: object, entries: ManagedFieldsEntry[] | undefined): Obj {
  const out: Obj = { ...(obj as Obj) };
  const meta: Obj = { ...(metaOf(obj) ?? {}) };
  if (entries) meta.managedFields = entries;
  else delete meta.managedFields;
  out.metadata = meta;
  return out;
}

export function updateManagedFields(o: UpdateManagedFieldsOptions): ManagedFieldsResult {
  const kind = o.kind ?? (o.updated as Obj).kind ?? (o.old as Obj | undefined)?.kind;
  const root = o.view ?? (typeof kind === 'string' ? rootNodeFor(o.apiVersion, kind) : undefined) ?? rootNodeForObject(o.updated as Obj);
  const requested = metaOf(o.updated)?.managedFields;
  let managers: Managers;
  if (o.subresource) managers = decodeOrEmpty(metaOf(o.old)?.managedFields);
  else if (isResetManagedFields(requested)) managers = new Map();
  else {
    managers = decodeOrEmpty(requested);
    if (managers.size === 0) managers = decodeOrEmpty(metaOf(o.old)?.managedFields);
  }
  const bare = withManagedFields(o.updated, undefined);
  if (managers.size === 0 && o.old !== undefined) return { object: bare, managedFields: undefined };

  const typeMeta = { apiVersion: (o.updated as Obj).apiVersion, kind: (o.updated as Obj).kind };
  const oldN = normalizeTyped(o.old ? withManagedFields(o.old, undefined) : typeMeta, root);
  const newN = normalizeTyped(bare, root);
  const entries = recordUpdate({
    managers, oldObj: oldN, newObj: newN, manager: o.manager, apiVersion: o.apiVersion,
    ...(o.subresource ? { subresource: o.subresource } : {}), root, ignored: o.ignoredFields, now: formatTime(o.now),
  });
  return { object: withManagedFields(bare, entries), managedFields: entries };
}

/**
 * The Update bookkeeping on already-normalized objects (also used by apply for `before-first-apply`).
 * Mutates `managers`; returns the encoded entries.
 */
export function recordUpdate(o: {
  managers: Managers; oldObj: unknown; newObj: unknown; manager: string; apiVersion: string; subresource?: string;
  root: StructNode; ignored: FieldSet | undefined; now: string;
}): ManagedFieldsEntry[] | undefined {
  const CURRENT = '\u0000current-operation';
  const compare = reassign({ oldObj: o.oldObj, newObj: o.newObj, managers: o.managers, workflow: CURRENT, force: true, root: o.root, ...(o.ignored ? { ignored: o.ignored } : {}) });
  const changed = filterIgnored(compare.modified.union(compare.added), o.ignored).difference(STRIPPED_FIELDS);
  if (!changed.isEmpty()) {
    const state = {
      manager: o.manager || 'unknown', operation: 'Update' as const, apiVersion: o.apiVersion,
      ...(o.subresource ? { subresource: o.subresource } : {}),
    };
    const id = managerIdentifier(state);
    const prev = o.managers.get(id);
    o.managers.set(id, { ...state, set: prev ? changed.union(prev.set) : changed, time: o.now });
  }
  capUpdateManagers(o.managers);
  return encodeManagedFields(o.managers);
}
