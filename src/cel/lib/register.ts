/**
 * Helpers the library files share: synchronous function registration, kube-named opaque types, and the
 * renaming of cel-js built-ins whose semantics differ from cel-go's (UTF-16 vs code point indexing, JS vs
 * RE2 regexes, Unicode-aware lowerAscii): the parser's call nodes are renamed to `__k_<name>` before type
 * checking, and the kube versions are registered under those names.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { CelEvalError } from '../contract.ts';

export type CelJsEnv = InstanceType<typeof Environment>;

/** Methods whose cel-js built-in is replaced by the kube/cel-go version. */
export const OVERRIDDEN_METHODS: ReadonlySet<string> = new Set([
  'matches', 'indexOf', 'lastIndexOf', 'substring', 'lowerAscii', 'upperAscii', 'split', 'trim', 'join',
  // Timestamp and duration accessors (lib/timestamps.ts): fixed-offset time zones.
  'getFullYear', 'getMonth', 'getDayOfYear', 'getDayOfMonth', 'getDate', 'getDayOfWeek', 'getHours', 'getMinutes',
  'getSeconds', 'getMilliseconds',
]);
export const OVERRIDE_PREFIX = '__k_';

/** Register a synchronous function by cel-js signature (`string.charAt(int): string`). */
export function fn(env: CelJsEnv, signature: string, handler: (...args: never[]) => unknown): void {
  const sig = signature.replace(/^([\w.<>, ]+?\.)?(\w+)\(/, (m, recv: string | undefined, name: string) =>
    recv !== undefined && OVERRIDDEN_METHODS.has(name) ? `${recv}${OVERRIDE_PREFIX}${name}(` : m);
  env.registerFunction(sig, handler as (...args: unknown[]) => unknown, { async: false } as never);
}

/** Register an opaque type (no fields; methods only) under kube's name, with `==` when it has `equals`. */
export function opaqueType(env: CelJsEnv, name: string, ctor: new (...a: never[]) => object, equality = false): void {
  env.registerType(name, ctor as never);
  if (equality) {
    env.registerOperator(`${name} == ${name}`, ((a: { equals(b: unknown): boolean }, b: unknown) => a.equals(b)) as never);
  }
}

/** A runtime error with cel-go's text. */
export function celError(message: string): CelEvalError {
  return new CelEvalError(message);
}

/** Code points of a string (cel-go indexes strings by rune). */
export function runes(s: string): string[] {
  return Array.from(s);
}

/** Walk a parsed AST renaming overridden method calls (call once, before type checking). */
export function renameOverridden(nodes: Iterable<{ op: string; args: unknown }>): void {
  for (const n of nodes) {
    if (n.op !== 'rcall') continue;
    const args = n.args as [string, unknown, unknown[]];
    if (OVERRIDDEN_METHODS.has(args[0])) args[0] = OVERRIDE_PREFIX + args[0];
  }
}
