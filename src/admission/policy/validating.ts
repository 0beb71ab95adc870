/**
 * ValidatingAdmissionPolicy evaluation (kube's apiserver admission/plugin/policy/validating: plugin.go
 * compilePolicy, validator.go, dispatcher.go): for each policy whose matchConstraints match, each binding whose
 * matchResources match, each param the binding selects — matchConditions, then validations (with their
 * messageExpressions) and auditAnnotations — and the binding's validationActions decide what a failure does:
 *   Deny  → the request is refused with the first denial: `<resource> "<name>" is forbidden: ValidatingAdmissionPolicy
 *           '<p>' with binding '<b>' denied request: <message>`, reason and code from the validation's reason
 *           (Invalid/422 when none);
 *   Warn  → a Warning header `Validation failed for ValidatingAdmissionPolicy '<p>' with binding '<b>': <message>`;
 *   Audit → the `validation.policy.admission.k8s.io/validation_failure` audit annotation.
 * Evaluation errors follow the policy's failurePolicy (Fail denies with the error as message, Ignore admits).
 */
import { StatusError, type StatusReason } from '../../machinery/errors.ts';
import type { KObject } from '../../machinery/objects.ts';
import type { AdmissionAttributes } from '../../registry/admission.ts';
import type { Authorizer } from '../../request/authorizer.ts';
import { admissionForbidden } from '../errors.ts';
import {
  admissionRequest, compileExpression, declarations, dynToCel, Evaluation, namespaceObject, OutOfBudget, RequestAuthorizer, RUNTIME_CEL_COST_BUDGET,
  RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS, VariableSet, type EvalResult, rerunAfterAnswers, type Activation, type Compiled,
} from './cel.ts';
import { labelSelectorMatches, matchResources, requestScopedDeps, type MatchDeps, type MatchResourcesSpec } from './matching.ts';
import { collectParams, spec, type Namespaces, type PolicyHook } from './source.ts';

type J = Record<string, unknown>;

export interface CompiledMatchCondition {
  readonly name: string;
  readonly compiled: Compiled;
}

export interface CompiledValidatingPolicy {
  readonly variables: VariableSet;
  readonly matchConditions: readonly CompiledMatchCondition[];
  readonly validations: ReadonlyArray<{ readonly compiled: Compiled; readonly message?: string; readonly messageExpression?: Compiled; readonly reason?: string }>;
  readonly auditAnnotations: ReadonlyArray<{ readonly key: string; readonly valueExpression: string; readonly compiled: Compiled }>;
  readonly failurePolicy: string;
}

/** kube's compilePolicy: variables in order, then the other expressions against them. */
export function compileValidatingPolicy(policy: KObject): CompiledValidatingPolicy {
  const s = spec(policy);
  const hasParams = s['paramKind'] !== undefined && s['paramKind'] !== null;
  const vars = new VariableSet();
  const withAuthz = { hasParams, hasAuthorizer: true };
  for (const v of (s['variables'] as J[] | undefined) ?? []) {
    vars.add(String(v['name'] ?? ''), compileExpression(String(v['expression'] ?? ''), declarations(withAuthz, vars), ['any']));
  }
  const decls = declarations(withAuthz, vars);
  const msgDecls = declarations({ hasParams, hasAuthorizer: false }, vars);
  return {
    variables: vars,
    matchConditions: ((s['matchConditions'] as J[] | undefined) ?? []).map((m) => ({ name: String(m['name'] ?? ''), compiled: compileExpression(String(m['expression'] ?? ''), decls) })),
    validations: ((s['validations'] as J[] | undefined) ?? []).map((v) => ({
      compiled: compileExpression(String(v['expression'] ?? ''), decls),
      ...(typeof v['message'] === 'string' ? { message: v['message'] } : {}),
      ...(typeof v['messageExpression'] === 'string' && v['messageExpression'] ? { messageExpression: compileExpression(v['messageExpression'], msgDecls, ['string']) } : {}),
      ...(typeof v['reason'] === 'string' ? { reason: v['reason'] } : {}),
    })),
    auditAnnotations: ((s['auditAnnotations'] as J[] | undefined) ?? []).map((a) => ({
      key: String(a['key'] ?? ''),
      valueExpression: String(a['valueExpression'] ?? ''),
      compiled: compileExpression(String(a['valueExpression'] ?? ''), decls, ['string', 'null_type']),
    })),
    failurePolicy: typeof s['failurePolicy'] === 'string' ? s['failurePolicy'] : 'Fail',
  };
}

interface Denial {
  readonly policy: string;
  readonly binding?: string;
  readonly message: string;
  readonly reason?: string;
}

export interface DispatchDeps {
  readonly match: MatchDeps;
  readonly namespaces: Namespaces;
  readonly authorizer: () => Authorizer;
}

const MAX_MESSAGE_BYTES = 5 * 1024;
const MAX_AUDIT_VALUE = 10 * 1024;
const VALIDATION_FAILURE_KEY = 'validation.policy.admission.k8s.io/validation_failure';

function reasonToCode(r: string): number {
  switch (r) {
    case 'Forbidden': return 403;
    case 'Unauthorized': return 401;
    case 'RequestEntityTooLarge': return 413;
    default: return 422;
  }
}

/** kube's AddAnnotation: a key already set keeps its first value. */
function addAnnotation(a: AdmissionAttributes, key: string, value: string): void {
  if (!Object.hasOwn(a.auditAnnotations, key)) a.auditAnnotations[key] = value;
}

/** The Go json encoding of a string (HTML-escaped as encoding/json does). */
function goJSON(v: unknown): string {
  return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export async function dispatchValidating(a: AdmissionAttributes, hooks: readonly PolicyHook<CompiledValidatingPolicy>[], deps: DispatchDeps): Promise<void> {
  const denied: Denial[] = [];
  const configError = (policy: KObject, binding: KObject | undefined, err: string, failurePolicy: string) => {
    if (failurePolicy === 'Ignore') return;
    const name = policy.metadata.name ?? '';
    if (failurePolicy !== 'Fail') {
      denied.push({ policy: name, binding: binding?.metadata.name, message: `unrecognized failure policy: '${failurePolicy}'` });
      return;
    }
    denied.push({ policy: name, binding: binding?.metadata.name, message: binding ? `failed to configure binding: ${err}` : `failed to configure policy: ${err}` });
  };
  // Per request, shared by every policy and binding: the converted objects, the namespace, the authorizer.
  let authz: RequestAuthorizer | undefined;
  let converted: { object: unknown; oldObject: unknown } | undefined;
  let nsObject: Record<string, unknown> | null | undefined;
  let lastMatch: { resource: unknown; kind: unknown; request: Record<string, unknown>; authorizer: Activation['authorizer'] } | undefined;
  const match = requestScopedDeps(deps.match);
  for (const hook of hooks) {
    const { policy, compiled } = hook;
    const ps = spec(policy);
    const fp = compiled.failurePolicy;
    const constraints = ps['matchConstraints'] as MatchResourcesSpec | undefined;
    let m;
    try {
      if (!constraints) throw new Error('policy contained no match constraints, a required field');
      m = matchResources(constraints, a, match);
      if (m instanceof Promise) m = await m;
    } catch (e) {
      configError(policy, undefined, (e as Error).message, fp);
      continue;
    }
    if (!m.matches) continue;
    if (hook.configError) {
      configError(policy, undefined, hook.configError, fp);
      continue;
    }
    let annotations: Map<string, string[]> | undefined;
    for (const binding of hook.bindings) {
      const bs = spec(binding);
      const bindingName = binding.metadata.name ?? '';
      try {
        const mr = bs['matchResources'] as MatchResourcesSpec | undefined;
        if (mr) {
          let bm = matchResources(mr, a, match);
          if (bm instanceof Promise) bm = await bm;
          if (!bm.matches) continue;
        }
      } catch (e) {
        configError(policy, binding, (e as Error).message, fp);
        continue;
      }
      let params: Array<KObject | null>;
      try {
        const p = collectParams(ps['paramKind'] as J | undefined, hook.params, bs['paramRef'] as J | undefined, a.namespace,
          (sel, labels) => labelSelectorMatches(sel, labels));
        params = p instanceof Promise ? await p : p;
      } catch (e) {
        configError(policy, binding, (e as Error).message, fp);
        continue;
      }
      if (nsObject === undefined) {
        const isNamespace = a.kind.group === '' && a.kind.version === 'v1' && a.kind.kind === 'Namespace';
        const nsName = isNamespace ? '' : a.namespace;
        nsObject = nsName ? namespaceObject(deps.namespaces.cached(nsName) ?? (await deps.namespaces.get(nsName))) : null;
      }
      converted ??= { object: a.object === undefined ? null : dynToCel(a.object), oldObject: a.oldObject === undefined ? null : dynToCel(a.oldObject) };
      authz ??= new RequestAuthorizer(deps.authorizer(), a);
      if (!lastMatch || lastMatch.resource !== m.resource || lastMatch.kind !== m.kind) {
        lastMatch = { resource: m.resource, kind: m.kind, request: admissionRequest(a, m.resource!, m.kind!), authorizer: authz.value(m.resource!) };
      }
      const actions = ((bs['validationActions'] as string[] | undefined) ?? []);
      for (const param of params) {
        const activation: Activation = {
          object: converted.object, oldObject: converted.oldObject, request: lastMatch.request, namespaceObject: nsObject,
          params: param === null ? null : dynToCel(param), authorizer: lastMatch.authorizer,
        };
        let result = validate(compiled, activation, fp);
        // An authorizer check whose answer is asynchronous: evaluate again once the answers are in.
        if (authz.pending.length > 0) result = await rerunAfterAnswers(authz, () => validate(compiled, activation, fp));
        for (let i = 0; i < result.decisions.length; i++) {
          const d = result.decisions[i]!;
          if (d.action !== 'deny') continue;
          for (const action of actions) {
            if (action === 'Deny') denied.push({ policy: policy.metadata.name ?? '', binding: bindingName, message: d.message, reason: d.reason });
            else if (action === 'Audit') {
              addAnnotation(a, VALIDATION_FAILURE_KEY, goJSON([{ message: d.message, policy: String(bs['policyName'] ?? ''), binding: bindingName, expressionIndex: i, validationActions: actions }]));
            } else if (action === 'Warn') {
              a.warnings.push(`Validation failed for ValidatingAdmissionPolicy '${policy.metadata.name}' with binding '${bindingName}': ${d.message}`);
            }
          }
        }
        for (const an of result.annotations) {
          if (an.error !== undefined) {
            denied.push({ policy: policy.metadata.name ?? '', binding: bindingName, message: an.error });
            continue;
          }
          annotations ??= new Map();
          const list = annotations.get(an.key) ?? [];
          const v = an.value!.length > MAX_AUDIT_VALUE ? an.value!.slice(0, MAX_AUDIT_VALUE) : an.value!;
          if (!list.includes(v)) list.push(v);
          annotations.set(an.key, list);
        }
      }
    }
    if (annotations) for (const [key, values] of annotations) addAnnotation(a, `${policy.metadata.name}/${key}`, values.join(', '));
  }
  if (denied.length === 0) return;
  const d = denied[0]!;
  const message = d.binding !== undefined
    ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`
    : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`;
  const base = admissionForbidden(a, message);
  const reason = (d.reason || 'Invalid') as StatusReason;
  throw new StatusError(reasonToCode(reason), reason, base.message, { ...base.details, causes: [...(base.details?.causes ?? []), { message }] });
}

interface Decision {
  readonly action: 'admit' | 'deny';
  readonly message: string;
  readonly reason?: string;
}

interface ValidateResult {
  readonly decisions: Decision[];
  readonly annotations: Array<{ key: string; value?: string; error?: string }>;
}

const NO_ANNOTATIONS: ValidateResult['annotations'] = [];
const ADMIT_ONE: ValidateResult = { decisions: [{ action: 'admit', message: '' }], annotations: NO_ANNOTATIONS };

/** kube's validator.Validate for one binding and param. */
function validate(p: CompiledValidatingPolicy, act: Activation, fp: string): ValidateResult {
  const onError = (message: string): Decision => ({ action: fp === 'Ignore' ? 'admit' : 'deny', message });
  if (p.matchConditions.length === 0 && p.validations.length === 1 && p.auditAnnotations.length === 0) {
    // The common shape (one validation): no intermediate arrays.
    const v = p.validations[0]!;
    const ev = new Evaluation(act, p.variables, RUNTIME_CEL_COST_BUDGET);
    let r: EvalResult;
    try {
      r = ev.run(v.compiled);
    } catch (e) {
      if (!(e instanceof OutOfBudget)) throw e;
      return { decisions: [onError(e.message)], annotations: NO_ANNOTATIONS };
    }
    if (r.error === undefined && r.value === true) return ADMIT_ONE;
  }
  if (p.matchConditions.length) {
    const ev = new Evaluation(act, p.variables, RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS);
    const errs: string[] = [];
    try {
      for (const mc of p.matchConditions) {
        const r = ev.run(mc.compiled);
        if (r.error !== undefined) errs.push(r.error);
        else if (r.value === false) return { decisions: [], annotations: [] };
      }
    } catch (e) {
      if (!(e instanceof OutOfBudget)) throw e;
      if (fp === 'Ignore') return { decisions: [], annotations: [] };
      return { decisions: [onError(e.message)], annotations: [] };
    }
    if (errs.length) {
      if (fp === 'Ignore') return { decisions: [], annotations: [] };
      return { decisions: [onError(errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`)], annotations: [] };
    }
  }
  const ev = new Evaluation(act, p.variables, RUNTIME_CEL_COST_BUDGET);
  const results: Array<{ value?: unknown; error?: string }> = [];
  try {
    for (const v of p.validations) results.push(ev.run(v.compiled));
  } catch (e) {
    if (!(e instanceof OutOfBudget)) throw e;
    return { decisions: [onError(e.message)], annotations: [] };
  }
  // Message expressions run after all validations, with what is left of the budget and without `authorizer`.
  const decisions: Decision[] = [];
  let budgetError: string | undefined;
  p.validations.forEach((v, i) => {
    const r = results[i]!;
    if (r.error !== undefined) return void decisions.push(onError(r.error));
    if (r.value === true) return void decisions.push({ action: 'admit', message: '' });
    let message = '';
    if (v.messageExpression && r.value !== true && budgetError === undefined) {
      try {
        const mr = ev.run(v.messageExpression, { withAuthorizer: false });
        if (mr.error === undefined && typeof mr.value === 'string') {
          message = mr.value.trim();
          if (Buffer.byteLength(message) > MAX_MESSAGE_BYTES || message.includes('\n')) message = '';
        }
      } catch (e) {
        if (!(e instanceof OutOfBudget)) throw e;
        budgetError = `failed messageExpression: ${e.message}`;
      }
    }
    if (budgetError !== undefined) return void decisions.push(onError(budgetError));
    if (!message && v.message) message = v.message.trim();
    if (!message) message = `failed expression: ${v.compiled.expression.trim()}`;
    decisions.push({ action: 'deny', message, reason: v.reason || 'Invalid' });
  });
  const annotations: ValidateResult['annotations'] = [];
  if (p.auditAnnotations.length === 0) return { decisions, annotations };
  const aev = new Evaluation(act, p.variables, RUNTIME_CEL_COST_BUDGET);
  try {
    for (const an of p.auditAnnotations) {
      const r = aev.run(an.compiled);
      if (r.error !== undefined) {
        if (fp !== 'Ignore') annotations.push({ key: an.key, error: r.error });
        continue;
      }
      if (r.value === null || r.value === undefined) continue;
      if (typeof r.value !== 'string') {
        annotations.push({ key: an.key, error: `valueExpression '${an.valueExpression}' resulted in unsupported return type: ${typeof r.value}. Return type must be either string or null.` });
        continue;
      }
      const value = r.value.trim();
      if (value) annotations.push({ key: an.key, value });
    }
  } catch (e) {
    if (!(e instanceof OutOfBudget)) throw e;
    return { decisions: [onError(e.message)], annotations: [] };
  }
  return { decisions, annotations };
}
