/**
 * Defaulting (kube's pkg/apiserver/schema/defaulting/algorithm.go and prunenulls.go):
 * - a property with a `default` is set when absent, or when `null` and the property is not nullable;
 * - nested defaults apply only where the parent object exists (a default of `{}` on the parent makes it
 *   exist, and then the children's defaults apply, top-down);
 * - list items and map values that are `null` where not nullable take the item/value default;
 * - afterwards, `null` values of non-nullable fields without a default are dropped (object fields only;
 *   kube keeps them in lists, where validation reports them).
 *
 * Mutates in place. Defaults are deep-copied so objects never share default values.
 */
import { cloneJson, isObject, type Structural } from './types.ts';

export function applyDefaults(x: unknown, s: Structural | undefined): void {
  if (s === undefined) return;
  if (isObject(x)) {
    if (s.properties) {
      for (const [k, prop] of s.properties) {
        if (prop.default === undefined) continue;
        if (!(k in x) || (x[k] === null && !prop.nullable)) x[k] = cloneJson(prop.default);
      }
    }
    for (const k of Object.keys(x)) {
      const prop = s.properties?.get(k);
      if (prop) {
        applyDefaults(x[k], prop);
      } else if (s.additionalProperties !== undefined && s.additionalProperties !== true) {
        const ap = s.additionalProperties;
        if (x[k] === null && !ap.nullable && ap.default !== undefined) x[k] = cloneJson(ap.default);
        applyDefaults(x[k], ap);
      }
    }
    return;
  }
  if (Array.isArray(x) && s.items) {
    const it = s.items;
    for (let i = 0; i < x.length; i++) {
      if (x[i] === null && !it.nullable && it.default !== undefined) x[i] = cloneJson(it.default);
      applyDefaults(x[i], it);
    }
  }
}

/** Drops `null` object fields (and map values) whose schema is not nullable and has no default. */
export function pruneNonNullableNulls(x: unknown, s: Structural | undefined): void {
  if (s === undefined) return;
  if (isObject(x)) {
    for (const k of Object.keys(x)) {
      const prop = s.properties?.get(k) ?? (s.additionalProperties === true ? undefined : s.additionalProperties);
      if (!prop) continue;
      if (x[k] === null) {
        if (!prop.nullable && prop.default === undefined) delete x[k];
      } else {
        pruneNonNullableNulls(x[k], prop);
      }
    }
    return;
  }
  if (Array.isArray(x) && s.items) for (const v of x) pruneNonNullableNulls(v, s.items);
}
