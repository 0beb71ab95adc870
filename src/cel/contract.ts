/**
 * The CEL contract shared with callers (CRD validation, authentication, authorization, admission): types,
 * errors and kube's limits. `index.ts` re-exports all of it; the implementation files import from here so the
 * module graph has no cycle through index.ts.
 */

/** A CEL type: scalar names, containers, or an object type with declared fields (from an OpenAPI schema). */
export type CelType =
  | 'bool' | 'int' | 'uint' | 'double' | 'string' | 'bytes' | 'null_type' | 'dyn' | 'timestamp' | 'duration'
  | CelListType
  | { readonly map: CelType }
  /** `optional_type(T)` (e.g. `oldSelf` under `optionalOldSelf: true`): an absent variable is `optional.none()`. */
  | { readonly optional: CelType }
  /**
   * A library type with methods only (kube's receiver-only values, e.g. `kubernetes.authorization.Authorizer`):
   * the value is passed through as the library's own class instance.
   */
  | { readonly opaque: string }
  | CelObjectType;

export interface CelListType {
  readonly list: CelType;
  /**
   * kube's `x-kubernetes-list-type`: `set` and `map` lists compare equal regardless of order (as kube's
   * unstructured list values do); absent or `atomic` lists compare element by element.
   */
  readonly listType?: 'atomic' | 'set' | 'map';
}

export interface CelObjectType {
  /** A unique type name (kube uses the field path, e.g. `self.spec`). */
  readonly object: string;
  readonly fields: Readonly<Record<string, CelType>>;
  /** Fields whose absence `has()` can test; all fields are optional in CEL over JSON anyway. */
  readonly required?: readonly string[];
  /** JSON property names for fields whose CEL name was escaped (`foo__dash__bar` → `foo-bar`). */
  readonly jsonNames?: Readonly<Record<string, string>>;
}

/** Which Kubernetes library set and cost limits apply. */
export type CelProfile = 'crd' | 'authentication' | 'authorization' | 'admission';

export interface CelEnvOptions {
  readonly profile: CelProfile;
  readonly variables: Readonly<Record<string, CelType>>;
  /**
   * Max worst-case size of lists/maps/strings the estimator assumes for each value path (maxItems etc.), keyed
   * `self.spec.items` (a list or map), `self.spec.items[*]` (its elements or values), strings in bytes
   * (kube: maxLength × 4). `celTypeFromSchema` produces them; a path without a hint is unbounded (3 MiB).
   */
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
  /**
   * `raw: true` returns the CEL runtime value unconverted (for callers that feed it to another expression, e.g.
   * admission policies' composited variables); the default converts it to a JSON-like value.
   */
  evaluate(vars: Readonly<Record<string, unknown>>, opts?: { readonly costLimit?: number; readonly raw?: boolean }): { value: unknown; cost: number };
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
