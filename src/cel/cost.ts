/**
 * Static cost estimation over a checked cel-js AST, in cel-go's estimated cost units (checker/cost.go) as kube
 * uses them to refuse too-expensive CRD rules: identifiers and selections 1, constants 0, list/map literals
 * 10/30, calls 1 plus size-dependent costs, `&&`/`||` max = both sides, ternary = condition + the dearer
 * branch, comprehensions = range cost + init + size.max × (per-iteration step + loop overhead).
 *
 * Sizes come from `sizeHints` keyed by value path: `self.spec.items` (the list), `self.spec.items[*]` (its
 * elements, or a map's values), `self.spec.labels[key]` (a map's keys); a path without a hint is unbounded
 * (kube's worst case from the 3 MiB request limit).
 */
import type { CelCost } from './contract.ts';

/** The largest size kube assumes for an unbounded string/list/map (max request bytes). */
export const UNBOUNDED_SIZE = 3 * 1024 * 1024;
const TRAVERSAL = 0.1;
const REGEX_LENGTH = 0.25;
/** Loop bookkeeping per iteration of an all()/exists()-style comprehension (accumulator reads, the not-strictly-false check). */
const LOOP_OVERHEAD = 2;

interface Size { min: number; max: number }
interface Estimate { cost: CelCost; size?: Size; path?: string }

type Ast = { op: string; args: unknown; checkedType?: { kind: string; name: string }; meta?: { alternate?: Ast; macro?: Record<string, unknown> } };

/** Whether a node's checked type has a size (strings, bytes, lists, maps; dyn may be any of them). */
function sized(node: Ast): boolean {
  const t = node.checkedType;
  if (!t) return true;
  return t.kind === 'list' || t.kind === 'map' || t.kind === 'dyn' || t.name === 'string' || t.name === 'bytes';
}

const ZERO: CelCost = { min: 0, max: 0 };
const add = (a: CelCost, b: CelCost): CelCost => ({ min: a.min + b.min, max: a.max + b.max });
const plus = (a: CelCost, n: number, m = n): CelCost => ({ min: a.min + n, max: a.max + m });
const ceil = (n: number): number => Math.ceil(n);

export interface EstimateOptions {
  readonly sizeHints: Readonly<Record<string, number>>;
  /** Variables whose values are strings/lists/maps (so a missing hint means unbounded rather than scalar). */
  readonly sized: ReadonlySet<string>;
}

/** Estimate the cost of evaluating `ast` once. */
export function estimateCost(ast: unknown, opts: EstimateOptions): CelCost {
  const r = new Estimator(opts).visit(ast as Ast, new Map());
  return { min: Math.min(r.cost.min, Number.MAX_SAFE_INTEGER), max: Math.min(r.cost.max, Number.MAX_SAFE_INTEGER) };
}

class Estimator {
  constructor(private readonly opts: EstimateOptions) {}

  sizeAt(path: string | undefined): Size | undefined {
    if (path === undefined) return undefined;
    const hint = this.opts.sizeHints[path];
    if (hint !== undefined) return { min: 0, max: hint };
    return undefined;
  }

  visit(node: Ast, scope: Map<string, string | undefined>): Estimate {
    const meta = node.meta;
    if (meta?.alternate) {
      const inner = this.visit(meta.alternate, scope);
      return inner;
    }
    if (meta?.macro) return this.macro(node, meta.macro, scope);
    const args = node.args as never;
    switch (node.op) {
      case 'value': {
        const v = node.args;
        return { cost: ZERO, size: typeof v === 'string' || v instanceof Uint8Array ? { min: v.length, max: v.length } : undefined };
      }
      case 'id': {
        const name = node.args as string;
        const path = scope.has(name) ? scope.get(name) : name;
        const size = this.sizeAt(path) ?? (path !== undefined && !scope.has(name) && this.opts.sized.has(name) ? { min: 0, max: UNBOUNDED_SIZE } : undefined);
        return { cost: { min: 1, max: 1 }, path, size };
      }
      case '.': case '.?': {
        const [obj, field] = args as [Ast, string];
        const o = this.visit(obj, scope);
        const path = o.path === undefined ? undefined : `${o.path}.${field}`;
        return { cost: plus(o.cost, 1), path, size: this.sizeAt(path) ?? (sized(node) ? { min: 0, max: UNBOUNDED_SIZE } : undefined) };
      }
      case '[]': case '[?]': {
        const [obj, idx] = args as [Ast, Ast];
        const o = this.visit(obj, scope);
        const i = this.visit(idx, scope);
        const path = o.path === undefined ? undefined : `${o.path}[*]`;
        return { cost: plus(add(o.cost, i.cost), 1), path, size: this.sizeAt(path) ?? (sized(node) ? { min: 0, max: UNBOUNDED_SIZE } : undefined) };
      }
      case 'list': {
        const elems = (args as Ast[]).map((e) => this.visit(e, scope));
        return { cost: plus(elems.reduce((c, e) => add(c, e.cost), ZERO), 10), size: { min: elems.length, max: elems.length } };
      }
      case 'map': {
        let cost = plus(ZERO, 30);
        for (const [k, v] of args as [Ast, Ast][]) cost = add(cost, add(this.visit(k, scope).cost, this.visit(v, scope).cost));
        const n = (args as unknown[]).length;
        return { cost, size: { min: n, max: n } };
      }
      case '&&': case '||': {
        const [l, r] = (args as Ast[]).map((a) => this.visit(a, scope)) as [Estimate, Estimate];
        return { cost: { min: l.cost.min, max: l.cost.max + r.cost.max } };
      }
      case '?:': {
        const [c, t, f] = (args as Ast[]).map((a) => this.visit(a, scope)) as [Estimate, Estimate, Estimate];
        return {
          cost: { min: c.cost.min + Math.min(t.cost.min, f.cost.min), max: c.cost.max + Math.max(t.cost.max, f.cost.max) },
          size: t.size && f.size ? { min: Math.min(t.size.min, f.size.min), max: Math.max(t.size.max, f.size.max) } : undefined,
        };
      }
      case '!_': case '-_':
        return { cost: plus(this.visit(args as Ast, scope).cost, 1) };
      case 'call': {
        const [name, list] = args as [string, Ast[]];
        return this.call(name, undefined, list.map((a) => this.visit(a, scope)));
      }
      case 'rcall': {
        const [name, recv, list] = args as [string, Ast, Ast[]];
        return this.call(name, this.visit(recv, scope), list.map((a) => this.visit(a, scope)));
      }
      case 'comprehension':
        return this.comprehension(node.args as Record<string, unknown>, scope);
      case 'accuValue': case 'accuInc':
        return { cost: { min: 1, max: 1 } };
      case 'accuPush':
        return { cost: plus(this.visit(args as Ast, scope).cost, 1) };
      default: {
        // Binary operators.
        const [l, r] = (args as Ast[]).map((a) => this.visit(a, scope)) as [Estimate, Estimate];
        return this.binary(node.op, l, r);
      }
    }
  }

  binary(op: string, l: Estimate, r: Estimate): Estimate {
    const base = add(l.cost, r.cost);
    const ls = l.size?.max ?? 0;
    const rs = r.size?.max ?? 0;
    switch (op) {
      case '+':
        if (l.size && r.size) {
          return { cost: plus(base, ceil((l.size.min + r.size.min) * TRAVERSAL), ceil((ls + rs) * TRAVERSAL)), size: { min: l.size.min + r.size.min, max: ls + rs } };
        }
        return { cost: plus(base, 1) };
      case '==': case '!=':
        return { cost: plus(base, 1, 1 + ceil(Math.min(ls, rs) * TRAVERSAL)) };
      case 'in':
        return { cost: plus(base, 1, 1 + (r.size ? r.size.max : 0)) };
      default:
        return { cost: plus(base, 1) };
    }
  }

  call(name: string, recv: Estimate | undefined, args: Estimate[]): Estimate {
    let base = args.reduce((c, a) => add(c, a.cost), recv?.cost ?? ZERO);
    const rs = recv?.size;
    const a0 = args[0]?.size;
    const traverse = (s: Size | undefined): [number, number] => [ceil((s?.min ?? 0) * TRAVERSAL), ceil((s?.max ?? 0) * TRAVERSAL)];
    switch (name) {
      case 'contains': case 'startsWith': case 'endsWith': case 'lowerAscii': case 'upperAscii': case 'trim':
      case 'charAt': case 'substring': case 'quote': case 'reverse': {
        const [mn, mx] = traverse(rs ?? a0);
        base = plus(base, 1 + mn, 1 + mx);
        return { cost: base, size: rs ?? a0 };
      }
      case 'indexOf': case 'lastIndexOf': {
        const [, mx] = traverse(rs);
        return { cost: plus(base, 1, 1 + mx * Math.max(1, ceil((a0?.max ?? 1) * TRAVERSAL))) };
      }
      case 'matches': case 'find': case 'findAll': {
        const str = recv ? rs : a0;
        const re = recv ? a0 : args[1]?.size;
        const strCost = (s: number): number => ceil((1 + s) * TRAVERSAL);
        const reCost = Math.max(1, ceil((re?.max ?? 1) * REGEX_LENGTH));
        return { cost: plus(base, strCost(str?.min ?? 0) * reCost, strCost(str?.max ?? 0) * reCost), size: str };
      }
      case 'split': case 'replace': case 'join': case 'format': {
        const [mn, mx] = traverse(rs);
        return { cost: plus(base, 1 + mn, 1 + mx), size: rs };
      }
      case 'isSorted': case 'sum': case 'min': case 'max': case 'sets.contains': case 'sets.equivalent': case 'sets.intersects': {
        return { cost: plus(base, 1, 1 + (rs?.max ?? a0?.max ?? 0) * Math.max(1, args[1]?.size?.max ?? 1)) };
      }
      case 'url': case 'isURL': case 'ip': case 'isIP': case 'cidr': case 'isCIDR': case 'quantity': case 'isQuantity':
      case 'semver': case 'isSemver': {
        const [mn, mx] = traverse(a0);
        return { cost: plus(base, 1 + mn, 1 + mx) };
      }
      case 'size':
        return { cost: plus(base, 1) };
      default:
        return { cost: plus(base, 1), size: rs };
    }
  }

  comprehension(c: Record<string, unknown>, scope: Map<string, string | undefined>): Estimate {
    const range = this.visit(c.iterable as Ast, scope);
    const init = this.visit(c.init as Ast, scope);
    const inner = new Map(scope);
    const elemPath = range.path === undefined ? undefined : `${range.path}[*]`;
    inner.set(c.iterVarName as string, elemPath);
    if (typeof c.iterVar2Name === 'string') inner.set(c.iterVar2Name, elemPath);
    const step = this.visit(c.step as Ast, inner);
    const n = range.size?.max ?? UNBOUNDED_SIZE;
    const per = step.cost.max + LOOP_OVERHEAD;
    return {
      cost: { min: range.cost.min + init.cost.min, max: range.cost.max + init.cost.max + n * per },
      size: range.size,
    };
  }

  macro(node: Ast, m: Record<string, unknown>, scope: Map<string, string | undefined>): Estimate {
    if (Array.isArray(m.macroHasProps) || (node.args as unknown[] | undefined)?.[0] === 'has') {
      // has(a.b): cost of evaluating the operand `a` (PresenceTestHasCost(false)).
      const props = m.macroHasProps as Ast[] | undefined;
      const operand = props ? props[props.length - 1]! : (m.args as Ast[])[0]!;
      return { cost: this.visit(operand, scope).cost };
    }
    if (typeof m.estimate === 'function') return (m.estimate as (e: Estimator, s: typeof scope) => Estimate)(this, scope);
    if (m.val && m.exp) {
      // cel.bind(v, init, expr)
      const val = this.visit(m.val as Ast, scope);
      const inner = new Map(scope);
      inner.set(m.var as string, val.path);
      const exp = this.visit(m.exp as Ast, inner);
      return { cost: add(val.cost, exp.cost), size: exp.size };
    }
    if (m.receiver) {
      // optional.or / orValue
      const r = this.visit(m.receiver as Ast, scope);
      const a = m.arg ? this.visit(m.arg as Ast, scope) : { cost: ZERO };
      return { cost: plus(add(r.cost, a.cost), 1), size: r.size };
    }
    return { cost: { min: 1, max: 1 } };
  }
}
export type { Estimator };
