/**
 * kube's rbacregistry.IsOnlyMutatingGCFields: an update that changes nothing but ownerReferences and
 * finalizers (and selfLink/managedFields) skips the escalation checks, so the garbage collector can always
 * finish deleting RBAC objects. Compared as Go's semantic equality does: zero values ("" / 0 / false / null /
 * empty lists and maps) equal absent ones.
 */
import type { KObject } from '../../machinery/objects.ts';

const GC_FIELDS = ['ownerReferences', 'finalizers', 'selfLink', 'managedFields'] as const;

function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

function semanticEqual(a: unknown, b: unknown): boolean {
  if (isZero(a) && isZero(b)) return true;
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => semanticEqual(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) if (!semanticEqual(ao[k], bo[k])) return false;
  return true;
}

export function isOnlyMutatingGCFields(obj: KObject, old: KObject | undefined): boolean {
  if (!old) return false;
  const meta: Record<string, unknown> = { ...obj.metadata };
  for (const f of GC_FIELDS) meta[f] = (old.metadata as Record<string, unknown>)[f];
  return semanticEqual({ ...obj, metadata: meta }, old);
}
