/**
 * The JSONPath subset kube's printer columns and selectable fields use (client-go's jsonpath, as the CRD
 * table convertor wraps a column's path in `{…}`): `.field`, `['field']`, `[n]` (negative from the end),
 * `[*]`, `..field` (recursive descent) and filters `[?(@.a.b == "x")]` with == != < > <= >= against string,
 * number or boolean literals, or a bare `[?(@.a)]` existence test.
 *
 * `compileJsonPath` parses once; `find(obj)` returns every match in document order (an empty array when
 * nothing matches: a missing field is not an error, as in kube with allowMissingKeys).
 */

export class JsonPathError extends Error {}

type Step =
  | { t: 'field'; name: string }
  | { t: 'index'; i: number }
  | { t: 'all' }
  | { t: 'recursive'; name: string }
  | { t: 'filter'; path: string[]; op?: string; value?: string | number | boolean };

export interface JsonPath {
  readonly source: string;
  find(obj: unknown): unknown[];
}

const isRec = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function parseLiteral(s: string): string | number | boolean {
  const t = s.trim();
  if ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'"))) return t.slice(1, -1);
  if (t === 'true' || t === 'false') return t === 'true';
  const n = Number(t);
  if (t !== '' && !Number.isNaN(n)) return n;
  throw new JsonPathError(`unrecognized literal ${t}`);
}

function parseFilter(body: string): Step {
  // body: `@.a.b == "x"` or `@.a`
  const m = /^\s*@((?:\.[A-Za-z0-9_\-/]+)*)\s*(?:(==|!=|<=|>=|<|>)\s*(.+?))?\s*$/.exec(body);
  if (!m) throw new JsonPathError(`unrecognized filter ${body}`);
  const path = (m[1] ?? '').split('.').filter(Boolean);
  if (m[2] === undefined) return { t: 'filter', path };
  return { t: 'filter', path, op: m[2], value: parseLiteral(m[3]!) };
}

function parse(src: string): Step[] {
  let s = src.trim();
  if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1).trim();
  if (s.startsWith('$')) s = s.slice(1);
  const steps: Step[] = [];
  let i = 0;
  const ident = (): string => {
    const m = /^[^.[\]\s]+/.exec(s.slice(i));
    if (!m) throw new JsonPathError(`unexpected character at ${i} in ${src}`);
    i += m[0].length;
    return m[0];
  };
  while (i < s.length) {
    const c = s[i]!;
    if (c === '.') {
      if (s[i + 1] === '.') {
        i += 2;
        steps.push({ t: 'recursive', name: ident() });
        continue;
      }
      i++;
      if (i >= s.length) break; // `.` alone: the object itself
      if (s[i] === '[') continue;
      const name = ident();
      steps.push(name === '*' ? { t: 'all' } : { t: 'field', name });
    } else if (c === '[') {
      const end = findClose(s, i);
      const body = s.slice(i + 1, end).trim();
      i = end + 1;
      if (body === '*') steps.push({ t: 'all' });
      else if (body.startsWith('?(') && body.endsWith(')')) steps.push(parseFilter(body.slice(2, -1)));
      else if (/^-?\d+$/.test(body)) steps.push({ t: 'index', i: Number(body) });
      else if (/^'.*'$|^".*"$/.test(body)) steps.push({ t: 'field', name: body.slice(1, -1) });
      else throw new JsonPathError(`unsupported subscript [${body}] in ${src}`);
    } else if (c === ' ') {
      i++;
    } else if (steps.length === 0) {
      steps.push({ t: 'field', name: ident() });
    } else {
      throw new JsonPathError(`unexpected character ${JSON.stringify(c)} in ${src}`);
    }
  }
  return steps;
}

function findClose(s: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let j = open; j < s.length; j++) {
    const c = s[j]!;
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return j;
  }
  throw new JsonPathError(`unclosed [ in ${s}`);
}

function read(v: unknown, path: string[]): unknown {
  let cur = v;
  for (const p of path) {
    if (!isRec(cur)) return undefined;
    cur = cur[p];
  }
  return cur;
}

function compare(a: unknown, op: string, b: string | number | boolean): boolean {
  switch (op) {
    case '==': return a === b;
    case '!=': return a !== b;
  }
  if (typeof a !== typeof b || (typeof a !== 'number' && typeof a !== 'string')) return false;
  const x = a as number | string;
  const y = b as number | string;
  switch (op) {
    case '<': return x < y;
    case '>': return x > y;
    case '<=': return x <= y;
    default: return x >= y;
  }
}

function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isRec(v)) return Object.keys(v).sort().map((k) => v[k]);
  return [];
}

function recurse(v: unknown, name: string, out: unknown[]): void {
  if (isRec(v) && name in v) out.push(v[name]);
  for (const c of children(v)) recurse(c, name, out);
}

function apply(step: Step, values: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    switch (step.t) {
      case 'field':
        if (isRec(v) && step.name in v) out.push(v[step.name]);
        break;
      case 'index':
        if (Array.isArray(v)) {
          const i = step.i < 0 ? v.length + step.i : step.i;
          if (i >= 0 && i < v.length) out.push(v[i]);
        }
        break;
      case 'all':
        out.push(...children(v));
        break;
      case 'recursive':
        recurse(v, step.name, out);
        break;
      case 'filter':
        for (const item of Array.isArray(v) ? v : []) {
          const got = read(item, step.path);
          if (step.op === undefined ? got !== undefined : compare(got, step.op, step.value!)) out.push(item);
        }
        break;
    }
  }
  return out;
}

export function compileJsonPath(source: string): JsonPath {
  const steps = parse(source);
  return {
    source,
    find(obj: unknown): unknown[] {
      let cur: unknown[] = [obj];
      for (const s of steps) {
        cur = apply(s, cur);
        if (cur.length === 0) return cur;
      }
      return cur.filter((v) => v !== undefined);
    },
  };
}

/** fmt.Fprint of a decoded JSON value as jsonpath's text printer does (strings bare, maps as Go maps). */
export function jsonPathText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(jsonPathText).join(' ')}]`;
  const r = v as Record<string, unknown>;
  return `map[${Object.keys(r).sort().map((k) => `${k}:${jsonPathText(r[k])}`).join(' ')}]`;
}
