/**
 * Regular expressions as cel-go and kube's regex library use them: RE2 syntax and semantics (no lookaround
 * or backreferences; errors worded as Go's regexp package) for `matches`; `find`/`findAll` (kube's regex
 * library) validate with RE2 and extract with an equivalent JS RegExp (`@bufbuild/re2` only answers yes/no).
 */
import { RE2JS } from '@bufbuild/re2';
import { charge, regexCost } from '../runtime-cost.ts';
import { celError, fn, type CelJsEnv } from './register.ts';

const MAX_CACHED = 500;
const re2Cache = new Map<string, RE2JS>();
const jsCache = new Map<string, RegExp | Error>();

function remember<T>(cache: Map<string, T>, key: string, make: () => T): T {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const v = make();
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(key, v);
  return v;
}

/** Compile with RE2, throwing Go's message (`error parsing regexp: …`). */
export function compileRe2(pattern: string): RE2JS {
  return remember(re2Cache, pattern, () => {
    try {
      return new RE2JS(pattern);
    } catch (e) {
      throw celError((e as Error).message);
    }
  });
}

const POSIX: Readonly<Record<string, string>> = {
  alnum: '0-9A-Za-z', alpha: 'A-Za-z', ascii: '\\x00-\\x7F', blank: '\\t ', cntrl: '\\x00-\\x1F\\x7F', digit: '0-9',
  graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-/:-@[-`{-~', space: '\\t\\n\\v\\f\\r ', upper: 'A-Z',
  word: '0-9A-Za-z_', xdigit: '0-9A-Fa-f',
};

/** An equivalent JS RegExp for an RE2 pattern already validated by RE2. */
function jsRegex(pattern: string): RegExp {
  const r = remember(jsCache, pattern, () => {
    let p = pattern;
    let flags = 'gu';
    const lead = /^\(\?([imsU]+)\)/.exec(p);
    if (lead) {
      for (const f of lead[1]!) if (f !== 'U' && !flags.includes(f)) flags += f;
      p = p.slice(lead[0].length);
    }
    p = p
      .replace(/\(\?P</g, '(?<')
      .replace(/\\z/g, '(?![\\s\\S])')
      .replace(/\\A/g, '(?<![\\s\\S])')
      .replace(/\[:(\^?)(\w+):\]/g, (m, neg: string, name: string) => (POSIX[name] && !neg ? POSIX[name] : m));
    try {
      return new RegExp(p, flags);
    } catch (e) {
      return e as Error;
    }
  });
  if (r instanceof Error) throw celError(`unsupported regular expression for find: ${pattern}`);
  r.lastIndex = 0;
  return r;
}

function matches(s: string, pattern: string): boolean {
  const re = compileRe2(pattern);
  charge(regexCost(s.length, pattern.length));
  return re.test(s);
}

function findAll(s: string, pattern: string, limit: number): string[] {
  compileRe2(pattern);
  charge(regexCost(s.length, pattern.length));
  if (limit === 0) return [];
  const re = jsRegex(pattern);
  const out: string[] = [];
  for (const m of s.matchAll(re)) {
    out.push(m[0]);
    if (limit > 0 && out.length >= limit) break;
  }
  return out;
}

export function registerRegex(env: CelJsEnv): void {
  fn(env, 'string.matches(string): bool', matches);
  fn(env, 'matches(string, string): bool', matches);
  fn(env, 'string.find(string): string', (s: string, p: string) => findAll(s, p, 1)[0] ?? '');
  fn(env, 'string.findAll(string): list<string>', (s: string, p: string) => findAll(s, p, -1));
  fn(env, 'string.findAll(string, int): list<string>', (s: string, p: string, n: bigint) => findAll(s, p, Number(n)));
}
