/**
 * kube's compile-time AST validators (base environment since 1.29, cel-go's cel/validator.go):
 * - literal arguments of `duration()`, `timestamp()` and `matches()` must be valid (`invalid duration
 *   argument`, `invalid timestamp argument`, `invalid matches argument`), regexes compiled with RE2;
 * - list and map literals are homogeneous (`expected type 'int' but found 'string'`), except inside
 *   `format()` calls, which need mixed lists.
 */
import { RE2JS } from '@bufbuild/re2';
import { CelCompileError } from './contract.ts';
import { formatCelError } from './errors.ts';
import { parseGoDuration } from '../machinery/duration.ts';
import { OVERRIDE_PREFIX } from './lib/register.ts';

interface Node {
  op: string;
  args: unknown;
  pos?: number;
  checkedType?: { name: string };
  meta?: { alternate?: Node; macro?: Record<string, unknown> };
}

interface Issue { pos: number; message: string }

const CEL_JS_ONLY_BYTES = new Set(['json', 'hex', 'base64', 'at', 'string']);

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

function typeName(n: Node): string {
  return (n.checkedType?.name ?? 'dyn')
    .replace(/\b(list|map)</g, '$1(').replace(/\boptional</g, 'optional_type(').replace(/>/g, ')').replace(/\bnull\b/g, 'null_type');
}

function isLiteralString(n: Node | undefined): n is Node & { args: string } {
  return n?.op === 'value' && typeof n.args === 'string';
}

function checkLiteral(fn: string, arg: Node | undefined, issues: Issue[]): void {
  if (!isLiteralString(arg)) return;
  const s = arg.args;
  let ok = true;
  if (fn === 'duration') ok = parseGoDuration(s) !== undefined;
  else if (fn === 'timestamp') {
    const d = new Date(s);
    ok = RFC3339.test(s) && !Number.isNaN(d.getTime()) && d.getUTCFullYear() >= 1 && d.getUTCFullYear() <= 9999;
  } else {
    try {
      new RE2JS(s);
    } catch {
      ok = false;
    }
  }
  if (!ok) issues.push({ pos: arg.pos ?? 0, message: `invalid ${fn} argument` });
}

/** cel-go's isAssignable as the homogeneity check uses it: dyn on either side is assignable. */
function assignable(a: string, b: string): boolean {
  return a === b || a === 'dyn' || b === 'dyn';
}

function checkHomogeneous(n: Node, issues: Issue[]): void {
  if (n.op === 'list') {
    const elems = n.args as Node[];
    const first = elems[0];
    for (const e of elems.slice(1)) {
      if (first && !assignable(typeName(first), typeName(e))) {
        issues.push({ pos: e.pos ?? 0, message: `expected type '${typeName(first)}' but found '${typeName(e)}'` });
        break;
      }
    }
  } else if (n.op === 'map') {
    const entries = n.args as Array<[Node, Node]>;
    const first = entries[0];
    for (const [k, v] of entries.slice(1)) {
      if (first && !assignable(typeName(first[0]), typeName(k))) issues.push({ pos: k.pos ?? 0, message: `expected type '${typeName(first[0])}' but found '${typeName(k)}'` });
      if (first && !assignable(typeName(first[1]), typeName(v))) issues.push({ pos: v.pos ?? 0, message: `expected type '${typeName(first[1])}' but found '${typeName(v)}'` });
    }
  }
}

/** has(a.b.c) on declared object types: every selected field must exist (cel-go: `undefined field 'c'`). */
function checkHas(props: Node[], objectFields: ReadonlyMap<string, Readonly<Record<string, string>>>, issues: Issue[]): void {
  // props: outermost selection first, the identifier last.
  let type = props[props.length - 1]?.checkedType?.name;
  for (let i = props.length - 2; i >= 0 && type !== undefined; i--) {
    const sel = props[i]!;
    const fields = objectFields.get(type);
    if (!fields) return;
    const name = (sel.args as [Node, string])[1];
    const next = fields[name];
    if (next === undefined) {
      // cel-go places a selection at its dot; cel-js at the field name.
      issues.push({ pos: Math.max(0, (sel.pos ?? 1) - 1), message: `undefined field '${name}'` });
      return;
    }
    type = next;
  }
}

/** Run the validators over a checked AST; throws CelCompileError listing every issue as cel-go does. */
export function validateAst(root: unknown, source: string, objectFields: ReadonlyMap<string, Readonly<Record<string, string>>> = new Map()): void {
  const issues: Issue[] = [];
  const seen = new Set<object>();
  const visit = (v: unknown, inFormat: boolean): void => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      for (const e of v) visit(e, inFormat);
      return;
    }
    const n = v as Node;
    if (typeof n.op !== 'string' || !('args' in n)) {
      if (Object.getPrototypeOf(v) === Object.prototype) for (const e of Object.values(v)) visit(e, inFormat);
      return;
    }
    let childInFormat = inFormat && (n.op === 'list' || n.op === 'map');
    if (n.op === 'call') {
      const [name, args] = n.args as [string, Node[]];
      if (name === 'duration' || name === 'timestamp' || name === 'matches') checkLiteral(name, args[0], issues);
    } else if (n.op === 'rcall') {
      const [name, recv, args] = n.args as [string, Node, Node[]];
      const plain = name.startsWith(OVERRIDE_PREFIX) ? name.slice(OVERRIDE_PREFIX.length) : name;
      // cel-js extras that kube's environment does not have (bytes helpers, cel.bind).
      if (recv.checkedType?.name === 'bytes' && CEL_JS_ONLY_BYTES.has(plain)) {
        issues.push({ pos: n.pos ?? 0, message: `undeclared reference to '${plain}' (in container '')` });
      }
      if (recv.op === 'id' && recv.args === 'cel') issues.push({ pos: recv.pos ?? 0, message: `undeclared reference to 'cel' (in container '')` });
      if (plain === 'matches') checkLiteral('matches', args[0], issues);
      if (plain === 'format') childInFormat = true;
    } else if (!inFormat) {
      checkHomogeneous(n, issues);
    }
    visit(n.args, childInFormat);
    const props = n.meta?.macro?.macroHasProps;
    if (Array.isArray(props)) checkHas(props as Node[], objectFields, issues);
    visit(n.meta?.alternate, childInFormat);
    visit(n.meta?.macro, childInFormat);
  };
  visit(root, false);
  if (issues.length === 0) return;
  issues.sort((a, b) => a.pos - b.pos);
  throw new CelCompileError(`compilation failed: ${issues.map((i) => formatCelError(source, i.pos, i.message)).join('\n')}`);
}
