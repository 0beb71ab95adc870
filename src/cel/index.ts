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
 */

/** A CEL type: scalar names, containers, or an object type with declared fields (from an OpenAPI schema). */
export type CelType =
  | 'bool' | 'int' | 'uint' | 'double' | 'string' | 'bytes' | 'null_type' | 'dyn' | 'timestamp' | 'duration'
  | { readonly list: CelType }
  | { readonly map: CelType }
  | CelObjectType;

export interface CelObjectType {
  /** A unique type name (kube uses the field path, e.g. `self.spec`). */
  readonly object: string;
  readonly fields: Readonly<Record<string, CelType>>;
  /** Fields whose absence `has()` can test; all fields are optional in CEL over JSON anyway. */
  readonly required?: readonly string[];
}

/** Which Kubernetes library set and cost limits apply. */
export type CelProfile = 'crd' | 'authentication' | 'authorization' | 'admission';

export interface CelEnvOptions {
  readonly profile: CelProfile;
  readonly variables: Readonly<Record<string, CelType>>;
  /** Max worst-case size of lists/maps/strings the estimator assumes for each variable path (maxItems etc.). */
  readonly sizeHints?: Readonly<Record<string, number>>;
}

export interface CelCost {
  readonly min: number;
  readonly max: number;
}

export interface CelProgram {
  readonly source: string;
  readonly estimatedCost: CelCost;
  /** The checked result type (e.g. 'bool' for validation rules, 'string' for messageExpression). */
  readonly resultType: string;
  evaluate(vars: Readonly<Record<string, unknown>>, opts?: { readonly costLimit?: number }): { value: unknown; cost: number };
}

export class CelCompileError extends Error {
  override name = 'CelCompileError';
}
export class CelEvalError extends Error {
  override name = 'CelEvalError';
}
export class CelCostLimitError extends CelEvalError {
  override name = 'CelCostLimitError';
}

/** kube's per-expression runtime cost limit for CRD rules and the per-CRD estimated limit. */
export const PER_CALL_LIMIT = 1_000_000;
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;

export function compileCel(_source: string, _env: CelEnvOptions): CelProgram {
  throw new CelCompileError('CEL is not built yet');
}
