/**
 * CEL for Keelson: one place that compiles and evaluates Common Expression Language with the Kubernetes
 * libraries and cost model, used by CRD validation rules (`x-kubernetes-validations`), structured
 * authentication (claim validation and mappings), structured authorization (match conditions) and admission.
 *
 * CONTRACT (written before the implementation; the CEL module owns the bodies, callers code against these):
 *   - `compileCel(source, env)` type-checks against the declared variables and returns a program, or throws
 *     `CelCompileError` whose message reads like kube-apiserver's (`compilation failed: ERROR: <input>:1:6: …`).
 *   - `program.estimatedCost` is the static worst case (kube's estimated cost units), for checks made when a
 *     CRD or a configuration is written; `program.evaluate` charges runtime cost and throws `CelCostLimitError`
 *     past `costLimit`, `CelEvalError` for runtime errors (no such key, overflow, …).
 *   - Values in and out are plain JSON-like JS values (numbers, strings, booleans, null, arrays, objects);
 *     integer-vs-double follows the declared type. Timestamps/durations come back as strings in RFC 3339 /
 *     Go duration form.
 *   - Values passed to `evaluate` are treated as immutable: the last variable's conversion is reused when the
 *     same object comes again (so ten rules over one `self` convert it once); pass a new object rather than
 *     mutating one already evaluated.
 */
import { boundEnv } from './env.ts';
import { compileError, evalError } from './errors.ts';
import { estimateCost } from './cost.ts';
import { allNodes, chargeRoot, CostMeter, markCostOperands, withMeter } from './runtime-cost.ts';
import { renameOverridden } from './lib/register.ts';
import { validateAst } from './validators.ts';
import { fromCel, variableToCel } from './values.ts';
import { CelCompileError, CelCostLimitError, type CelEnvOptions, type CelProgram, type CelType } from './contract.ts';

export * from './contract.ts';
export { celTypeFromSchema, type SchemaCelType, type CelSchema } from './schema.ts';

interface ParsedExpr {
  (ctx: Record<string, unknown>): unknown;
  readonly ast: { checkedType?: { name: string } };
  check(): { valid: boolean; type?: string; error?: unknown };
}

const MAX_PROGRAMS_PER_ENV = 2000;

/** Compile `source` against `env`'s profile and variables; throws CelCompileError worded as kube's. */
export function compileCel(source: string, env: CelEnvOptions): CelProgram {
  if (typeof source !== 'string') throw new CelCompileError('compilation failed: expression must be a string');
  const bound = boundEnv(env.profile, env.variables);
  const key = `${JSON.stringify(env.sizeHints ?? {})}\u0000${source}`;
  const cached = bound.programs.get(key) as CelProgram | undefined;
  if (cached) return cached;

  let parsed: ParsedExpr;
  try {
    parsed = bound.env.parse(source) as unknown as ParsedExpr;
  } catch (e) {
    throw compileError(source, e, bound.functions);
  }
  renameOverridden(allNodes(parsed.ast));
  const checked = parsed.check();
  if (!checked.valid) throw compileError(source, checked.error, bound.functions);
  validateAst(parsed.ast, source, bound.objectFields);
  markCostOperands(parsed.ast);
  const sized = new Set(Object.entries(env.variables).filter(([, t]) => isSized(t)).map(([n]) => n));
  const estimatedCost = estimateCost(parsed.ast, { sizeHints: env.sizeHints ?? {}, sized });
  const resultType = celGoTypeName(parsed.ast.checkedType?.name ?? checked.type ?? 'dyn');
  // Entries once per program, not per evaluation (admission evaluates hundreds of programs per request).
  const declared = Object.entries(bound.variables);

  const program: CelProgram = {
    source,
    estimatedCost,
    resultType,
    evaluate(vars, opts) {
      const ctx: Record<string, unknown> = {};
      for (const [name, type] of declared) {
        const v = vars[name];
        if (v !== undefined || (typeof type === 'object' && 'optional' in type)) ctx[name] = variableToCel(v, type);
      }
      const meter = new CostMeter(opts?.costLimit ?? Number.POSITIVE_INFINITY);
      let value: unknown;
      try {
        value = withMeter(meter, () => {
          const out = parsed(ctx);
          chargeRoot(parsed.ast);
          return out;
        });
      } catch (e) {
        if (e instanceof CelCostLimitError) throw e;
        throw evalError(e);
      }
      return { value: opts?.raw ? value : fromCel(value), cost: meter.cost };
    },
  };
  if (bound.programs.size >= MAX_PROGRAMS_PER_ENV) bound.programs.delete(bound.programs.keys().next().value!);
  bound.programs.set(key, program);
  return program;
}

function isSized(t: CelType): boolean {
  if (typeof t === 'object' && 'optional' in t) return isSized(t.optional);
  if (typeof t === 'object' && 'opaque' in t) return false;
  return t === 'string' || t === 'bytes' || (typeof t === 'object' && ('list' in t || 'map' in t));
}

/** cel-js type names → cel-go's (`list<int>` → `list(int)`, `map<string, int>` → `map(string, int)`). */
export function celGoTypeName(name: string): string {
  return name
    .replace(/\b(list|map)</g, '$1(')
    .replace(/\boptional</g, 'optional_type(')
    .replace(/>/g, ')')
    .replace(/\bnull\b/g, 'null_type');
}
