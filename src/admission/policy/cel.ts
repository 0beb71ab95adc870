/**
 * The CEL environment of admission policies (kube's apiserver admission/plugin/cel: compile.go, composition.go,
 * activation.go) on top of src/cel:
 * - variables `object`, `oldObject` (dyn; null when absent), `request` (kubernetes.AdmissionRequest), `namespaceObject`
 *   (kubernetes.Namespace, null for cluster-scoped requests), `params` (dyn, when the policy has a paramKind),
 *   `authorizer` with `authorizer.requestResource` (not in messageExpression), `variables` (composited);
 * - compilation with kube's wording (`compilation failed: ERROR: …`, `must evaluate to bool but got string`);
 * - evaluation with kube's cost rules: each expression under the per-call limit, a budget shared by the
 *   expressions of one policy evaluation, composited variables evaluated lazily once per evaluation and charged
 *   to the expression that first reads them;
 * - authorizer checks whose answer is asynchronous: the evaluation runs again once the answers are in.
 */
import { compileCel, CelCompileError, CelCostLimitError, PER_CALL_LIMIT, type CelObjectType, type CelProgram, type CelType } from '../../cel/index.ts';
import { NULL_OBJECT } from '../../cel/values.ts';
export { dynToCel } from '../../cel/values.ts';
import { CelAuthorizer, CelResourceCheck } from '../../cel/lib/authz.ts';
import { AuthorizerSession } from '../../cel/authorizer.ts';
import type { KObject, GroupVersionKind } from '../../machinery/objects.ts';
import type { AdmissionAttributes, GroupVersionResource } from '../../registry/admission.ts';
import type { Authorizer } from '../../request/authorizer.ts';

/** kube's celconfig.RuntimeCELCostBudget: what one policy evaluation (all its validations) may spend. */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
/** kube's RuntimeCELCostBudgetMatchConditions. */
export const RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS = 10_000_000;
export { PER_CALL_LIMIT };

const s = 'string' as const;
const gvkType: CelObjectType = { object: 'kubernetes.GroupVersionKind', fields: { group: s, version: s, kind: s } };
const gvrType: CelObjectType = { object: 'kubernetes.GroupVersionResource', fields: { group: s, version: s, resource: s } };

export const REQUEST_TYPE: CelObjectType = {
  object: 'kubernetes.AdmissionRequest',
  fields: {
    kind: gvkType, resource: gvrType, subResource: s, requestKind: gvkType, requestResource: gvrType, requestSubResource: s,
    name: s, namespace: s, operation: s,
    userInfo: { object: 'kubernetes.UserInfo', fields: { username: s, uid: s, groups: { list: s }, extra: { map: { list: s } } } },
    dryRun: 'bool', options: 'dyn',
  },
};

export const NAMESPACE_TYPE: CelObjectType = {
  object: 'kubernetes.Namespace',
  fields: {
    metadata: {
      object: 'kubernetes.NamespaceMetadata',
      fields: {
        name: s, generateName: s, namespace: s, labels: { map: s }, annotations: { map: s }, UID: s, creationTimestamp: 'timestamp',
        deletionGracePeriodSeconds: 'int', deletionTimestamp: 'timestamp', generation: 'int', resourceVersion: s, finalizers: { list: s },
      },
      jsonNames: { UID: 'uid' },
    },
    spec: { object: 'kubernetes.NamespaceSpec', fields: { finalizers: { list: s } } },
    status: {
      object: 'kubernetes.NamespaceStatus',
      fields: {
        conditions: { list: { object: 'kubernetes.NamespaceCondition', fields: { status: s, type: s, lastTransitionTime: 'timestamp', message: s, reason: s } } },
        phase: s,
      },
    },
  },
};

export const AUTHORIZER_TYPE: CelType = { opaque: 'kubernetes.authorization.Authorizer' };

export interface DeclOptions {
  readonly hasParams: boolean;
  readonly hasAuthorizer: boolean;
  /** Types for the type checker (schemas of the matched kind and of the param kind); dyn at admission time. */
  readonly objectType?: CelType;
  readonly paramsType?: CelType;
}

/** A compiled expression: a program, or kube's error text for it. */
export interface Compiled {
  readonly expression: string;
  readonly program?: CelProgram;
  readonly error?: string;
}

/** The composited variables of one policy, compiled in order (each sees the ones before it). */
export class VariableSet {
  readonly names: string[] = [];
  readonly compiled = new Map<string, Compiled>();
  readonly #fields: Record<string, CelType> = {};

  get type(): CelObjectType {
    return { object: 'kubernetes.variables', fields: { ...this.#fields } };
  }

  add(name: string, c: Compiled): void {
    this.names.push(name);
    this.compiled.set(name, c);
    this.#fields[name] = c.program ? celTypeOfResult(c.program.resultType) : 'dyn';
  }
}

/** A checked result type (cel-go spelling) back to a declaration; anything not plain becomes dyn. */
export function celTypeOfResult(t: string): CelType {
  if (['bool', 'int', 'uint', 'double', 'string', 'bytes'].includes(t)) return t as CelType;
  const m = /^list\((bool|int|uint|double|string)\)$/.exec(t);
  if (m) return { list: m[1] as CelType };
  return 'dyn';
}

export function declarations(o: DeclOptions, variables: VariableSet | undefined): Record<string, CelType> {
  const d: Record<string, CelType> = {
    object: o.objectType ?? 'dyn',
    oldObject: o.objectType ?? 'dyn',
    request: REQUEST_TYPE,
    namespaceObject: NAMESPACE_TYPE,
  };
  if (o.hasParams) d['params'] = o.paramsType ?? 'dyn';
  if (o.hasAuthorizer) d['authorizer'] = AUTHORIZER_TYPE;
  if (variables) d['variables'] = variables.type;
  return d;
}

/** kube's CompileCELExpression: compile, then check the result type against the allowed ones. */
export function compileExpression(expression: string, decls: Record<string, CelType>, returnTypes: readonly string[] = ['bool']): Compiled {
  try {
    const program = compileCel(expression, { profile: 'admission', variables: decls });
    const t = program.resultType;
    if (!returnTypes.includes(t) && !returnTypes.includes('any') && !(t === 'dyn' && returnTypes.includes('dyn'))) {
      const want = returnTypes.length === 1 ? returnTypes[0] : `[${returnTypes.join(' ')}]`;
      const word = returnTypes.length === 1 ? `must evaluate to ${want}` : `must evaluate to one of ${want}`;
      return { expression, error: `${word} but got ${t}` };
    }
    return { expression, program };
  } catch (e) {
    if (e instanceof CelCompileError) return { expression, error: e.message };
    return { expression, error: `compilation failed: ${(e as Error).message ?? String(e)}` };
  }
}

// ---------------------------------------------------------------------------------------------------------
// Activation

/** kube's CreateAdmissionRequest as JSON (omitempty fields left out), for the matched resource and kind. */
export function admissionRequest(a: AdmissionAttributes, resource: GroupVersionResource, kind: GroupVersionKind): Record<string, unknown> {
  const userInfo: Record<string, unknown> = {};
  if (a.user.username) userInfo['username'] = a.user.username;
  if (a.user.uid) userInfo['uid'] = a.user.uid;
  if (a.user.groups?.length) userInfo['groups'] = [...a.user.groups];
  if (a.user.extra && Object.keys(a.user.extra).length) userInfo['extra'] = a.user.extra;
  const r: Record<string, unknown> = {
    kind: { group: kind.group, version: kind.version, kind: kind.kind },
    resource: { group: resource.group, version: resource.version, resource: resource.resource },
    requestKind: { group: a.requestKind.group, version: a.requestKind.version, kind: a.requestKind.kind },
    requestResource: { group: a.requestResource.group, version: a.requestResource.version, resource: a.requestResource.resource },
    operation: a.operation,
    userInfo,
  };
  if (a.subresource) r['subResource'] = a.subresource;
  if (a.requestSubResource) r['requestSubResource'] = a.requestSubResource;
  if (a.name) r['name'] = a.name;
  if (a.namespace) r['namespace'] = a.namespace;
  if (a.dryRun) r['dryRun'] = true;
  if (a.options) r['options'] = a.options;
  return r;
}

/** kube's CreateNamespaceObject: the namespace with only the fields the Namespace type declares. */
export function namespaceObject(ns: KObject | undefined): Record<string, unknown> | null {
  if (!ns) return null;
  const m = ns.metadata as Record<string, unknown>;
  const meta: Record<string, unknown> = {};
  for (const k of ['name', 'generateName', 'namespace', 'labels', 'annotations', 'uid', 'creationTimestamp', 'deletionGracePeriodSeconds', 'deletionTimestamp', 'generation', 'resourceVersion', 'finalizers']) {
    if (m[k] !== undefined) meta[k] = m[k];
  }
  return { metadata: meta, spec: ns['spec'] ?? {}, status: ns['status'] ?? {} };
}

/** A per-request authorizer: the request's user, answers cached, pending answers re-run the evaluation. */
export class RequestAuthorizer extends AuthorizerSession {
  constructor(authorizer: Authorizer, private readonly attrs: AdmissionAttributes) {
    super(authorizer, attrs.user);
  }

  /** The `authorizer` value, with `requestResource` set to the request's own resource. */
  value(resource: GroupVersionResource): CelAuthorizer {
    const a = new CelAuthorizer(this);
    a.requestResource = new CelResourceCheck(a, resource.group, resource.resource, this.attrs.subresource, this.attrs.namespace, this.attrs.name);
    return a;
  }
}

/** One evaluation's inputs (kube's activation), shared by the expressions of one policy for one binding and param. */
export interface Activation {
  readonly object: unknown;
  readonly oldObject: unknown;
  readonly request: Record<string, unknown>;
  readonly namespaceObject: Record<string, unknown> | null;
  readonly params: unknown;
  readonly authorizer?: CelAuthorizer;
}

/** The result of one expression: a value, or kube's error text. */
export interface EvalResult {
  readonly value?: unknown;
  readonly error?: string;
}

export class OutOfBudget extends Error {
  override name = 'OutOfBudget';
  constructor() {
    super('validation failed due to running out of cost budget, no further validation rules will be run');
  }
}

/**
 * Evaluates a list of expressions against one activation with a shared budget (kube's ForInput): the composited
 * variables are evaluated at most once each and their cost charged when first read. Throws OutOfBudget when the
 * budget runs out (kube stops the whole list then).
 */
export class Evaluation {
  #values: Map<string, { value?: unknown; error?: string }> | undefined;
  #variableCost = 0;
  remaining: number;
  #vars: Record<string, unknown> | undefined;
  #varsWithAuthz: Record<string, unknown> | undefined;
  #variablesProxy: unknown;

  constructor(readonly activation: Activation, readonly variables: VariableSet | undefined, budget: number) {
    this.remaining = budget;
  }

  #inputs(withAuthorizer: boolean): Record<string, unknown> {
    const a = this.activation;
    // Built as literals of one shape (an object spread here cost more than the expression it feeds); without
    // composited variables there is no `variables` value (and no proxy to convert per expression).
    const variables = this.variables && this.variables.names.length > 0 ? (this.#variablesProxy ??= this.#lazyVariables()) : undefined;
    if (withAuthorizer && a.authorizer) {
      return (this.#varsWithAuthz ??= {
        object: a.object ?? null, oldObject: a.oldObject ?? null, request: a.request, namespaceObject: a.namespaceObject ?? NULL_OBJECT,
        params: a.params ?? null, variables, authorizer: a.authorizer,
      });
    }
    return (this.#vars ??= {
      object: a.object ?? null, oldObject: a.oldObject ?? null, request: a.request, namespaceObject: a.namespaceObject ?? NULL_OBJECT,
      params: a.params ?? null, variables,
    });
  }

  #lazyVariables(): unknown {
    const vs = this.variables!;
    // Each program converts this into its own environment's `variables` object type, which reads fields
    // through it: a proxy that evaluates each variable on first read.
    return new Proxy({} as Record<string, unknown>, {
      getOwnPropertyDescriptor: (_t, key) => {
        if (typeof key !== 'string' || !vs.compiled.has(key)) return undefined;
        return { value: this.#variable(key), configurable: true, enumerable: true, writable: false };
      },
      get: (_t, key) => (typeof key === 'string' && vs.compiled.has(key) ? this.#variable(key) : undefined),
      has: (_t, key) => typeof key === 'string' && vs.compiled.has(key),
      ownKeys: () => [...vs.names],
    });
  }

  #variable(name: string): unknown {
    const values = (this.#values ??= new Map());
    let v = values.get(name);
    if (!v) {
      const c = this.variables!.compiled.get(name)!;
      if (!c.program) {
        v = { error: `composited variable "${name}" fails to compile: ${c.error}` };
      } else {
        try {
          const r = c.program.evaluate(this.#inputs(true), { costLimit: PER_CALL_LIMIT, raw: true });
          this.#variableCost += r.cost;
          v = { value: r.value };
        } catch (e) {
          v = { error: `composited variable "${name}" fails to evaluate: ${(e as Error).message}` };
        }
      }
      values.set(name, v);
    }
    if (v.error !== undefined) throw new Error(v.error);
    return v.value;
  }

  /** Evaluate one compiled expression; throws OutOfBudget. */
  run(c: Compiled | undefined, opts: { withAuthorizer?: boolean } = {}): EvalResult {
    if (!c) return {};
    if (!c.program) return { error: `compilation error: ${c.error}` };
    let value: unknown;
    let error: string | undefined;
    let cost = 0;
    try {
      const r = c.program.evaluate(this.#inputs(opts.withAuthorizer ?? true), { costLimit: PER_CALL_LIMIT });
      value = r.value;
      cost = r.cost;
    } catch (e) {
      error = (e as Error).message;
      if (e instanceof CelCostLimitError) cost = PER_CALL_LIMIT;
    }
    const variableCost = this.#variableCost;
    this.#variableCost = 0;
    if (variableCost > this.remaining) throw new OutOfBudget();
    this.remaining -= variableCost;
    if (cost > this.remaining) throw new OutOfBudget();
    this.remaining -= cost;
    if (error !== undefined) return { error: `expression '${c.expression}' resulted in error: ${error}` };
    return { value };
  }
}

/**
 * Runs `fn` until no authorization answer is pending (each round awaits the answers the previous one asked
 * for; CEL is deterministic, so the last round is the evaluation with every answer known).
 */
export function withAuthorizerAnswers<T>(authz: RequestAuthorizer | undefined, fn: () => T): T | Promise<T> {
  const out = fn();
  if (!authz || authz.pending.length === 0) return out;
  return rerunAfterAnswers(authz, fn);
}

/** The asynchronous half of withAuthorizerAnswers: `fn` already ran once and left answers pending. */
export async function rerunAfterAnswers<T>(authz: RequestAuthorizer, fn: () => T): Promise<T> {
  for (let round = 0; ; round++) {
    const waits = authz.pending.splice(0);
    await Promise.all(waits);
    const again = fn();
    if (authz.pending.length === 0 || round > 20) return again;
  }
}
