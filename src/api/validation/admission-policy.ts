/**
 * admissionregistration.k8s.io ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding (kube's
 * pkg/apis/admissionregistration/validation: validateValidatingAdmissionPolicySpec, validateParamKind,
 * validateMatchResources, validateValidation, validateAuditAnnotation, validateVariable,
 * validateValidatingAdmissionPolicyBindingSpec, validateParamRef, validateValidationActions, status), and the
 * MutatingAdmissionPolicy pair of v1alpha1. Expressions are compiled in the admission policy environment
 * (src/admission is above this layer, so the declarations are repeated here in the same shape): a bad expression is
 * `Invalid value: "<expr>": compilation failed: ERROR: …`, a wrong result type `must evaluate to bool but got …`.
 *
 * Left to defaulting (kube's Required errors after defaults can never be seen): failurePolicy, matchPolicy and
 * the selectors are only checked for allowed values when present.
 */
import { compileCel, CelCompileError, type CelType } from '../../cel/index.ts';
import { rewriteObjectLiterals } from '../../cel/object-literals.ts';
import { FieldError, field } from '../../machinery/errors.ts';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName } from '../../machinery/validation/names.ts';
import { validateRuleWithOperations } from './admissionregistration.ts';
import { goInvalid, goStrings } from './go-render.ts';
import { type J, arr, isSet, obj, str, validateLabelSelector } from './util.ts';

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge', 'Unauthorized'];
const ACTIONS = ['Audit', 'Deny', 'Warn'];
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_VALUE_EXPRESSION = 5 * 1024;
const CEL_RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let',
  'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

const s = 'string' as const;
const gvk: CelType = { object: 'kubernetes.GroupVersionKind', fields: { group: s, version: s, kind: s } };
const gvr: CelType = { object: 'kubernetes.GroupVersionResource', fields: { group: s, version: s, resource: s } };
/** The same declarations as src/admission/policy/cel.ts (kube's AdmissionRequest and Namespace types). */
const BASE: Record<string, CelType> = {
  object: 'dyn', oldObject: 'dyn',
  request: { object: 'kubernetes.AdmissionRequest', fields: {
    kind: gvk, resource: gvr, subResource: s, requestKind: gvk, requestResource: gvr, requestSubResource: s, name: s, namespace: s, operation: s,
    userInfo: { object: 'kubernetes.UserInfo', fields: { username: s, uid: s, groups: { list: s }, extra: { map: { list: s } } } }, dryRun: 'bool', options: 'dyn',
  } },
  namespaceObject: { object: 'kubernetes.Namespace', fields: {
    metadata: { object: 'kubernetes.NamespaceMetadata', fields: {
      name: s, generateName: s, namespace: s, labels: { map: s }, annotations: { map: s }, UID: s, creationTimestamp: 'timestamp',
      deletionGracePeriodSeconds: 'int', deletionTimestamp: 'timestamp', generation: 'int', resourceVersion: s, finalizers: { list: s },
    }, jsonNames: { UID: 'uid' } },
    spec: { object: 'kubernetes.NamespaceSpec', fields: { finalizers: { list: s } } },
    status: { object: 'kubernetes.NamespaceStatus', fields: {
      conditions: { list: { object: 'kubernetes.NamespaceCondition', fields: { status: s, type: s, lastTransitionTime: 'timestamp', message: s, reason: s } } }, phase: s,
    } },
  } },
};

interface Env {
  hasParams: boolean;
  /** The composited variables so far; undefined where kube compiles without them (matchConditions). */
  variables: Record<string, CelType> | undefined;
}

function decls(env: Env, authorizer: boolean): Record<string, CelType> {
  const d: Record<string, CelType> = { ...BASE };
  if (env.hasParams) d['params'] = 'dyn';
  if (authorizer) d['authorizer'] = { opaque: 'kubernetes.authorization.Authorizer' };
  if (env.variables) d['variables'] = { object: 'kubernetes.variables', fields: { ...env.variables } };
  return d;
}

/** Compile; returns the error detail kube reports, or the result type. */
function compile(expression: string, env: Env, authorizer: boolean, returnTypes: readonly string[]): { error?: string; type?: string } {
  try {
    const t = compileCel(expression, { profile: 'admission', variables: decls(env, authorizer) }).resultType;
    if (returnTypes.includes('any') || returnTypes.includes(t)) return { type: t };
    if (returnTypes.length === 1) return { error: `must evaluate to ${returnTypes[0]} but got ${t}` };
    return { error: `must evaluate to one of [${returnTypes.join(' ')}] but got ${t}` };
  } catch (e) {
    if (e instanceof CelCompileError) return { error: e.message };
    return { error: `compilation failed: ${(e as Error).message}` };
  }
}

function plainType(t: string | undefined): CelType {
  if (t && ['bool', 'int', 'uint', 'double', 'string', 'bytes'].includes(t)) return t as CelType;
  const m = t && /^list\((bool|int|uint|double|string)\)$/.exec(t);
  return m ? { list: m[1] as CelType } : 'dyn';
}

function validateParamKind(pk: J, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = str(pk['apiVersion']);
  if (!apiVersion) errs.push(field.required(`${path}.apiVersion`));
  else if (apiVersion !== '/') {
    const parts = apiVersion.split('/');
    if (parts.length > 2) errs.push(field.invalid(`${path}.apiVersion`, apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
    else {
      const [group, version] = parts.length === 2 ? [parts[0]!, parts[1]!] : ['', parts[0]!];
      if (group) {
        const m = isDNS1123Subdomain(group);
        if (m.length) errs.push(field.invalid(`${path}.apiVersion`, group, m.join(',')));
      }
      if (!version) errs.push(field.invalid(`${path}.apiVersion`, apiVersion, 'version must be specified'));
      else {
        const m = isDNS1035Label(version);
        if (m.length) errs.push(field.invalid(`${path}.apiVersion`, version, m.join(',')));
      }
    }
  }
  const kind = str(pk['kind']);
  if (!kind) errs.push(field.required(`${path}.kind`));
  else {
    const m = isDNS1035Label(kind.toLowerCase());
    if (m.length) errs.push(field.invalid(`${path}.kind`, kind, `may have mixed case, but should otherwise match: ${m.join(',')}`));
  }
  return errs;
}

function pathSegmentErrors(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  const out: string[] = [];
  if (name.includes('/')) out.push("may not contain '/'");
  if (name.includes('%')) out.push("may not contain '%'");
  return out;
}

function validateNamedRules(rules: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  arr(rules).forEach((raw, i) => {
    const r = obj(raw);
    const p = `${path}[${i}]`;
    const seen = new Set<string>();
    arr(r['resourceNames']).map(str).forEach((n, j) => {
      for (const m of pathSegmentErrors(n)) errs.push(field.invalid(`${p}.resourceNames[${j}]`, n, m));
      if (seen.has(n)) errs.push(field.duplicate(`${p}.resourceNames[${j}]`, n));
      seen.add(n);
    });
    errs.push(...validateRuleWithOperations(r, p));
  });
  return errs;
}

export function validateMatchResources(mr: unknown, path: string): FieldError[] {
  if (!isSet(mr)) return [];
  const m = obj(mr);
  const errs: FieldError[] = [];
  const mp = m['matchPolicy'];
  if (isSet(mp) && !MATCH_POLICIES.includes(str(mp))) errs.push(field.notSupported(`${path}.matchPolicy`, mp, MATCH_POLICIES));
  if (isSet(m['namespaceSelector'])) errs.push(...validateLabelSelector(m['namespaceSelector'], `${path}.namespaceSelector`));
  if (isSet(m['objectSelector'])) errs.push(...validateLabelSelector(m['objectSelector'], `${path}.objectSelector`));
  errs.push(...validateNamedRules(m['resourceRules'], `${path}.resourceRules`));
  errs.push(...validateNamedRules(m['excludeResourceRules'], `${path}.excludeResourceRules`));
  return errs;
}

/** Variables in order: each compiled against the ones before it (kube's composited compiler). */
function validateVariables(vars: unknown, env: Env, path: string, mutating: boolean): FieldError[] {
  const errs: FieldError[] = [];
  arr(vars).forEach((raw, i) => {
    const v = obj(raw);
    const p = `${path}[${i}]`;
    const name = str(v['name']);
    if (!name.trim()) errs.push(field.required(`${p}.name`, 'name is not specified'));
    else if (!/^[_a-zA-Z][_a-zA-Z0-9]*$/.test(name) || CEL_RESERVED.has(name)) errs.push(field.invalid(`${p}.name`, name, 'name is not a valid CEL identifier'));
    const expr = str(v['expression']);
    if (!expr.trim()) {
      errs.push(field.required(`${p}.expression`, 'expression is not specified'));
      return;
    }
    const r = compile(mutating ? rewriteObjectLiterals(expr) : expr, env, true, ['any']);
    if (r.error !== undefined) errs.push(field.invalid(`${p}.expression`, expr, r.error));
    if (name) env.variables![name] = plainType(r.type);
  });
  return errs;
}

/**
 * A policy's matchConditions (kube's validateMatchConditions with the stateless compiler): at most 64, unique
 * qualified names, expressions that compile to bool with `params` (when the policy has a paramKind) and
 * `authorizer`, but no composited variables.
 */
function validatePolicyMatchConditions(conditions: unknown, hasParams: boolean, path: string): FieldError[] {
  const list = arr(conditions);
  const errs: FieldError[] = [];
  if (list.length > 64) errs.push(new FieldError('FieldValueTooMany', path, 'must have at most 64 items', list.length, false));
  const names = new Set<string>();
  list.forEach((raw, i) => {
    const c = obj(raw);
    const p = `${path}[${i}]`;
    const expr = str(c['expression']).trim();
    if (!expr) errs.push(field.required(`${p}.expression`));
    else {
      const r = compile(expr, { hasParams, variables: undefined }, true, ['bool']);
      if (r.error !== undefined) errs.push(field.invalid(`${p}.expression`, expr, r.error));
    }
    const name = str(c['name']);
    if (!name) errs.push(field.required(`${p}.name`));
    else {
      for (const m of isQualifiedName(name)) errs.push(field.invalid(`${p}.name`, name, m));
      if (names.has(name)) errs.push(field.duplicate(`${p}.name`, name));
      names.add(name);
    }
  });
  return errs;
}

function validateSpecCommon(spec: J, path: string, mutating = false): { errs: FieldError[]; env: Env } {
  const errs: FieldError[] = [];
  const fp = spec['failurePolicy'];
  if (isSet(fp) && !FAILURE_POLICIES.includes(str(fp))) errs.push(field.notSupported(`${path}.failurePolicy`, fp, FAILURE_POLICIES));
  const hasParams = isSet(spec['paramKind']);
  if (hasParams) errs.push(...validateParamKind(obj(spec['paramKind']), `${path}.paramKind`));
  if (!isSet(spec['matchConstraints'])) errs.push(field.required(`${path}.matchConstraints`));
  else {
    errs.push(...validateMatchResources(spec['matchConstraints'], `${path}.matchConstraints`));
    if (arr(obj(spec['matchConstraints'])['resourceRules']).length === 0) errs.push(field.required(`${path}.matchConstraints.resourceRules`));
  }
  errs.push(...validatePolicyMatchConditions(spec['matchConditions'], hasParams, `${path}.matchConditions`));
  const env: Env = { hasParams, variables: {} };
  errs.push(...validateVariables(spec['variables'], env, `${path}.variables`, mutating));
  return { errs, env };
}

export function validateValidatingAdmissionPolicy(p: J): FieldError[] {
  const spec = obj(p['spec']);
  const { errs, env } = validateSpecCommon(spec, 'spec');
  const validations = arr(spec['validations']);
  const annotations = arr(spec['auditAnnotations']);
  if (validations.length === 0 && annotations.length === 0) {
    errs.push(field.required('spec.validations', 'validations or auditAnnotations must contain at least one item'));
    errs.push(field.required('spec.auditAnnotations', 'validations or auditAnnotations must contain at least one item'));
    return errs;
  }
  validations.forEach((raw, i) => {
    const v = obj(raw);
    const p0 = `spec.validations[${i}]`;
    const expr = str(v['expression']);
    if (!expr.trim()) errs.push(field.required(`${p0}.expression`, 'expression is not specified'));
    else {
      const r = compile(expr, env, true, ['bool']);
      if (r.error !== undefined) errs.push(field.invalid(`${p0}.expression`, expr, r.error));
    }
    const me = str(v['messageExpression']);
    if (me && !me.trim()) errs.push(field.invalid(`${p0}.messageExpression`, me, 'must be non-empty if specified'));
    else if (me.trim()) {
      const r = compile(me, env, false, ['string']);
      if (r.error !== undefined) errs.push(field.invalid(`${p0}.messageExpression`, me, r.error));
    }
    const msg = str(v['message']);
    if (msg && !msg.trim()) errs.push(field.invalid(`${p0}.message`, msg, 'message must be non-empty if specified'));
    else if (/[\n\r]/.test(msg.trim())) errs.push(field.invalid(`${p0}.message`, msg, 'message must not contain line breaks'));
    const reason = v['reason'];
    if (isSet(reason) && !REASONS.includes(str(reason))) errs.push(field.notSupported(`${p0}.reason`, reason, REASONS));
  });
  if (annotations.length > MAX_AUDIT_ANNOTATIONS) {
    errs.push(field.invalid('spec.auditAnnotations', annotations, `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`));
  }
  const keys = new Set<string>();
  const name = str(obj(p['metadata'])['name']);
  annotations.forEach((raw, i) => {
    const a = obj(raw);
    const p0 = `spec.auditAnnotations[${i}]`;
    const key = str(a['key']);
    if (name) for (const m of isQualifiedName(`${name}/${key}`)) errs.push(field.invalid(`${p0}.key`, `${name}/${key}`, m));
    else errs.push(field.invalid(`${p0}.key`, key, 'requires metadata.name be non-empty'));
    const ve = str(a['valueExpression']).trim();
    if (!ve) errs.push(field.required(`${p0}.valueExpression`, 'valueExpression is not specified'));
    else if (ve.length > MAX_VALUE_EXPRESSION) errs.push(field.required(`${p0}.valueExpression`, `must not exceed ${MAX_VALUE_EXPRESSION} bytes in length`));
    else {
      const r = compile(ve, env, true, ['string', 'null_type']);
      if (r.error !== undefined) errs.push(field.invalid(`${p0}.valueExpression`, str(a['valueExpression']), r.error.replace('one of [string null_type]', 'one of [string null]')));
    }
    if (keys.has(key)) errs.push(field.duplicate(`${p0}.key`, key));
    keys.add(key);
  });
  return errs;
}

function validateParamRef(pr: unknown, path: string): FieldError[] {
  if (!isSet(pr)) return [];
  const r = obj(pr);
  const errs: FieldError[] = [];
  const name = str(r['name']);
  const hasSel = isSet(r['selector']);
  if (name) {
    for (const m of pathSegmentErrors(name)) errs.push(field.invalid(`${path}.name`, name, m));
    if (hasSel) errs.push(field.forbidden(`${path}.name`, 'name and selector are mutually exclusive'));
  }
  if (hasSel) {
    errs.push(...validateLabelSelector(r['selector'], `${path}.selector`));
    if (name) errs.push(field.forbidden(`${path}.selector`, 'name and selector are mutually exclusive'));
  }
  if (!name && !hasSel) errs.push(field.required(path, 'one of name or selector must be specified'));
  const a = str(r['parameterNotFoundAction']);
  if (!a) errs.push(field.required(`${path}.parameterNotFoundAction`));
  else if (a !== 'Deny' && a !== 'Allow') errs.push(field.notSupported(`${path}.parameterNotFoundAction`, a, ['Deny', 'Allow']));
  return errs;
}

function validateBindingCommon(spec: J): FieldError[] {
  const errs: FieldError[] = [];
  const policy = str(spec['policyName']);
  if (!policy) errs.push(field.required('spec.policyName'));
  else for (const m of isDNS1123Subdomain(policy)) errs.push(field.invalid('spec.policyName', policy, m));
  errs.push(...validateParamRef(spec['paramRef'], 'spec.paramRef'));
  // kube reports binding matchResources errors under this misspelt path (validateValidatingAdmissionPolicyBindingSpec).
  errs.push(...validateMatchResources(spec['matchResources'], 'spec.matchResouces'));
  return errs;
}

export function validateValidatingAdmissionPolicyBinding(b: J): FieldError[] {
  const spec = obj(b['spec']);
  const errs = validateBindingCommon(spec);
  const actions = arr(spec['validationActions']).map(str);
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    if (!ACTIONS.includes(a)) errs.push(field.notSupported(`spec.validationActions[${i}]`, a, ACTIONS));
    if (seen.has(a)) errs.push(field.duplicate(`spec.validationActions[${i}]`, a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(goInvalid('spec.validationActions', goStrings(actions, '[]admissionregistration.ValidationAction'), 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  if (seen.size === 0) errs.push(field.required('spec.validationActions', 'at least one validation action is required'));
  return errs;
}

/** Status writes: expression warnings need a warning and a field reference. */
export function validateValidatingAdmissionPolicyStatus(p: J): FieldError[] {
  const errs: FieldError[] = [];
  arr(obj(obj(p['status'])['typeChecking'])['expressionWarnings']).forEach((raw, i) => {
    const w = obj(raw);
    if (!str(w['warning'])) errs.push(field.required(`status.typeChecking.expressionWarnings[${i}].warning`));
    if (!str(w['fieldRef']).trim()) errs.push(field.required(`status.typeChecking.expressionWarnings[${i}].fieldRef`));
  });
  return errs;
}

// MutatingAdmissionPolicy (v1alpha1) ------------------------------------------------------------------------

const PATCH_TYPES = ['ApplyConfiguration', 'JSONPatch'];
const REINVOCATION = ['IfNeeded', 'Never'];

export function validateMutatingAdmissionPolicy(p: J): FieldError[] {
  const spec = obj(p['spec']);
  const { errs, env } = validateSpecCommon(spec, 'spec', true);
  const rp = spec['reinvocationPolicy'];
  if (isSet(rp) && rp !== '' && !REINVOCATION.includes(str(rp))) errs.push(field.notSupported('spec.reinvocationPolicy', rp, REINVOCATION));
  const mutations = arr(spec['mutations']);
  if (mutations.length === 0) errs.push(field.required('spec.mutations', 'mutations must contain at least one item'));
  mutations.forEach((raw, i) => {
    const m = obj(raw);
    const p0 = `spec.mutations[${i}]`;
    const t = str(m['patchType']);
    if (!t) errs.push(field.required(`${p0}.patchType`, ''));
    else if (!PATCH_TYPES.includes(t)) errs.push(field.notSupported(`${p0}.patchType`, t, PATCH_TYPES));
    if (t === 'ApplyConfiguration') {
      const expr = str(obj(m['applyConfiguration'])['expression']);
      if (!expr.trim()) errs.push(field.required(`${p0}.applyConfiguration.expression`, 'expression is not specified'));
      else errs.push(...mutationCompileErrors(expr, env, `${p0}.applyConfiguration.expression`));
      if (isSet(m['jsonPatch'])) errs.push(field.invalid(`${p0}.jsonPatch`, m['jsonPatch'], 'must not be specified when patchType is ApplyConfiguration'));
    }
    if (t === 'JSONPatch') {
      const expr = str(obj(m['jsonPatch'])['expression']);
      if (!expr.trim()) errs.push(field.required(`${p0}.jsonPatch.expression`, 'expression is not specified'));
      else errs.push(...mutationCompileErrors(expr, env, `${p0}.jsonPatch.expression`));
      if (isSet(m['applyConfiguration'])) errs.push(field.invalid(`${p0}.applyConfiguration`, m['applyConfiguration'], 'must not be specified when patchType is JSONPatch'));
    }
  });
  return errs;
}

/** A mutation expression compiled as the plugin will (object literals rewritten): kube's compilation error text. */
function mutationCompileErrors(expr: string, env: Env, path: string): FieldError[] {
  const r = compile(rewriteObjectLiterals(expr), env, true, ['any']);
  return r.error === undefined ? [] : [field.invalid(path, expr, r.error)];
}

export function validateMutatingAdmissionPolicyBinding(b: J): FieldError[] {
  return validateBindingCommon(obj(b['spec']));
}
