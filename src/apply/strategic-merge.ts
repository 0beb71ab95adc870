/**
 * Strategic merge patch (k8s.io/apimachinery/pkg/util/strategicpatch, server side: parallel lists merged, nulls
 * not matching anything ignored), driven by the catalog's patch markers:
 * - maps merge key by key; `null` deletes a key; `$patch: replace` replaces the map, `$patch: delete` empties it;
 * - lists whose field says `patchStrategy: merge` merge: lists of maps by `patchMergeKey` (items with
 *   `$patch: delete` remove matches, `$patch: replace` replaces the whole list), lists of scalars as a union;
 *   `$deleteFromPrimitiveList/<field>` removes scalars; `$setElementOrder/<field>` fixes the final order;
 *   any other list is replaced;
 * - `$retainKeys: [...]` clears the keys of the map not listed (unions with the retainKeys strategy);
 * - the result must still fit the kind's types (`cannot restore map from int64` and friends, 422, as kube's
 *   conversion back to a Go object reports).
 * Errors are StatusErrors with kube's codes and wording (400 for malformed directives, 422 for lists of lists
 * and retainKeys mismatches, 500 for what kube does not classify). Neither input is modified.
 */
import { StatusError, errors } from '../machinery/errors.ts';
import { fieldOf, resolveNode, type SchemaNode, type StructNode } from './schema-view.ts';
import { checkTypes } from './ssa/typecheck.ts';
import { goFormat } from './fieldpath/value.ts';

type JMap = Record<string, unknown>;

const DIRECTIVE = '$patch';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER = '$setElementOrder';
const RETAIN_KEYS = '$retainKeys';

/** Errors kube maps to 400 / 422 (mergepatch's sentinel errors). */
const BAD_PRIMITIVE_LIST = 'invalid patch format of primitive list';
const BAD_RETAIN_KEYS = 'invalid patch format of retainKeys';
const BAD_SET_ELEMENT_ORDER = 'invalid patch format of setElementOrder list';
const NO_LIST_OF_LISTS = 'lists of lists are not supported';

class SmpError extends Error {}

function isMap(v: unknown): v is JMap {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function clone<T>(v: T): T {
  return v === undefined ? v : (structuredClone(v) as T);
}

/** Go's reflect type name of an unstructured value, for mergepatch's "expected a X, but received a Y". */
function goType(v: unknown): string {
  if (v === null || v === undefined) return '%!s(<nil>)';
  if (Array.isArray(v)) return '[]interface {}';
  if (isMap(v)) return 'map[string]interface {}';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return Number.isInteger(v) ? 'int64' : 'float64';
}

function badArgType(expected: string, actual: unknown): SmpError {
  return new SmpError(`expected a ${expected}, but received a ${goType(actual)}`);
}

function noMergeKey(m: JMap, key: string): SmpError {
  return new SmpError(`map: ${goFormat(m)} does not contain declared merge key: ${key}`);
}

function kindOf(v: unknown): 'map' | 'slice' | 'scalar' | 'nil' {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  if (isMap(v)) return 'map';
  return 'scalar';
}

/** Go's `==` on interface values holding scalars (maps and slices never compare equal here). */
function scalarEq(a: unknown, b: unknown): boolean {
  return a === b && kindOf(a) !== 'map' && kindOf(a) !== 'slice';
}

interface FieldInfo {
  node: SchemaNode;
  strategy: string;
  retainKeys: boolean;
  mergeKey: string;
}

function lookup(node: SchemaNode, key: string, value: unknown): FieldInfo {
  const n = resolveNode(node, value);
  let child: SchemaNode = { kind: 'untyped' };
  let patchStrategy: string | undefined;
  let mergeKey: string | undefined;
  if (n.kind === 'struct') {
    const f = fieldOf(n, key);
    child = f.node;
    patchStrategy = f.patchStrategy;
    mergeKey = f.patchMergeKey;
  } else if (n.kind === 'map') {
    child = n.value;
  }
  const strategies = patchStrategy ? patchStrategy.split(',') : [];
  const retainKeys = strategies.includes('retainKeys');
  const strategy = strategies.find((s) => s !== 'retainKeys') ?? '';
  return { node: child, strategy, retainKeys, mergeKey: mergeKey ?? '' };
}

function elementNode(node: SchemaNode): SchemaNode {
  return node.kind === 'list' ? node.element : { kind: 'untyped' };
}

/**
 * Applies `patch` to `original` with strategic merge semantics for the type rooted at `view`.
 * @throws StatusError (400, 422 or 500) as kube-apiserver answers the same patch.
 */
export function applyStrategicMergePatch(original: object, patch: object, view: StructNode): JMap {
  let merged: JMap;
  try {
    merged = mergeMap(clone(original as JMap), clone(patch as JMap), view);
  } catch (err) {
    if (!(err instanceof SmpError)) throw err;
    throw interpret(err.message);
  }
  const typeError = checkTypes(merged, view);
  if (typeError) throw patchInvalid(patch, typeError);
  return merged;
}

/** The 422 kube answers when the patched result does not fit the kind (value = the patch, Go `%+v`). */
export function patchInvalid(patch: unknown, detail: string): StatusError {
  const value = goFormat(patch);
  const body = `Invalid value: ${JSON.stringify(value)}: ${detail}`;
  return new StatusError(422, 'Invalid', ` "" is invalid: patch: ${body}`, {
    causes: [{ reason: 'FieldValueInvalid', message: body, field: 'patch' }],
  });
}

function interpret(message: string): StatusError {
  if (message === BAD_PRIMITIVE_LIST || message === BAD_RETAIN_KEYS || message === BAD_SET_ELEMENT_ORDER) {
    return errors.badRequest(message);
  }
  if (message === NO_LIST_OF_LISTS || message === "patch content doesn't match retainKeys list") {
    return new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
  }
  return new StatusError(500, '', message);
}

function mergeMap(original: JMap | undefined, patch: JMap, node: SchemaNode): JMap {
  if (DIRECTIVE in patch) return directiveInMap(patch[DIRECTIVE], patch);
  const orig = original ?? {};
  applyRetainKeys(orig, patch);
  mergeSetElementOrder(orig, patch, node);
  for (const rawKey of Object.keys(patch)) {
    const patchV = patch[rawKey];
    let k = rawKey;
    let isDeleteList = false;
    if (rawKey.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      k = extractKey(rawKey, DELETE_FROM_PRIMITIVE_LIST);
      isDeleteList = true;
    }
    if (patchV === null) {
      delete orig[k];
      continue;
    }
    if (!(k in orig)) {
      if (!isDeleteList) setFromPatch(orig, k, patchV);
      continue;
    }
    const ok = kindOf(orig[k]);
    const pk = kindOf(patchV);
    if (ok !== pk || ok === 'scalar' || ok === 'nil' || goType(orig[k]) !== goType(patchV)) {
      if (!isDeleteList) setFromPatch(orig, k, patchV);
      continue;
    }
    const info = lookup(node, k, orig[k]);
    if (ok === 'map') {
      orig[k] = info.strategy === 'replace' ? patchV : mergeMap(orig[k] as JMap, patchV as JMap, info.node);
    } else {
      orig[k] = mergeSliceHandler(orig[k] as unknown[], patchV as unknown[], info, isDeleteList);
    }
  }
  return orig;
}

function setFromPatch(orig: JMap, k: string, patchV: unknown): void {
  discardNulls(patchV);
  const [v, keep] = removeDirectives(patchV);
  if (keep) orig[k] = v;
  else delete orig[k];
}

function directiveInMap(directive: unknown, patch: JMap): JMap {
  if (directive === 'replace') {
    delete patch[DIRECTIVE];
    return patch;
  }
  if (directive === 'delete') return {};
  throw new SmpError(`unknown patch type: ${goFormat(directive)} in map: ${goFormat(patch)}`);
}

function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    throw new SmpError(prefix === DELETE_FROM_PRIMITIVE_LIST ? BAD_PRIMITIVE_LIST : BAD_SET_ELEMENT_ORDER);
  }
  return s.slice(slash + 1);
}

function applyRetainKeys(original: JMap, patch: JMap): void {
  if (!(RETAIN_KEYS in patch)) return;
  const list = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(list)) throw new SmpError(BAD_RETAIN_KEYS);
  const keep = new Set(list.filter((v) => typeof v === 'string') as string[]);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!keep.has(k)) throw new SmpError(BAD_RETAIN_KEYS);
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

function discardNulls(v: unknown): void {
  if (Array.isArray(v)) {
    for (const x of v) discardNulls(x);
  } else if (isMap(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (x === null) delete v[k];
      else discardNulls(x);
    }
  }
}

/** Drops directive-carrying maps (and their entries) from a value taken as is from the patch. */
function removeDirectives(v: unknown): [unknown, boolean] {
  if (isMap(v)) {
    if (DIRECTIVE in v) return [undefined, false];
    for (const k of Object.keys(v)) {
      const [nv, keep] = removeDirectives(v[k]);
      if (keep) v[k] = nv;
      else delete v[k];
    }
    return [v, true];
  }
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const x of v) {
      const [nv, keep] = removeDirectives(x);
      if (keep) out.push(nv);
    }
    return [out, true];
  }
  return [v, true];
}

function mergeSliceHandler(original: unknown[], patch: unknown[], info: FieldInfo, isDeleteList: boolean): unknown[] {
  if (info.strategy === 'merge' || isDeleteList) return mergeSlice(original, patch, info, isDeleteList);
  return patch;
}

/** The common element kind of lists (maps, scalars of one Go type); lists of lists are rejected. */
function sliceElementType(...lists: unknown[][]): string {
  let prev: string | undefined;
  for (const l of lists) {
    for (const v of l) {
      const t = goType(v);
      if (prev === undefined) {
        prev = t;
        if (Array.isArray(v)) throw new SmpError(NO_LIST_OF_LISTS);
      } else if (prev !== t) {
        throw new SmpError(`list element types are not identical: ${lists.map((x) => goFormat(x)).join(' ')}`);
      }
    }
  }
  if (prev === undefined) throw new SmpError('no elements in any of the given slices');
  return prev;
}

function mergeSlice(original: unknown[], patch: unknown[], info: FieldInfo, isDeleteList: boolean): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const t = sliceElementType(original, patch);
  const isMapList = t === 'map[string]interface {}';
  let merged: unknown[];
  let orig = original;
  let p = patch;
  if (!isMapList) {
    if (isDeleteList) return original.filter((v) => !patch.some((d) => scalarEq(v, d)));
    merged = dedupe([...original, ...patch]);
  } else {
    if (!info.mergeKey) throw new SmpError(`cannot merge lists without merge key for ${info.node.kind === 'list' ? 'slice' : 'struct'}`);
    [orig, p] = mergeSliceWithSpecialElements(original, patch, info.mergeKey);
    merged = mergeSliceWithoutSpecialElements(orig, p, info.mergeKey, elementNode(info.node));
  }
  const key = isMapList ? info.mergeKey : '';
  const [patchItems, serverOnly] = partition(merged, p, key);
  return normalizeElementOrder(patchItems, serverOnly, p, orig, key, isMapList);
}

function dedupe(s: unknown[]): unknown[] {
  // Go's in-place dedupe: a later duplicate is overwritten by the last element (order is normalized afterwards).
  const out = [...s];
  let length = out.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (scalarEq(out[i], out[j])) {
        out[j] = out[length];
        out.length = length;
        length--;
        j--;
      }
    }
  }
  return out;
}

function mergeSliceWithSpecialElements(original: unknown[], patch: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const plain: unknown[] = [];
  let replace = false;
  let orig = original;
  for (const v of patch) {
    const m = v as JMap;
    if (!(DIRECTIVE in m)) {
      plain.push(v);
      continue;
    }
    const d = m[DIRECTIVE];
    if (d === 'delete') {
      if (!(mergeKey in m)) throw noMergeKey(m, mergeKey);
      orig = orig.filter((o) => !(isMap(o) && mergeKey in o && scalarEq(o[mergeKey], m[mergeKey])));
    } else if (d === 'replace') {
      replace = true;
    } else if (d === 'merge') {
      throw new SmpError('merging lists cannot yet be specified in the patch');
    } else {
      throw new SmpError(`unknown patch type: ${goFormat(d)} in map: ${goFormat(m)}`);
    }
  }
  return replace ? [plain, []] : [orig, plain];
}

function findByKey(list: unknown[], key: string, value: unknown): number {
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (!isMap(v)) throw new SmpError(`value for key ${i} is not a map`);
    if (key in v && scalarEq(v[key], value)) return i;
  }
  return -1;
}

function mergeSliceWithoutSpecialElements(original: unknown[], patch: unknown[], mergeKey: string, node: SchemaNode): unknown[] {
  const out = [...original];
  for (const v of patch) {
    const m = v as JMap;
    if (!(mergeKey in m)) throw noMergeKey(m, mergeKey);
    const i = findByKey(out, mergeKey, m[mergeKey]);
    if (i >= 0) out[i] = mergeMap(out[i] as JMap, m, node);
    else out.push(v);
  }
  return out;
}

function keyOf(item: unknown, mergeKey: string, isMapList: boolean): unknown {
  return isMapList ? (isMap(item) ? item[mergeKey] : undefined) : item;
}

function indexIn(list: unknown[], item: unknown, mergeKey: string, isMapList: boolean): number {
  const k = keyOf(item, mergeKey, isMapList);
  for (let i = 0; i < list.length; i++) if (scalarEq(keyOf(list[i], mergeKey, isMapList), k) || (k === undefined && keyOf(list[i], mergeKey, isMapList) === undefined)) return i;
  return -1;
}

function partition(merged: unknown[], by: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const inPatch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of merged) {
    if (mergeKey) {
      if (!isMap(v)) throw badArgType('map[string]interface {}', v);
      if (!(mergeKey in v)) throw noMergeKey(v, mergeKey);
      if (findByKey(by, mergeKey, v[mergeKey]) >= 0) inPatch.push(v);
      else serverOnly.push(v);
    } else if (by.some((b) => scalarEq(b, v))) inPatch.push(v);
    else serverOnly.push(v);
  }
  return [inPatch, serverOnly];
}

function normalizeSliceOrder(toSort: unknown[], order: unknown[], mergeKey: string, isMapList: boolean): unknown[] {
  let items = toSort;
  let toDelete: unknown[] = [];
  if (isMapList) {
    for (const l of [toSort, order]) {
      for (const v of l) {
        if (!isMap(v)) throw badArgType('map[string]interface {}', v);
        if (!(mergeKey in v)) throw noMergeKey(v, mergeKey);
      }
    }
    items = toSort.filter((v) => (v as JMap)[DIRECTIVE] !== 'delete');
    toDelete = toSort.filter((v) => (v as JMap)[DIRECTIVE] === 'delete');
  }
  const indexed = items.map((v) => ({ v, i: indexIn(order, v, mergeKey, isMapList) }));
  indexed.sort((a, b) => (a.i >= 0 && b.i >= 0 ? a.i - b.i : 0));
  return [...indexed.map((x) => x.v), ...toDelete];
}

/** kube's normalizeElementOrder + mergeSortedSlice: patch order first, server-only items slotted by live order. */
function normalizeElementOrder(patchItems: unknown[], serverOnly: unknown[], patchOrder: unknown[], serverOrder: unknown[], mergeKey: string, isMapList: boolean): unknown[] {
  const right = normalizeSliceOrder(patchItems, patchOrder, mergeKey, isMapList);
  const left = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, isMapList);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(serverOrder, left[i], mergeKey, isMapList);
      const ri = indexIn(serverOrder, right[j], mergeKey, isMapList);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

/** `$setElementOrder/<field>`: merges that field's list now and orders it as listed. */
function mergeSetElementOrder(original: JMap, patch: JMap, node: SchemaNode): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw badArgType('[]interface {}', order);
    const field = extractKey(key, SET_ELEMENT_ORDER);
    const foundOrig = field in original;
    const foundPatch = field in patch;
    const origList = original[field];
    const patchList = patch[field];
    if (foundOrig && !Array.isArray(origList)) throw badArgType('[]interface {}', origList);
    if (foundPatch && !Array.isArray(patchList)) throw badArgType('[]interface {}', patchList);
    const info = lookup(node, field, origList ?? patchList);
    validateSetOrder((patchList as unknown[] | undefined) ?? [], order, info.mergeKey);
    let merged: unknown[];
    if (foundOrig && !foundPatch) merged = origList as unknown[];
    else if (!foundOrig && foundPatch) merged = removeDirectives(patchList)[0] as unknown[];
    else if (foundOrig && foundPatch) merged = mergeSliceHandler(origList as unknown[], patchList as unknown[], info, false);
    else continue;
    const isMapList = info.mergeKey !== '';
    const [patchItems, serverOnly] = partition(merged, order, info.mergeKey);
    sliceElementType((origList as unknown[] | undefined) ?? [], (patchList as unknown[] | undefined) ?? []);
    original[field] = normalizeElementOrder(patchItems, serverOnly, order, (origList as unknown[] | undefined) ?? [], info.mergeKey, isMapList);
    delete patch[field];
  }
}

function validateSetOrder(patchList: unknown[], order: unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  let nonDelete = patchList;
  if (mergeKey) {
    nonDelete = patchList.filter((v) => {
      if (!isMap(v)) throw badArgType('map[string]interface {}', v);
      return v[DIRECTIVE] !== 'delete';
    });
  }
  let pi = 0;
  let oi = 0;
  while (pi < nonDelete.length && oi < order.length) {
    const item = nonDelete[pi];
    if (isMap(item) && DIRECTIVE in item) {
      pi++;
      continue;
    }
    let equal: boolean;
    if (!mergeKey) equal = scalarEq(item, order[oi]);
    else {
      const a = item as JMap;
      const b = order[oi];
      if (!isMap(b)) throw badArgType('map[string]interface {}', b);
      if (!(mergeKey in a)) throw noMergeKey(a, mergeKey);
      if (!(mergeKey in b)) throw noMergeKey(b, mergeKey);
      equal = scalarEq(a[mergeKey], b[mergeKey]);
    }
    if (equal) pi++;
    oi++;
  }
  if (pi < nonDelete.length && oi >= order.length) {
    throw new SmpError(`The order in patch list:\n${goFormat(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${goFormat(order)}\n`);
  }
}
