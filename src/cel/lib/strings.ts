/**
 * cel-go's ext.Strings at version 2 (kube ≥ 1.29): charAt, indexOf, lastIndexOf, lowerAscii, upperAscii,
 * replace, split, substring, trim, join, strings.quote and format; strings are indexed by code point.
 */
import { charge, chargeTraversal } from '../runtime-cost.ts';
import { celError, fn, runes, type CelJsEnv } from './register.ts';
import { formatString } from './format-string.ts';

class StringsNamespace {}

const idx = (n: bigint): number => Number(n);

function indexOf(s: string, sub: string, from: number): bigint {
  const r = runes(s);
  if (from < 0 || from > r.length) throw celError(`index out of range: ${from}`);
  if (sub === '') return BigInt(from);
  const sr = runes(sub);
  for (let i = from; i + sr.length <= r.length; i++) {
    let ok = true;
    for (let j = 0; j < sr.length && ok; j++) ok = r[i + j] === sr[j];
    if (ok) return BigInt(i);
  }
  return -1n;
}

function lastIndexOf(s: string, sub: string, from: number): bigint {
  const r = runes(s);
  if (from < 0 || from > r.length) throw celError(`index out of range: ${from}`);
  if (sub === '') return BigInt(from);
  const sr = runes(sub);
  for (let i = Math.min(from, r.length - sr.length); i >= 0; i--) {
    let ok = true;
    for (let j = 0; j < sr.length && ok; j++) ok = r[i + j] === sr[j];
    if (ok) return BigInt(i);
  }
  return -1n;
}

/** Go's strings.Replace: n < 0 replaces all; an empty `old` matches before every rune and at the end. */
function replace(s: string, old: string, rep: string, n: number): string {
  if (n === 0 || old === rep) return s;
  if (old === '') {
    const r = runes(s);
    const out: string[] = [];
    let done = 0;
    for (let i = 0; i <= r.length; i++) {
      if (n < 0 || done < n) {
        out.push(rep);
        done++;
      }
      if (i < r.length) out.push(r[i]!);
    }
    return out.join('');
  }
  let out = '';
  let rest = s;
  let done = 0;
  for (;;) {
    const at = rest.indexOf(old);
    if (at < 0 || (n >= 0 && done >= n)) break;
    out += rest.slice(0, at) + rep;
    rest = rest.slice(at + old.length);
    done++;
  }
  return out + rest;
}

/** Go's strings.SplitN. */
function split(s: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  if (sep === '') {
    const r = runes(s);
    if (n < 0 || n >= r.length) return r;
    return [...r.slice(0, n - 1), r.slice(n - 1).join('')];
  }
  const parts = s.split(sep);
  if (n < 0 || parts.length <= n) return parts;
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

const ASCII_LOWER = /[A-Z]/g;
const ASCII_UPPER = /[a-z]/g;
// Go's unicode.IsSpace set, which strings.TrimSpace trims.
const SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]';
const TRIM = new RegExp(`^${SPACE}+|${SPACE}+$`, 'g');

/** Go's strconv.Quote as cel-go's strings.quote uses it. */
export function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    switch (ch) {
      case '\\': out += '\\\\'; break;
      case '"': out += '\\"'; break;
      case '\x07': out += '\\a'; break;
      case '\b': out += '\\b'; break;
      case '\f': out += '\\f'; break;
      case '\n': out += '\\n'; break;
      case '\r': out += '\\r'; break;
      case '\t': out += '\\t'; break;
      case '\v': out += '\\v'; break;
      default:
        if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
        else if (c >= 0xd800 && c <= 0xdfff) out += '\ufffd';
        else out += ch;
    }
  }
  return `${out}"`;
}

export function registerStrings(env: CelJsEnv): void {
  fn(env, 'string.charAt(int): string', (s: string, i: bigint) => {
    const r = runes(s);
    const n = idx(i);
    if (n < 0 || n > r.length) throw celError(`index out of range: ${n}`);
    return r[n] ?? '';
  });
  fn(env, 'string.indexOf(string): int', (s: string, sub: string) => (chargeTraversal(s.length), indexOf(s, sub, 0)));
  fn(env, 'string.indexOf(string, int): int', (s: string, sub: string, from: bigint) => (chargeTraversal(s.length), indexOf(s, sub, idx(from))));
  fn(env, 'string.lastIndexOf(string): int', (s: string, sub: string) => (chargeTraversal(s.length), lastIndexOf(s, sub, runes(s).length)));
  fn(env, 'string.lastIndexOf(string, int): int', (s: string, sub: string, from: bigint) => (chargeTraversal(s.length), lastIndexOf(s, sub, idx(from))));
  fn(env, 'string.lowerAscii(): string', (s: string) => (chargeTraversal(s.length), s.replace(ASCII_LOWER, (c) => c.toLowerCase())));
  fn(env, 'string.upperAscii(): string', (s: string) => (chargeTraversal(s.length), s.replace(ASCII_UPPER, (c) => c.toUpperCase())));
  fn(env, 'string.replace(string, string): string', (s: string, a: string, b: string) => (chargeTraversal(s.length), replace(s, a, b, -1)));
  fn(env, 'string.replace(string, string, int): string', (s: string, a: string, b: string, n: bigint) => (chargeTraversal(s.length), replace(s, a, b, idx(n))));
  fn(env, 'string.split(string): list<string>', (s: string, sep: string) => (chargeTraversal(s.length), split(s, sep, -1)));
  fn(env, 'string.split(string, int): list<string>', (s: string, sep: string, n: bigint) => (chargeTraversal(s.length), split(s, sep, idx(n))));
  fn(env, 'string.substring(int): string', (s: string, start: bigint) => {
    const r = runes(s);
    const a = idx(start);
    if (a < 0 || a > r.length) throw celError(`index out of range: ${a}`);
    return r.slice(a).join('');
  });
  fn(env, 'string.substring(int, int): string', (s: string, start: bigint, end: bigint) => {
    const r = runes(s);
    const a = idx(start);
    const b = idx(end);
    if (a < 0 || a > r.length) throw celError(`index out of range: ${a}`);
    if (b < 0 || b > r.length) throw celError(`index out of range: ${b}`);
    if (a > b) throw celError(`invalid substring range. start: ${a}, end: ${b}`);
    return r.slice(a, b).join('');
  });
  fn(env, 'string.trim(): string', (s: string) => (chargeTraversal(s.length), s.replace(TRIM, '')));
  // join over arrays and the Sets that set lists become.
  const join = (l: Iterable<string>, sep: string): string => {
    const parts = [...l];
    chargeTraversal(parts.reduce((n, p) => n + p.length, 0));
    return parts.join(sep);
  };
  fn(env, 'list<string>.join(): string', (l: Iterable<string>) => join(l, ''));
  fn(env, 'list<string>.join(string): string', (l: Iterable<string>, sep: string) => join(l, sep));
  env.registerType('StringsNamespace', StringsNamespace);
  env.registerConstant('strings', 'StringsNamespace', new StringsNamespace());
  fn(env, 'StringsNamespace.quote(string): string', (_ns: unknown, s: string) => (chargeTraversal(s.length), quote(s)));
  fn(env, 'string.format(list): string', (s: string, args: unknown[]) => {
    charge(Math.ceil(s.length * 0.1) + args.length);
    return formatString(s, args);
  });
}
