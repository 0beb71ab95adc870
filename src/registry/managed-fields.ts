/**
 * managedFields upkeep for registry writes that are not server-side apply (POST, PUT, JSON/merge/strategic
 * PATCH, sub-resource writes), through src/apply/ssa's `updateManagedFields` (kube's FieldManager.Update).
 *
 * Invariants:
 * - the field manager sees the request object after defaulting and before strategy hooks (kube runs it in the
 *   handler, before admission and the registry's strategy), so fields the server adds later are nobody's;
 * - reset fields of the endpoint (status on the main resource, everything but status on `/status`) are never
 *   owned through it;
 * - a caller without a manager (system callers inside the server) records nothing: the request's entries, else
 *   the stored ones, are kept as they are (`[{}]` still resets);
 * - HTTP callers always have a manager (fieldManager or the User-Agent prefix; empty is recorded as `unknown`).
 */
import type { KObject, ManagedFieldsEntry } from '../machinery/objects.ts';
import { isResetManagedFields, resetFields, updateManagedFields } from '../apply/ssa/index.ts';
import type { StructNode } from '../apply/schema-view.ts';

export interface RecordManagedFieldsOptions {
  /** `OpContext.fieldManager`: undefined for system callers (nothing recorded). */
  readonly manager: string | undefined;
  /** The endpoint's group/version (`apps/v1`) and kind (picks the schema). */
  readonly apiVersion: string;
  readonly kind: string;
  /** '' for the main resource. */
  readonly subresource: string;
  /** Whether the kind has a status sub-resource (decides the reset fields). */
  readonly hasStatus: boolean;
  /** The stored object before the write; undefined for a create. */
  readonly old: KObject | undefined;
  /** The request object, defaulted, still carrying the managedFields the request sent. */
  readonly requested: KObject;
  readonly now: Date;
  /** The kind's apply view when the catalog's type descriptions do not know it (custom resources). */
  readonly view?: StructNode;
}

/** The managedFields to store with this write (undefined: the object has none). */
export function managedFieldsFor(o: RecordManagedFieldsOptions): ManagedFieldsEntry[] | undefined {
  const requested = o.requested.metadata?.managedFields;
  if (o.manager === undefined) {
    if (isResetManagedFields(requested)) return undefined;
    if (!o.subresource && Array.isArray(requested) && requested.length > 0) return requested;
    return o.old?.metadata.managedFields;
  }
  const r = updateManagedFields({
    old: o.old,
    updated: o.requested,
    manager: o.manager,
    apiVersion: o.apiVersion,
    kind: o.kind,
    subresource: o.subresource,
    ignoredFields: resetFields({ subresource: o.subresource, hasStatus: o.hasStatus }),
    now: o.now,
    ...(o.view ? { view: o.view } : {}),
  });
  return r.managedFields;
}

/** Sets (or removes) `obj.metadata.managedFields`. */
export function setManagedFields(obj: KObject, entries: ManagedFieldsEntry[] | undefined): void {
  if (entries && entries.length) obj.metadata.managedFields = entries;
  else delete obj.metadata.managedFields;
}
