/**
 * cel-go's ext.TwoVarComprehensions (kube ≥ 1.32): `all(i, v, p)`, `exists(i, v, p)`, `existsOne(i, v, p)`,
 * `transformList(i, v, [filter,] t)`, `transformMap(k, v, [filter,] t)`, `transformMapEntry(k, v, [filter,] t)`
 * over lists (index, element) and maps (key, value), as cel-js macros.
 *
 * all/exists follow CEL's error absorption (a decisive false/true wins over an error in another element);
 * existsOne and the transforms stop at the first error.
 */
import { charge } from '../runtime-cost.ts';
import { celError, type CelJsEnv } from './register.ts';
import { UNBOUNDED_SIZE } from '../cost.ts';

interface Est { cost: { min: number; max: number }; size?: { min: number; max: number }; path?: string }
interface EstimatorLike { visit(n: Node, scope: Map<string, string | undefined>): Est }

interface Node { op: string; args: unknown }
interface TypeDecl { kind: string; name: string; keyType?: TypeDecl; valueType?: TypeDecl }
interface Ctx { forkWithVariable(name: string, type: TypeDecl): Ctx }
interface Checker {
  check(n: Node, ctx: Ctx): TypeDecl;
  getType(name: string): TypeDecl;
  createError(code: string, msg: string, node: Node): Error;
  registry: { getListType(t: TypeDecl): TypeDecl; getMapType(k: TypeDecl, v: TypeDecl): TypeDecl };
}
interface Evaluator { run(n: Node, ctx: unknown): unknown }

type Kind = 'all' | 'exists' | 'existsOne' | 'transformList' | 'transformMap' | 'transformMapEntry';

interface Macro {
  kind: Kind;
  receiver: Node;
  var1: string;
  var2: string;
  filter?: Node;
  body: Node;
  typeCheck(chk: Checker, m: Macro, ctx: Ctx): TypeDecl;
  evaluate(ev: Evaluator, m: Macro, ctx: Ctx): unknown;
  async: false;
  estimate?: (e: EstimatorLike, scope: Map<string, string | undefined>) => Est;
}

/** Worst case: range cost + size.max × (filter + body + loop bookkeeping). */
function estimate(m: Macro, e: EstimatorLike, scope: Map<string, string | undefined>): Est {
  const range = e.visit(m.receiver, scope);
  const inner = new Map(scope);
  inner.set(m.var1, range.path === undefined ? undefined : `${range.path}[key]`);
  inner.set(m.var2, range.path === undefined ? undefined : `${range.path}[*]`);
  const body = e.visit(m.body, inner).cost;
  const filter = m.filter ? e.visit(m.filter, inner).cost : { min: 0, max: 0 };
  const n = range.size?.max ?? UNBOUNDED_SIZE;
  // Per-element and fixed overheads of the expanded comprehension, as for the one-variable macros.
  const [per, fixed] = m.kind === 'all' ? [3, 1] : m.kind === 'exists' ? [4, 1] : m.kind === 'existsOne' ? [2, 2] : [12, 11];
  return { cost: { min: range.cost.min + fixed, max: range.cost.max + fixed + n * (body.max + filter.max + per) }, size: range.size };
}

function ident(n: Node, what: string): string {
  if (n.op !== 'id') throw celError(`${what} must be a simple name`);
  return n.args as string;
}

function iterTypes(chk: Checker, m: Macro, ctx: Ctx): [TypeDecl, TypeDecl, TypeDecl] {
  const t = chk.check(m.receiver, ctx);
  if (t.kind === 'list') return [t, chk.getType('int'), t.valueType!];
  if (t.kind === 'map') return [t, t.keyType!, t.valueType!];
  if (t.kind === 'dyn') return [t, t, t];
  throw chk.createError('invalid_comprehension_range', `expression of type '${t.name}' cannot be the range of a comprehension (must be list, map, or dynamic)`, m.receiver);
}

function typeCheck(chk: Checker, m: Macro, ctx: Ctx): TypeDecl {
  if (m.var1 === m.var2) throw chk.createError('invalid_macro_argument', `duplicate variable name: ${m.var1}`, m.body);
  const [range, t1, t2] = iterTypes(chk, m, ctx);
  const inner = ctx.forkWithVariable(m.var1, t1).forkWithVariable(m.var2, t2);
  const bool = chk.getType('bool');
  if (m.filter) {
    const f = chk.check(m.filter, inner);
    if (f.kind !== 'dyn' && f.name !== 'bool') throw chk.createError('invalid_macro_argument', `filter must evaluate to bool, got '${f.name}'`, m.filter);
  }
  const body = chk.check(m.body, inner);
  switch (m.kind) {
    case 'all': case 'exists': case 'existsOne':
      if (body.kind !== 'dyn' && body.name !== 'bool') throw chk.createError('invalid_macro_argument', `predicate must evaluate to bool, got '${body.name}'`, m.body);
      return bool;
    case 'transformList':
      return chk.registry.getListType(body);
    case 'transformMap':
      if (range.kind === 'list') throw chk.createError('invalid_macro_argument', 'transformMap() requires a map range', m.receiver);
      return chk.registry.getMapType(t1, body);
    default:
      return body;
  }
}

function entries(v: unknown): Array<[unknown, unknown]> {
  if (Array.isArray(v)) return v.map((e, i) => [BigInt(i), e]);
  if (v instanceof Set) return [...v].map((e, i) => [BigInt(i), e]);
  if (v instanceof Map) return [...v.entries()];
  if (v && typeof v === 'object') return Object.entries(v);
  throw celError('no such overload');
}

function evaluate(ev: Evaluator, m: Macro, ctx: Ctx): unknown {
  const items = entries(ev.run(m.receiver, ctx));
  let firstError: unknown;
  let count = 0;
  const list: unknown[] = [];
  const map = new Map<unknown, unknown>();
  for (const [a, b] of items) {
    charge(1);
    // Overlay contexts resolve their own iteration variable from `iterValue` (types were checked statically).
    const outer = ctx.forkWithVariable(m.var1, undefined as never) as unknown as Ctx & { iterValue: unknown };
    outer.iterValue = a;
    const inner = outer.forkWithVariable(m.var2, undefined as never) as unknown as Ctx & { iterValue: unknown };
    inner.iterValue = b;
    if (m.filter && ev.run(m.filter, inner) !== true) continue;
    if (m.kind === 'all' || m.kind === 'exists') {
      let r: unknown;
      try {
        r = ev.run(m.body, inner);
      } catch (e) {
        firstError ??= e;
        continue;
      }
      if (m.kind === 'all' && r === false) return false;
      if (m.kind === 'exists' && r === true) return true;
      continue;
    }
    const r = ev.run(m.body, inner);
    if (m.kind === 'existsOne') count += r === true ? 1 : 0;
    else if (m.kind === 'transformList') list.push(r);
    else if (m.kind === 'transformMap') map.set(a, r);
    else {
      if (!(r instanceof Map) && !(r && typeof r === 'object')) throw celError('transformMapEntry() expression must produce a map');
      for (const [k, v] of r instanceof Map ? r : Object.entries(r)) {
        if (map.has(k)) throw celError(`insert failed: key ${String(k)} already exists`);
        map.set(k, v);
      }
    }
  }
  if (firstError !== undefined) throw firstError;
  switch (m.kind) {
    case 'all': return true;
    case 'exists': return false;
    case 'existsOne': return count === 1;
    case 'transformList': return list;
    default: return map;
  }
}

export function registerTwoVarComprehensions(env: CelJsEnv): void {
  const define = (kind: Kind, arity: 3 | 4) => {
    const sig = `list.${kind}(${new Array(arity).fill('ast').join(', ')}): dyn`;
    env.registerFunction(sig, (({ args, receiver }: { args: Node[]; receiver: Node }) => {
      const m: Macro = {
        kind,
        receiver,
        var1: ident(args[0]!, `${kind}() first variable`),
        var2: ident(args[1]!, `${kind}() second variable`),
        filter: arity === 4 ? args[2] : undefined,
        body: args[arity - 1]!,
        typeCheck,
        evaluate,
        async: false,
      };
      m.estimate = (e, scope) => estimate(m, e, scope);
      return m;
    }) as never);
  };
  for (const k of ['all', 'exists', 'existsOne', 'transformList', 'transformMap', 'transformMapEntry'] as const) define(k, 3);
  for (const k of ['transformList', 'transformMap', 'transformMapEntry'] as const) define(k, 4);
}
