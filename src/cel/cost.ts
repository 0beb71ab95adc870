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

interface Size { min: number; max: number }
interface Estimate { cost: CelCost; size?: Size; path?: string; isString?: boolean }

type Ast = { op: string; args: unknown; checkedType?: { kind: string; name: string }; meta?: { alternate?: Ast; macro?: Record<string, unknown> } };

/**
 * The size cel-go's estimator ends up using for scalars in equality: ints count 1 (so `a == 1` costs 1),
 * doubles, bools, null and objects 0 (kube's tests: `self[1] == 0.0` costs 2, `self[0] == 5` on dyn 3).
 */
function scalarSize(node: Ast): Size {
  const t = node.checkedType?.name;
  const v = node.op === 'value' ? node.args : undefined;
  const n = t === 'int' || t === 'uint' || typeof v === 'bigint' ? 1 : 0;
  return { min: n, max: n };
}

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
    const r = this.visitNode(node, scope);
    const t = node.checkedType?.name;
    if (t === 'string' || t === 'bytes') r.isString = true;
    r.size ??= sized(node) ? { min: 0, max: UNBOUNDED_SIZE } : scalarSize(node);
    return r;
  }

  visitNode(node: Ast, scope: Map<string, string | undefined>): Estimate {
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
        if (typeof v === 'string' || v instanceof Uint8Array) return { cost: ZERO, size: { min: v.length, max: v.length } };
        return { cost: ZERO, size: scalarSize(node) };
      }
      case 'id': {
        const name = node.args as string;
        const path = scope.has(name) ? scope.get(name) : name;
        const size = this.sizeAt(path) ?? (sized(node) ? { min: 0, max: UNBOUNDED_SIZE } : scalarSize(node));
        return { cost: { min: 1, max: 1 }, path, size };
      }
      case '.': case '.?': {
        const [obj, field] = args as [Ast, string];
        const o = this.visit(obj, scope);
        const path = o.path === undefined ? undefined : `${o.path}.${field}`;
        return { cost: plus(o.cost, 1), path, size: this.sizeAt(path) ?? (sized(node) ? { min: 0, max: UNBOUNDED_SIZE } : scalarSize(node)) };
      }
      case '[]': case '[?]': {
        const [obj, idx] = args as [Ast, Ast];
        const o = this.visit(obj, scope);
        const i = this.visit(idx, scope);
        const path = o.path === undefined ? undefined : `${o.path}[*]`;
        return { cost: plus(add(o.cost, i.cost), 1), path, size: this.sizeAt(path) ?? (sized(node) ? { min: 0, max: UNBOUNDED_SIZE } : scalarSize(node)) };
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
      case '+': {
        const size = { min: (l.size?.min ?? 0) + (r.size?.min ?? 0), max: ls + rs };
        // String and bytes concatenation traverse both; list concatenation is O(1) in cel-go.
        if (l.isString) return { cost: plus(base, ceil(size.min * TRAVERSAL), ceil(size.max * TRAVERSAL)), size, isString: true };
        if (l.size && r.size) return { cost: plus(base, 1), size };
        return { cost: plus(base, 1) };
      }
      case '==': case '!=': case '<': case '<=': case '>': case '>=': {
        if ((op === '==' || op === '!=') || (l.isString && r.isString)) {
          const smallest = Math.min(ls, rs);
          return { cost: plus(base, smallest > 0 ? 1 : 0, ceil(smallest * TRAVERSAL)) };
        }
        return { cost: plus(base, 1) };
      }
      case 'in':
        return { cost: plus(base, r.size ? r.size.min : 0, r.size ? r.size.max : UNBOUNDED_SIZE) };
      default:
        return { cost: plus(base, 1) };
    }
  }

  call(name: string, recv: Estimate | undefined, args: Estimate[]): Estimate {
    const base = args.reduce((c, a) => add(c, a.cost), recv?.cost ?? ZERO);
    const rs = recv?.size;
    const a0 = args[0]?.size;
    const factor = (s: Size | undefined, f: number, extra = 0): Size => ({ min: ceil(((s?.min ?? 0) + extra) * f), max: ceil(((s?.max ?? UNBOUNDED_SIZE) + extra) * f) });
    const withCost = (c: Size, size?: Size): Estimate => ({ cost: plus(base, c.min, c.max), size });
    const n = name === 'contains' && args.length === 2 ? 'contains_set' : name.replace(/^__k_/, '');
    switch (n) {
      case 'contains': {
        const a = factor(rs, TRAVERSAL);
        const b = factor(a0, TRAVERSAL);
        return withCost({ min: a.min * b.min, max: a.max * b.max });
      }
      case 'startsWith': case 'endsWith':
        return withCost(factor(a0, TRAVERSAL));
      case 'matches': case 'find': case 'findAll': {
        const str = factor(recv ? rs : a0, TRAVERSAL, 1);
        const re = factor(recv ? a0 : args[1]?.size, REGEX_LENGTH);
        return withCost({ min: str.min * re.min, max: str.max * re.max }, n === 'matches' ? undefined : (recv ? rs : a0));
      }
      case 'lowerAscii': case 'upperAscii': case 'trim': case 'quote': case 'reverse': case 'substring': case 'charAt':
      case 'indexOf': case 'lastIndexOf': case 'split': case 'join': case 'format': {
        const target = recv ? rs : a0;
        return withCost(factor(target, TRAVERSAL), target);
      }
      case 'replace': {
        // Cost and size follow the result: the receiver with every match replaced by the replacement.
        const old = args[0]?.size;
        const rep = args[1]?.size;
        const maxOut = old && rep && old.min > 0 ? Math.ceil((rs?.max ?? UNBOUNDED_SIZE) / old.min) * Math.max(old.min, rep.max) : (rs?.max ?? UNBOUNDED_SIZE) * Math.max(1, rep?.max ?? 1);
        const c = factor({ min: 0, max: maxOut }, TRAVERSAL);
        return withCost({ min: 1, max: c.max + 1 }, { min: 0, max: maxOut });
      }
      case 'isSorted': case 'sum': case 'min': case 'max': {
        const c = rs?.max ?? UNBOUNDED_SIZE;
        return withCost({ min: 1, max: c + 1 });
      }
      case 'contains_set': case 'equivalent': case 'intersects': {
        const x = a0?.max ?? UNBOUNDED_SIZE;
        const y = args[1]?.size?.max ?? UNBOUNDED_SIZE;
        return withCost({ min: 1, max: x * y + 1 });
      }
      case 'url': case 'isURL': case 'ip': case 'isIP': case 'cidr': case 'isCIDR': case 'quantity': case 'isQuantity':
      case 'semver': case 'isSemver': case 'validate': case 'isCanonical': {
        const c = factor(recv && n === 'validate' ? a0 : a0, TRAVERSAL);
        return withCost({ min: c.min + 1, max: c.max + 1 });
      }
      case 'check':
        // kube: an authorization check has a fixed cost, so that two fit in the per-call limit.
        return recv ? withCost({ min: 350_000, max: 350_000 }) : withCost({ min: 1, max: 1 });
      default:
        return withCost({ min: 1, max: 1 }, n === 'dyn' ? a0 : undefined);
    }
  }

  /**
   * cel-go's cost of the expanded macros: range + init + size × (loop condition + step) + result, where all()
   * costs 3 per element over its predicate, exists() 4, exists_one() 2 (+2 result), map() 12 and filter() 13
   * (+10 for the list accumulator).
   */
  comprehension(c: Record<string, unknown>, scope: Map<string, string | undefined>): Estimate {
    const range = this.visit(c.iterable as Ast, scope);
    const inner = new Map(scope);
    const elemPath = range.path === undefined ? undefined : `${range.path}[*]`;
    inner.set(c.iterVarName as string, elemPath);
    const step = this.visit(c.step as Ast, inner);
    const init = c.init as Ast;
    let perElement: number;
    let fixed: number;
    if (c.kind === 'quantifier') {
      const initValue = init.op === 'value' ? init.args : undefined;
      if (c.errorsAreFatal) [perElement, fixed] = [1, 2];
      else [perElement, fixed] = initValue === true ? [3, 1] : [4, 1];
    } else {
      const isFilter = false;
      [perElement, fixed] = [11, 11];
      void isFilter;
    }
    const n = range.size?.max ?? UNBOUNDED_SIZE;
    const nMin = range.size?.min ?? 0;
    return {
      cost: { min: range.cost.min + fixed + nMin * (step.cost.min + perElement), max: range.cost.max + fixed + n * (step.cost.max + perElement) },
      size: c.kind === 'quantifier' ? undefined : range.size,
    };
  }

  macro(node: Ast, m: Record<string, unknown>, scope: Map<string, string | undefined>): Estimate {
    if (Array.isArray(m.macroHasProps) || (node.args as unknown[] | undefined)?.[0] === 'has') {
      // has(): free with kube's PresenceTestHasCost(false) (kube's tests: `has(self.x)` estimates 0).
      return { cost: ZERO };
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
