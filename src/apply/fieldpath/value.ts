/**
 * JSON values as structured-merge-diff and Go print them: the canonical JSON used inside `k:` and `v:` path
 * elements (Go's encoding/json: map keys sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped), the total order
 * SMD sorts values by, and Go's `%v` / `%q` renderings used in error messages.
 *
 * JavaScript numbers do not remember whether they were written as `1` or `1.0`; an integral number is taken for
 * an integer (kube decodes request bodies preserving ints, so this matches what clients send in practice).
 */

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/** A string as Go's encoding/json writes it (HTML-safe escaping). */
export function goJsonString(s: string): string {
  const j = JSON.stringify(s);
  return /[<>&\u2028\u2029]/.test(j) ? j.replace(/[<>&\u2028\u2029]/g, (c) => ESCAPES[c]!) : j;
}

/** Canonical JSON of a value as Go's encoding/json writes an unstructured value (object keys sorted). */
export function goJson(v: unknown): string {
  if (typeof v === 'string') return goJsonString(v);
  if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  if (isPlainObject(v)) {
    const keys = Object.keys(v).filter((k) => v[k] !== undefined).sort(compareStrings);
    return `{${keys.map((k) => `${goJsonString(k)}:${goJson(v[k])}`).join(',')}}`;
  }
  return 'null';
}

/** Byte-wise string order (Go's strings.Compare) for the strings we meet; UTF-16 order agrees on the BMP. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function rank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (isPlainObject(v)) return 4;
  return 5; // null
}

/**
 * SMD's total order on values (value.Compare): numbers (ints and floats compared numerically) < strings <
 * booleans (false first) < lists (element-wise, shorter first) < maps (lexical key zip) < null.
 */
export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0: return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 1: return compareStrings(a as string, b as string);
    case 2: return a === b ? 0 : a ? 1 : -1;
    case 3: {
      const la = a as unknown[];
      const lb = b as unknown[];
      for (let i = 0; ; i++) {
        if (i >= la.length && i >= lb.length) return 0;
        if (i >= la.length) return -1;
        if (i >= lb.length) return 1;
        const c = compareValues(la[i], lb[i]);
        if (c !== 0) return c;
      }
    }
    case 4: return compareMaps(a as Record<string, unknown>, b as Record<string, unknown>);
    default: return 0;
  }
}

function compareMaps(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const la = Object.keys(a).length;
  const lb = Object.keys(b).length;
  if (la === 0 && lb === 0) return 0;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(compareStrings);
  let i = 0;
  for (const k of keys) {
    let c: number;
    if (i === la) c = -1;
    else if (i === lb) c = 1;
    else if (!(k in a)) c = 1;
    else if (!(k in b)) c = -1;
    else c = compareValues(a[k], b[k]);
    i++;
    if (c !== 0) return c;
  }
  return 0;
}

/** Deep equality of JSON values (object key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) if (!Object.prototype.hasOwnProperty.call(b, k) || !jsonEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

/** Go's strconv.Quote for the strings we meet (`%q`). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (cp === 7) out += '\\a';
    else if (cp === 8) out += '\\b';
    else if (cp === 12) out += '\\f';
    else if (cp === 11) out += '\\v';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/**
 * Go's `%v` of a float64: strconv's shortest 'g' form, which switches to an exponent when the decimal exponent
 * is below -4 or at least 6 (`1.2345675e+06`, `1e-05`), with at least two exponent digits.
 */
export function goFloatV(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mant, expStr] = n.toExponential().split('e') as [string, string];
  const exp = Number(expStr);
  if (exp < -4 || exp >= 6) return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(n);
}

/** A number as Go prints an unstructured number with %v: int64 for integral values, float64 otherwise. */
export function goNumber(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63 ? BigInt(n).toString() : goFloatV(n);
}

/** SMD's value.ToString (used in path strings such as `[name="x"]` and `[=5]`). */
export function smdValueString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(smdValueString).join(',')}]`;
  if (isPlainObject(v)) return Object.keys(v).map((k) => `${k}=${smdValueString(v[k])}`).join('');
  return '{{undefined}}';
}

/** Go's `%v` / `%+v` of an unstructured value: `map[a:1 b:[x y]]`, `<nil>`, strings unquoted. */
export function goFormat(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goFormat).join(' ')}]`;
  if (isPlainObject(v)) {
    const keys = Object.keys(v).sort(compareStrings);
    return `map[${keys.map((k) => `${k}:${goFormat(v[k])}`).join(' ')}]`;
  }
  return String(v);
}
