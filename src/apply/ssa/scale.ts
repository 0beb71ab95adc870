/**
 * Ownership through the `scale` subresource (kube's managedfields.ScaleHandler). A Scale is not the parent's
 * type, so ownership is translated:
 * - `toScale`: the parent's entries that own the replicas path become Scale entries (apiVersion
 *   autoscaling/v1) owning `.spec.replicas`; the Scale served by GET/PUT/PATCH carries these;
 * - after the write to the Scale has been recorded (updateManagedFields / apply with subresource `scale` on the
 *   Scale objects), `toParent` maps back: parent managers keep their other fields, lose the replicas path unless
 *   they still own it in the Scale, and new Scale managers get parent entries owning only the replicas path
 *   (in the parent's apiVersion; kube leaves their `time` unset, and so do we).
 *
 * Usage for PATCH/PUT on deployments/scale (autoscaling/v1 Scale, replicas at `.spec.replicas`):
 * ```ts
 * const scaleEntries = toScale({ parentEntries: deploy.metadata.managedFields, parentApiVersion: 'apps/v1' });
 * const oldScale = { ...scaleOf(deploy), metadata: { ...meta, managedFields: scaleEntries } };
 * const r = updateManagedFields({ old: oldScale, updated: newScale, manager, apiVersion: 'autoscaling/v1', subresource: 'scale', now });
 * deploy.metadata.managedFields = toParent({ parentEntries, parentApiVersion: 'apps/v1', scaleEntries: r.managedFields });
 * ```
 */
import type { ManagedFieldsEntry } from '../../machinery/objects.ts';
import { fieldElement, type Path } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import { decodeManagedFields, encodeManagedFields, type Managers } from './managers.ts';

export const SCALE_API_VERSION = 'autoscaling/v1';
const REPLICAS_IN_SCALE: Path = [fieldElement('spec'), fieldElement('replicas')];

export interface ScaleMapping {
  /** The parent's managedFields as stored. */
  parentEntries: readonly ManagedFieldsEntry[] | undefined;
  /** The parent's group/version (`apps/v1`). */
  parentApiVersion: string;
  /** Where replicas live in the parent (default `.spec.replicas`; custom resources declare their own). */
  replicasPath?: Path;
}

function decode(entries: readonly ManagedFieldsEntry[] | undefined): Managers {
  return decodeManagedFields(entries ? [...entries] : undefined);
}

/** The Scale's managedFields: parent entries owning the replicas path, as owners of the Scale's `.spec.replicas`. */
export function toScale(m: ScaleMapping): ManagedFieldsEntry[] | undefined {
  const path = m.replicasPath ?? REPLICAS_IN_SCALE;
  const out: Managers = new Map();
  for (const [id, e] of decode(m.parentEntries)) {
    if (e.apiVersion !== m.parentApiVersion || !e.set.has(path)) continue;
    out.set(id, { ...e, apiVersion: SCALE_API_VERSION, set: FieldSet.of(REPLICAS_IN_SCALE) });
  }
  return encodeManagedFields(out);
}

/** The parent's managedFields after a write through the Scale, from the Scale's entries after that write. */
export function toParent(m: ScaleMapping & { scaleEntries: readonly ManagedFieldsEntry[] | undefined }): ManagedFieldsEntry[] | undefined {
  const path = m.replicasPath ?? REPLICAS_IN_SCALE;
  const parent = decode(m.parentEntries);
  const scale = decode(m.scaleEntries);
  const out: Managers = new Map();
  for (const [id, e] of parent) {
    if (e.apiVersion !== m.parentApiVersion || !e.set.has(path)) {
      out.set(id, e);
      continue;
    }
    if (!scale.has(id)) {
      const rest = e.set.difference(FieldSet.of(path));
      if (!rest.isEmpty()) out.set(id, { ...e, set: rest });
    } else {
      out.set(id, e);
      scale.delete(id);
    }
  }
  for (const [id, e] of scale) {
    if (!e.set.has(REPLICAS_IN_SCALE)) continue;
    const { time: _time, ...rest } = e;
    void _time;
    out.set(id, { ...rest, apiVersion: m.parentApiVersion, set: FieldSet.of(path) });
  }
  return encodeManagedFields(out);
}
