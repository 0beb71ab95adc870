/**
 * Pruning (kube's pkg/apiserver/schema/pruning): removes every field the structural schema does not
 * specify, except under `x-kubernetes-preserve-unknown-fields` (where known parts are still pruned inside)
 * and except `apiVersion`/`kind`/`metadata` at a resource root (the object, and every
 * `x-kubernetes-embedded-resource`). A resource root's `metadata` is cut down to ObjectMeta's fields
 * (kube's objectmeta coercion). Removed paths are returned in apimachinery form (`spec.foo`,
 * `spec.list[0].bar`, `metadata.junk`) for fieldValidation Warn/Strict.
 *
 * Mutates the value in place.
 */
import { childPath, indexPath, isObject, type Structural } from './types.ts';

/** ObjectMeta's JSON fields: what survives in `metadata` of a resource root. */
export const OBJECT_META_FIELDS: ReadonlySet<string> = new Set([
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers',
  'managedFields',
]);

/** Prunes `obj` (a whole custom resource) against its root schema; returns the removed paths. */
export function pruneObject(obj: Record<string, unknown>, root: Structural): string[] {
  const pruned: string[] = [];
  pruneValue(obj, root, { root: true, path: '', pruned });
  return pruned;
}

interface Ctx {
  root: boolean;
  path: string;
  pruned: string[];
}

function pruneMeta(meta: unknown, path: string, pruned: string[]): void {
  if (!isObject(meta)) return;
  for (const k of Object.keys(meta)) {
    if (!OBJECT_META_FIELDS.has(k)) {
      pruned.push(childPath(path, k));
      delete meta[k];
    }
  }
}

function pruneValue(x: unknown, s: Structural | undefined, ctx: Ctx): void {
  const isRoot = ctx.root || (s?.embeddedResource ?? false);
  if (isObject(x)) {
    if (s === undefined) {
      for (const k of Object.keys(x)) {
        ctx.pruned.push(childPath(ctx.path, k));
        delete x[k];
      }
      return;
    }
    for (const k of Object.keys(x)) {
      const p = childPath(ctx.path, k);
      if (isRoot && (k === 'apiVersion' || k === 'kind')) continue;
      if (isRoot && k === 'metadata') {
        pruneMeta(x[k], p, ctx.pruned);
        continue;
      }
      const prop = s.properties?.get(k);
      if (prop) {
        pruneValue(x[k], prop, { root: false, path: p, pruned: ctx.pruned });
      } else if (s.additionalProperties !== undefined) {
        if (s.additionalProperties !== true) pruneValue(x[k], s.additionalProperties, { root: false, path: p, pruned: ctx.pruned });
      } else if (!s.preserveUnknownFields) {
        ctx.pruned.push(p);
        delete x[k];
      }
    }
    return;
  }
  if (Array.isArray(x)) {
    // Under preserve-unknown without items, anything goes; with no schema at all, nested objects are pruned.
    if (s === undefined) {
      x.forEach((v, i) => pruneValue(v, undefined, { root: false, path: indexPath(ctx.path, i), pruned: ctx.pruned }));
      return;
    }
    if (s.items === undefined && s.preserveUnknownFields) return;
    x.forEach((v, i) => pruneValue(v, s.items, { root: false, path: indexPath(ctx.path, i), pruned: ctx.pruned }));
  }
}
