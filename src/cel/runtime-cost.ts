/**
 * Runtime cost accounting, in cel-go's units (interpreter/runtimecost.go): identifiers and field selections
 * cost 1, constants and logical operators 0, list/map literals 10/30, calls 1 plus size-dependent costs for
 * string and regex work (library functions charge theirs through `charge`). Comprehension bodies are charged
 * per iteration because every node evaluation passes through the hook.
 *
 * How: cel-js evaluates every child node through `Evaluator.run`, so one hook on that method (installed once,
 * active only while a meter is set) counts every node; operand values that size-dependent costs need are kept
 * on the nodes marked by `markCostOperands`.
 *
 * Invariant: evaluation is synchronous (no async functions are registered), so a single active meter is safe.
 */
import { Environment } from '@marcbachmann/cel-js';
import { CelCostLimitError } from './contract.ts';

export const COST_LIMIT_MESSAGE = 'operation cancelled: actual cost limit exceeded';
const STRING_TRAVERSAL = 0.1;
const REGEX_LENGTH = 0.25;

/** The running total for one evaluation. */
export class CostMeter {
  cost = 0;
  exceeded = false;
  constructor(readonly limit: number) {}
  charge(n: number): void {
    this.cost += n;
    if (this.cost > this.limit) {
      this.exceeded = true;
      throw new CelCostLimitError(COST_LIMIT_MESSAGE);
    }
  }
}

let active: CostMeter | undefined;

/** Charge the active evaluation (library functions call this for their size-dependent work). */
export function charge(n: number): void {
  if (active !== undefined && n > 0) active.charge(n);
}

/** Charge ceil(size × 0.1), cel-go's cost of traversing a string or list of that size once. */
export function chargeTraversal(size: number): void {
  if (active !== undefined) charge(Math.ceil(size * STRING_TRAVERSAL));
}

interface Node {
  op: string;
  args: unknown;
  evaluate(ev: unknown, ast: Node, ctx: unknown): unknown;
  meta?: { alternate?: Node; macro?: object };
  [COST]?: number | ((n: Node) => number);
  [KEEP]?: boolean;
  [LAST]?: unknown;
}
const COST = Symbol('celCost');
const KEEP = Symbol('celKeep');
const LAST = Symbol('celLast');

/** Run `fn` with `meter` active; throws CelCostLimitError if the limit was crossed anywhere (even in `||`). */
export function withMeter<T>(meter: CostMeter, fn: () => T): T {
  const prev = active;
  active = meter;
  try {
    const out = fn();
    if (meter.exceeded) throw new CelCostLimitError(COST_LIMIT_MESSAGE);
    return out;
  } catch (e) {
    if (meter.exceeded) throw new CelCostLimitError(COST_LIMIT_MESSAGE);
    throw e;
  } finally {
    active = prev;
  }
}

function sizeOf(v: unknown): number {
  if (typeof v === 'string') return v.length;
  if (Array.isArray(v) || v instanceof Uint8Array) return v.length;
  if (v instanceof Map || v instanceof Set) return v.size;
  return 0;
}

const last = (n: unknown): unknown => (n as Node)[LAST];

function nodeCost(node: Node): number | ((n: Node) => number) {
  switch (node.op) {
    case 'value': case '||': case '&&': case '?:': case 'accuValue': case 'accuInc': case 'accuPush': case 'comprehension':
      return 0;
    case 'list':
      return 10;
    case 'map':
      return 30;
    case '+': {
      const [l, r] = node.args as [Node, Node];
      return () => {
        const lv = last(l);
        return typeof lv === 'string' || Array.isArray(lv) ? Math.ceil((sizeOf(lv) + sizeOf(last(r))) * STRING_TRAVERSAL) : 1;
      };
    }
    case '==': case '!=': {
      const [l, r] = node.args as [Node, Node];
      return () => 1 + Math.ceil(Math.min(sizeOf(last(l)), sizeOf(last(r))) * STRING_TRAVERSAL);
    }
    case 'rcall': {
      const [name, recv, args] = node.args as [string, Node, Node[]];
      if (name === 'contains' || name === 'startsWith' || name === 'endsWith') {
        return () => 1 + Math.ceil(sizeOf(last(recv)) * STRING_TRAVERSAL);
      }
      // Library functions (matches, find, …) charge their own size-dependent cost.
      void args;
      return 1;
    }
    default:
      return 1;
  }
}

/** Charge the cost of the root node, which cel-js evaluates directly rather than through `run`. */
export function chargeRoot(root: unknown): void {
  const meter = active;
  if (meter === undefined) return;
  const node = root as Node;
  const c = (node[COST] ??= nodeCost(node));
  meter.charge(typeof c === 'number' ? c : c(node));
}

/** cel-go's cost of matching a regex of size `re` against a string of size `str`. */
export function regexCost(str: number, re: number): number {
  return Math.ceil((1 + str) * STRING_TRAVERSAL) * Math.ceil(re * REGEX_LENGTH);
}

/** Mark the operands whose values a size-dependent cost reads (call once per compiled AST). */
export function markCostOperands(root: unknown): void {
  for (const node of allNodes(root)) {
    const args = node.args;
    if (['+', '==', '!='].includes(node.op)) for (const a of args as Node[]) a[KEEP] = true;
    if (node.op === 'rcall') {
      const [, recv, rest] = args as [string, Node, Node[]];
      recv[KEEP] = true;
      for (const a of rest) a[KEEP] = true;
    }
    if (node.op === 'call') for (const a of (args as [string, Node[]])[1]) a[KEEP] = true;
  }
}

/** Every AST node reachable from `root`, including macro expansions. */
export function allNodes(root: unknown): Node[] {
  const out: Node[] = [];
  const seen = new Set<object>();
  const visit = (v: unknown, depth: number): void => {
    if (v === null || typeof v !== 'object' || seen.has(v) || depth > 400) return;
    seen.add(v);
    if (v instanceof AstNode) {
      const n = v as unknown as Node;
      out.push(n);
      visit(n.args, depth + 1);
      visit(n.meta?.alternate, depth + 1);
      visit(n.meta?.macro, depth + 1);
      return;
    }
    if (Array.isArray(v)) for (const e of v) visit(e, depth + 1);
    else if (Object.getPrototypeOf(v) === Object.prototype) for (const e of Object.values(v)) visit(e, depth + 1);
  };
  visit(root, 0);
  return out;
}

// Capture cel-js's (unexported) Evaluator and ASTNode classes through a throwaway evaluation.
const probe = new Environment().parse('1');
const AstNode = (probe.ast as object).constructor as new (...a: unknown[]) => object;
let evaluatorProto: { run(ast: Node, ctx: unknown): unknown } | undefined;
(probe.ast as unknown as Node).evaluate = (ev: unknown) => {
  evaluatorProto = Object.getPrototypeOf(ev) as typeof evaluatorProto;
  return 1n;
};
probe();
if (!evaluatorProto) throw new Error('cel-js evaluator not found');
evaluatorProto.run = function run(this: unknown, ast: Node, ctx: unknown): unknown {
  const meter = active;
  if (meter === undefined) return ast.evaluate(this, ast, ctx);
  if (meter.exceeded) throw new CelCostLimitError(COST_LIMIT_MESSAGE);
  const r = ast.evaluate(this, ast, ctx);
  if (ast[KEEP]) ast[LAST] = r;
  const c = (ast[COST] ??= nodeCost(ast));
  meter.charge(typeof c === 'number' ? c : c(ast));
  return r;
};
