/**
 * MutatingAdmissionPolicy (admissionregistration.k8s.io/v1alpha1 in kube v1.33; kube's apiserver
 * admission/plugin/policy/mutating): for each matching policy, binding and param, the mutations in order —
 *   ApplyConfiguration: a CEL object construction (`Object{spec: Object.spec{replicas: 3}}`) merged into the
 *                       object with server-side apply's merge (src/apply/ssa);
 *   JSONPatch:          a CEL list of `JSONPatch{op, path, from, value}` applied as RFC 6902 (a failed `test`
 *                       leaves the object unchanged).
 * A policy with reinvocationPolicy IfNeeded runs again when a later mutating plugin changed the object.
 * Errors follow failurePolicy: Fail refuses with `policy '<p>' with binding '<b>' denied request: <error>`
 * (HTTP 403, reason Invalid, as kube's generic policy dispatcher builds it).
 *
 * cel-js has no message construction syntax, so `Name{field: value}` literals are rewritten before compiling
 * into map literals (src/cel/object-literals.ts) — the values are what the mutation reads back as JSON anyway.
 */
import { StatusError, type StatusReason } from '../../machinery/errors.ts';
import type { KObject } from '../../machinery/objects.ts';
import type { AdmissionAttributes } from '../../registry/admission.ts';
import { applyJsonPatch, decodeJsonPatch, JsonPatchApplyError } from '../../apply/json-patch.ts';
import { mergeObjects } from '../../apply/ssa/merge.ts';
import { rootNodeForObject } from '../../apply/schema-view.ts';
import { rewriteObjectLiterals } from '../../cel/object-literals.ts';
import { admissionForbidden } from '../errors.ts';
import {
  admissionRequest, compileExpression, declarations, dynToCel, Evaluation, namespaceObject, OutOfBudget, RequestAuthorizer, RUNTIME_CEL_COST_BUDGET,
  RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS, VariableSet, withAuthorizerAnswers, type Activation, type Compiled,
} from './cel.ts';
import { labelSelectorMatches, matchResources, requestScopedDeps, type MatchResourcesSpec } from './matching.ts';
import { collectParams, spec, type PolicyHook } from './source.ts';
import type { CompiledMatchCondition, DispatchDeps } from './validating.ts';

type J = Record<string, unknown>;

export interface CompiledMutatingPolicy {
  readonly variables: VariableSet;
  readonly matchConditions: readonly CompiledMatchCondition[];
  readonly mutations: ReadonlyArray<{ readonly patchType: string; readonly compiled: Compiled }>;
  readonly failurePolicy: string;
  readonly reinvoke: boolean;
}

export function compileMutatingPolicy(policy: KObject): CompiledMutatingPolicy {
  const s = spec(policy);
  const hasParams = s['paramKind'] !== undefined && s['paramKind'] !== null;
  const vars = new VariableSet();
  const o = { hasParams, hasAuthorizer: true };
  for (const v of (s['variables'] as J[] | undefined) ?? []) {
    vars.add(String(v['name'] ?? ''), compileExpression(rewriteObjectLiterals(String(v['expression'] ?? '')), declarations(o, vars), ['any']));
  }
  const decls = declarations(o, vars);
  return {
    variables: vars,
    matchConditions: ((s['matchConditions'] as J[] | undefined) ?? []).map((m) => ({ name: String(m['name'] ?? ''), compiled: compileExpression(String(m['expression'] ?? ''), decls) })),
    mutations: ((s['mutations'] as J[] | undefined) ?? []).map((m) => {
      const patchType = String(m['patchType'] ?? '');
      const source = String(((patchType === 'JSONPatch' ? m['jsonPatch'] : m['applyConfiguration']) as J | undefined)?.['expression'] ?? '');
      const compiled = compileExpression(rewriteObjectLiterals(source), decls, ['any']);
      return { patchType, compiled: { ...compiled, expression: source } };
    }),
    failurePolicy: typeof s['failurePolicy'] === 'string' ? s['failurePolicy'] : 'Fail',
    reinvoke: s['reinvocationPolicy'] === 'IfNeeded',
  };
}

interface PolicyError {
  readonly policy: string;
  readonly binding?: string;
  readonly message: string;
  readonly reason?: string;
  readonly failurePolicy: string;
}

const isObj = (v: unknown): v is J => v !== null && typeof v === 'object' && !Array.isArray(v);

/** One mutation against the current object: the new object, or an error text. */
function mutate(kind: string, ev: Evaluation, c: Compiled, current: KObject): KObject | string {
  const r = ev.run(c);
  if (r.error !== undefined) return r.error;
  if (kind === 'JSONPatch') {
    if (!Array.isArray(r.value)) return 'type mismatch: JSONPatchType.expression should evaluate to array';
    const ops = r.value.map((op) => {
      const o = isObj(op) ? op : {};
      const out: J = { op: o['op'] ?? '', path: o['path'] ?? '' };
      if (typeof o['from'] === 'string' && o['from']) out['from'] = o['from'];
      if (o['value'] !== undefined) out['value'] = o['value'];
      return out;
    });
    try {
      return applyJsonPatch(current, decodeJsonPatch(ops)) as KObject;
    } catch (e) {
      if (e instanceof JsonPatchApplyError && /test failed$/.test(e.message)) return current;
      return `JSON Patch: ${(e as Error).message}`;
    }
  }
  if (!isObj(r.value)) return `unsupported return type from ApplyConfiguration expression: ${typeof r.value}`;
  try {
    return mergeObjects(current, r.value, rootNodeForObject(current)) as KObject;
  } catch (e) {
    return `error applying patch: failed to merge patch: ${(e as Error).message}`;
  }
}

/** Remembers, per request, what each IfNeeded policy saw, so a reinvocation runs only the ones whose input changed. */
const reinvocationState = new WeakMap<AdmissionAttributes, { invoked: Set<string>; lastOutput: string }>();

export async function dispatchMutating(a: AdmissionAttributes, hooks: readonly PolicyHook<CompiledMutatingPolicy>[], deps: DispatchDeps): Promise<void> {
  const errors: PolicyError[] = [];
  let state = reinvocationState.get(a);
  if (!state) reinvocationState.set(a, (state = { invoked: new Set(), lastOutput: '' }));
  if (a.reinvocation.running && JSON.stringify(a.object) === state.lastOutput) return;
  let authz: RequestAuthorizer | undefined;
  const match = requestScopedDeps(deps.match);
  for (const hook of hooks) {
    const { policy, compiled } = hook;
    const ps = spec(policy);
    const fp = compiled.failurePolicy;
    const name = policy.metadata.name ?? '';
    const configError = (msg: string, binding?: KObject) => errors.push({
      policy: name, ...(binding ? { binding: binding.metadata.name ?? '' } : {}), failurePolicy: fp, reason: 'Forbidden',
      message: binding ? `failed to configure binding: ${msg}` : `failed to configure policy: ${msg}`,
    });
    let m;
    try {
      const constraints = ps['matchConstraints'] as MatchResourcesSpec | undefined;
      if (!constraints) throw new Error('policy contained no match constraints, a required field');
      m = await matchResources(constraints, a, match);
    } catch (e) {
      configError((e as Error).message);
      continue;
    }
    if (!m.matches) continue;
    if (hook.configError) {
      configError(hook.configError);
      continue;
    }
    for (const binding of hook.bindings) {
      const bs = spec(binding);
      try {
        const mr = bs['matchResources'] as MatchResourcesSpec | undefined;
        if (mr && !(await matchResources(mr, a, match)).matches) continue;
      } catch (e) {
        configError((e as Error).message, binding);
        continue;
      }
      let params: Array<KObject | null>;
      try {
        params = await collectParams(ps['paramKind'] as J | undefined, hook.params, bs['paramRef'] as J | undefined, a.namespace, (sel, l) => labelSelectorMatches(sel, l));
      } catch (e) {
        configError((e as Error).message, binding);
        continue;
      }
      const nsName = a.kind.group === '' && a.kind.kind === 'Namespace' ? '' : a.namespace;
      const ns = nsName ? deps.namespaces.cached(nsName) ?? (await deps.namespaces.get(nsName)) : undefined;
      authz ??= new RequestAuthorizer(deps.authorizer(), a);
      for (const param of params) {
        const key = `${name}/${binding.metadata.name}/${param?.metadata.namespace ?? ''}/${param?.metadata.name ?? ''}`;
        if (a.reinvocation.running && !state.invoked.has(key)) continue;
        if (!a.object) continue;
        const before = JSON.stringify(a.object);
        const request = admissionRequest(a, m.resource!, m.kind!);
        const act = (): Activation => ({
          object: dynToCel(a.object), oldObject: a.oldObject ? dynToCel(a.oldObject) : null, request, namespaceObject: namespaceObject(ns),
          params: param ? dynToCel(param) : null, authorizer: authz!.value(m.resource!),
        });
        if (compiled.matchConditions.length) {
          const matched = await withAuthorizerAnswers(authz, () => {
            const ev = new Evaluation(act(), compiled.variables, RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS);
            const errs: string[] = [];
            try {
              for (const mc of compiled.matchConditions) {
                const r = ev.run(mc.compiled);
                if (r.error !== undefined) errs.push(r.error);
                else if (r.value === false) return false;
              }
            } catch (e) {
              if (!(e instanceof OutOfBudget)) throw e;
              errs.push(e.message);
            }
            return errs.length ? errs.join(', ') : true;
          });
          if (matched === false) continue;
          if (typeof matched === 'string') {
            errors.push({ policy: name, binding: binding.metadata.name ?? '', message: matched, reason: 'Invalid', failurePolicy: fp });
            continue;
          }
        }
        for (const mutation of compiled.mutations) {
          const current = a.object as KObject;
          const result = await withAuthorizerAnswers(authz, () => {
            const ev = new Evaluation(act(), compiled.variables, RUNTIME_CEL_COST_BUDGET);
            try {
              return mutate(mutation.patchType, ev, mutation.compiled, current);
            } catch (e) {
              if (e instanceof OutOfBudget) return e.message;
              throw e;
            }
          });
          if (typeof result === 'string') {
            errors.push({ policy: name, binding: binding.metadata.name ?? '', message: result, reason: 'Invalid', failurePolicy: fp });
            continue;
          }
          a.object = result;
        }
        if (JSON.stringify(a.object) !== before) a.reinvocation.requested = true;
        if (compiled.reinvoke) state.invoked.add(key);
      }
    }
  }
  state.lastOutput = JSON.stringify(a.object);
  const failing = errors.filter((e) => e.failurePolicy !== 'Ignore');
  if (failing.length === 0) return;
  const text = (e: PolicyError) => (e.binding !== undefined
    ? `policy '${e.policy}' with binding '${e.binding}' denied request: ${e.message}`
    : `policy ${JSON.stringify(e.policy)} denied request: ${e.message}`);
  const base = admissionForbidden(a, 'admission request denied by policy');
  const first = failing[0]!;
  throw new StatusError(403, (first.reason === 'Invalid' ? 'Invalid' : base.reason) as StatusReason, text(first),
    { ...base.details, causes: failing.map((e) => ({ message: text(e) })) });
}
