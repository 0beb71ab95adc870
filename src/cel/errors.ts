/**
 * cel-js errors reworded as cel-go prints them, because kube-apiserver puts cel-go's text into CRD and
 * configuration errors that users (and tests) read:
 *
 *     ERROR: <input>:1:5: undeclared reference to 'x' (in container '')
 *      | 1 + x
 *      | ....^
 */
import { CelCompileError, CelEvalError } from './contract.ts';

interface CelJsError {
  readonly name?: string;
  readonly code?: string;
  readonly summary?: string;
  readonly message: string;
  readonly node?: { readonly pos?: number; readonly start?: number };
  readonly range?: { readonly start: number; readonly end: number };
}

const OPERATOR_NAMES: Readonly<Record<string, string>> = {
  '+': '_+_', '-': '_-_', '*': '_*_', '/': '_/_', '%': '_%_', '==': '_==_', '!=': '_!=_', '<': '_<_', '<=': '_<=_',
  '>': '_>_', '>=': '_>=_', in: '@in', '!_': '!_', '-_': '-_', '!': '!_',
};

const BINARY = new Set(['+', '-', '*', '/', '%', '==', '!=', '<', '<=', '>', '>=', 'in', '&&', '||']);

/** The position (0-based offset) cel-go would point at: binary operators at the operator, as cel-go does. */
function offsetOf(e: CelJsError, source: string): number {
  const node = e.node as { op?: string; args?: unknown } | undefined;
  if (node?.op && BINARY.has(node.op) && Array.isArray(node.args)) {
    const [l, r] = node.args as Array<{ end?: number; start?: number }>;
    if (typeof l?.end === 'number' && typeof r?.start === 'number') {
      const at = source.slice(l.end, r.start).indexOf(node.op);
      if (at >= 0) return l.end + at;
    }
  }
  const pos = e.node?.pos ?? e.range?.start ?? e.node?.start ?? 0;
  // cel-go places a selection at its dot; cel-js at the field name.
  if ((node?.op === '.' || node?.op === '.?') && source[pos - 1] === '.') return pos - 1;
  if (node?.op === '.?' && source.slice(pos - 2, pos) === '.?') return pos - 2;
  return pos;
}

/** `<input>:line:col: message` plus the source line and a caret line, as cel-go's Errors.ToDisplayString. */
export function formatCelError(source: string, offset: number, message: string): string {
  const before = source.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const col = [...source.slice(lineStart, offset)].length + 1;
  const text = source.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${col}: ${message}\n | ${text}\n | ${'.'.repeat(col - 1)}^`;
}

/** cel-go's wording for a cel-js check/parse error summary. */
export function celGoMessage(e: CelJsError, knownFunctions?: ReadonlySet<string>): string {
  const summary = e.summary ?? e.message.split('\n')[0] ?? e.message;
  let m: RegExpExecArray | null;
  switch (e.code) {
    case 'unknown_variable':
      if ((m = /^Unknown variable: (.*)$/.exec(summary))) return `undeclared reference to '${m[1]}' (in container '')`;
      break;
    case 'no_such_overload':
      if ((m = /^no such overload: (\S+) (\S+) (\S+)$/.exec(summary))) {
        return `found no matching overload for '${OPERATOR_NAMES[m[2]!] ?? m[2]}' applied to '(${m[1]}, ${m[3]})'`;
      }
      if ((m = /^no such overload: (\S+?)_?(\S+)$/.exec(summary)) && OPERATOR_NAMES[m[1]!]) {
        return `found no matching overload for '${OPERATOR_NAMES[m[1]!]}' applied to '(${m[2]})'`;
      }
      break;
    case 'no_matching_overload':
      if ((m = /^found no matching overload for '(?:(.+)\.)?([A-Za-z_][\w]*)\((.*)\)'$/.exec(summary))) {
        const [, recv, fn, args] = m;
        if (knownFunctions && !knownFunctions.has(fn!)) return `undeclared reference to '${fn}' (in container '')`;
        return `found no matching overload for '${fn}' applied to '${recv ? `${recv}.` : ''}(${args})'`;
      }
      break;
    case 'no_such_key':
      if ((m = /^No such key: (.*)$/.exec(summary))) return `undefined field '${m[1]}'`;
      break;
    case 'cannot_index_type':
      if ((m = /^Cannot index type '(.*)'$/.exec(summary))) return `type '${m[1]}' does not support field selection`;
      break;
    default:
      break;
  }
  if (e.name === 'ParseError') return `Syntax error: ${summary}`;
  return summary;
}

/** A CelCompileError worded as kube's `compilation failed: ERROR: <input>:…`. */
export function compileError(source: string, err: unknown, knownFunctions?: ReadonlySet<string>): CelCompileError {
  if (err instanceof CelCompileError) return err;
  const e = err as CelJsError;
  if (typeof e?.message !== 'string') return new CelCompileError(`compilation failed: ${String(err)}`);
  const message = celGoMessage(e, knownFunctions).replaceAll('__k_', '');
  return new CelCompileError(`compilation failed: ${formatCelError(source, offsetOf(e, source), message)}`);
}

/** cel-go's runtime error wording for a cel-js evaluation error. */
export function evalError(err: unknown): CelEvalError {
  if (err instanceof CelEvalError) return err;
  const e = err as CelJsError;
  if (typeof e?.message !== 'string') return new CelEvalError(String(err));
  const summary = e.summary ?? e.message.split('\n')[0] ?? e.message;
  let m: RegExpExecArray | null;
  if ((m = /^No such key: index out of bounds, index (-?\d+) (?:>= size (\d+))?/.exec(summary))) {
    return new CelEvalError(m[2] === undefined ? `index '${m[1]}' out of range` : `index '${m[1]}' out of range in list size '${m[2]}'`);
  }
  if ((m = /^No such key: (.*)$/.exec(summary))) return new CelEvalError(`no such key: ${m[1]}`);
  if ((m = /^no such overload: (.*)$/.exec(summary))) return new CelEvalError(`no such overload`);
  if (/overflow/i.test(summary)) return new CelEvalError(/unsigned|uint/i.test(summary) ? 'unsigned integer overflow' : 'integer overflow');
  if (/^modulo by zero/.test(summary)) return new CelEvalError('modulus by zero');
  return new CelEvalError(summary.charAt(0).toLowerCase() + summary.slice(1));
}
