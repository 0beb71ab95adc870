/**
 * Path elements of structured-merge-diff field paths, identified by their `fieldsV1` serialization:
 *
 * | element | id (fieldsV1 key) | string (paths in messages) |
 * |---|---|---|
 * | struct field / map key | `f:name` | `.name` |
 * | map-list item by keys | `k:{"name":"x","protocol":"TCP"}` (keys sorted) | `[name="x",protocol="TCP"]` |
 * | set item by value | `v:"a"` | `[="a"]` |
 * | list item by index | `i:0` | `[0]` |
 *
 * Invariant: two elements are equal exactly when their ids are equal (ids are canonical: Go-compatible JSON with
 * sorted keys), so sets key their members by id.
 */
import { compareStrings, compareValues, goJson, goJsonString, smdValueString } from './value.ts';

export type PathElement =
  | { readonly id: string; readonly type: 'field'; readonly name: string }
  | { readonly id: string; readonly type: 'key'; readonly fields: ReadonlyArray<readonly [string, unknown]> }
  | { readonly id: string; readonly type: 'value'; readonly value: unknown }
  | { readonly id: string; readonly type: 'index'; readonly index: number };

export type Path = readonly PathElement[];

const fieldCache = new Map<string, PathElement>();

/** `f:<name>` (cached: field names repeat across objects). */
export function fieldElement(name: string): PathElement {
  let pe = fieldCache.get(name);
  if (!pe) {
    pe = { id: `f:${name}`, type: 'field', name };
    if (fieldCache.size < 50_000) fieldCache.set(name, pe);
  }
  return pe;
}

/** `k:{...}` from key fields (sorted by name here). */
export function keyElement(fields: ReadonlyArray<readonly [string, unknown]>): PathElement {
  const sorted = [...fields].sort((a, b) => compareStrings(a[0], b[0]));
  const id = `k:{${sorted.map(([k, v]) => `${goJsonString(k)}:${goJson(v)}`).join(',')}}`;
  return { id, type: 'key', fields: sorted };
}

export function valueElement(value: unknown): PathElement {
  return { id: `v:${goJson(value)}`, type: 'value', value };
}

export function indexElement(index: number): PathElement {
  return { id: `i:${index}`, type: 'index', index };
}

const TYPE_ORDER = { field: 0, key: 1, value: 2, index: 3 } as const;

/** SMD's element order: fields < keys < values < indexes; within a type by name / key list / value / number. */
export function compareElements(a: PathElement, b: PathElement): number {
  if (a.type !== b.type) return TYPE_ORDER[a.type] - TYPE_ORDER[b.type];
  switch (a.type) {
    case 'field': return compareStrings(a.name, (b as typeof a).name);
    case 'key': {
      const fb = (b as typeof a).fields;
      for (let i = 0; ; i++) {
        if (i >= a.fields.length && i >= fb.length) return 0;
        if (i >= a.fields.length) return -1;
        if (i >= fb.length) return 1;
        const c = compareStrings(a.fields[i]![0], fb[i]![0]) || compareValues(a.fields[i]![1], fb[i]![1]);
        if (c !== 0) return c;
      }
    }
    case 'value': return compareValues(a.value, (b as typeof a).value);
    default: return a.index - (b as typeof a).index;
  }
}

/** SMD's PathElement.String(). */
export function elementString(pe: PathElement): string {
  switch (pe.type) {
    case 'field': return `.${pe.name}`;
    case 'key': return `[${pe.fields.map(([k, v]) => `${k}=${smdValueString(v)}`).join(',')}]`;
    case 'value': return `[=${smdValueString(pe.value)}]`;
    default: return `[${pe.index}]`;
  }
}

/** SMD's Path.String(): `.spec.containers[name="x"].image`. */
export function pathString(path: Path): string {
  return path.map(elementString).join('');
}

/**
 * Parses a fieldsV1 key (`f:`, `k:`, `v:`, `i:`). Returns undefined for an unknown element type (SMD skips
 * those); throws on malformed JSON or index.
 */
export function parseElement(s: string): PathElement | undefined {
  if (s.length < 2) throw new Error('key must be 2 characters long:');
  if (s[1] !== ':') throw new Error(`missing colon: ${s}`);
  const rest = s.slice(2);
  switch (s[0]) {
    case 'f': return fieldElement(rest);
    case 'v': return valueElement(JSON.parse(rest) as unknown);
    case 'k': {
      const obj = JSON.parse(rest) as unknown;
      if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw new Error(`expected an object in ${s}`);
      return keyElement(Object.entries(obj as Record<string, unknown>));
    }
    case 'i': {
      if (!/^-?\d+$/.test(rest)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(rest)}: invalid syntax`);
      return indexElement(Number(rest));
    }
    default: return undefined;
  }
}
