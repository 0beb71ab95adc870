/**
 * `x-kubernetes-list-type` set/map uniqueness (kube's pkg/apiserver/schema/listtype): the second occurrence
 * of a value (set) or key (map) is reported once as `Duplicate value`; map items must be objects.
 */
import { field, type FieldError } from '../../machinery/errors.ts';
import { childPath, indexPath, isObject, keyPath, type Structural } from './types.ts';
import { stableKey } from './value-validation.ts';
import { subtreeHas } from './structural.ts';

const hasListType = (s: Structural) => subtreeHas(s, 'listtype', (n) => n.listType === 'set' || n.listType === 'map');

export function validateListTypes(obj: unknown, s: Structural, path = ''): FieldError[] {
  const errs: FieldError[] = [];
  walk(obj, s, path, errs);
  return errs;
}

function walk(x: unknown, s: Structural, path: string, errs: FieldError[]): void {
  if (!hasListType(s)) return;
  if (isObject(x)) {
    if (s.additionalProperties !== undefined && s.additionalProperties !== true) {
      for (const [k, v] of Object.entries(x)) walk(v, s.additionalProperties, keyPath(path, k), errs);
    }
    if (s.properties) {
      for (const [k, v] of Object.entries(x)) {
        const sub = s.properties.get(k);
        if (sub) walk(v, sub, childPath(path, k), errs);
      }
    }
    return;
  }
  if (!Array.isArray(x)) return;
  if (s.listType === 'set') {
    for (const i of nonUnique(x)) errs.push(field.duplicate(indexPath(path, i), x[i]));
  } else if (s.listType === 'map') {
    listMap(x, s.listMapKeys ?? [], path, errs);
  }
  if (s.items) x.forEach((v, i) => walk(v, s.items!, indexPath(path, i), errs));
}

/** Indexes of the second occurrence of each repeated value. */
function nonUnique(x: unknown[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  x.forEach((v, i) => {
    const k = stableKey(v);
    const n = seen.get(k) ?? 0;
    if (n === 1) out.push(i);
    seen.set(k, n + 1);
  });
  return out;
}

function listMap(x: unknown[], keys: readonly string[], path: string, errs: FieldError[]): void {
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    if (v !== null && !isObject(v)) {
      errs.push(field.invalid(indexPath(path, i), v, 'must be an object for an array of list-type map'));
      return;
    }
  }
  if (x.length <= 1) return;
  const keyObjs = x.map((v) => {
    const k: Record<string, unknown> = {};
    // Sorted keys: Go prints maps with sorted keys.
    if (isObject(v)) for (const f of [...keys].sort()) if (f in v) k[f] = v[f];
    return k;
  });
  for (const i of nonUnique(keyObjs)) errs.push(field.duplicate(indexPath(path, i), keyObjs[i]));
}
