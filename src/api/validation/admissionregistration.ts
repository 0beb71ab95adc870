/**
 * admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration and MutatingWebhookConfiguration
 * (pkg/apis/admissionregistration/validation/validation.go: validateValidatingWebhookConfiguration,
 * validateMutatingWebhookConfiguration, validate*Webhook, validateAdmissionReviewVersions,
 * validateRuleWithOperations, validateRule, validateResources, validateMatchConditions; and
 * k8s.io/apiserver/pkg/util/webhook: ValidateWebhookURL, ValidateWebhookService).
 * Create rules are v1's: sideEffects must be None or NoneOnDryRun and an admissionReviewVersion must be known.
 * On update kube relaxes those two for webhooks that already broke them (kept from older API versions).
 * Match condition expressions are compiled with src/cel (profile 'admission'); kube's `authorizer` library is
 * not in our environment, so expressions using it are only checked for being non-empty.
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { compileCel } from '../../cel/index.ts';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName, isValidPortNum } from '../../machinery/validation/names.ts';
import { validateFQDN } from './discovery.ts';
import { goInvalid, goStrings } from './go-render.ts';
import { type J, arr, isSet, obj, semanticEqual, str, validateLabelSelector } from './util.ts';

const REVIEW_VERSIONS = ['v1', 'v1beta1'];
const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const ALL_SIDE_EFFECTS = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const REINVOCATION = ['IfNeeded', 'Never'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const URL_FORM = '; desired format: https://host[/path]';

interface Options {
  readonly noSideEffects: boolean;
  readonly knownReviewVersion: boolean;
  readonly uniqueNames: boolean;
  readonly ignoreMatchConditions: boolean;
}

function validateResources(resources: string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(field.required(path));
  const wildSub = new Set<string>();
  const wildRes = new Set<string>();
  let doubleWild = false;
  let singleWild = false;
  let plain = false;
  resources.forEach((rs, i) => {
    if (!rs) return void errs.push(field.required(`${path}[${i}]`));
    if (rs === '*/*') doubleWild = true;
    if (rs === '*') singleWild = true;
    const slash = rs.indexOf('/');
    if (slash < 0) { plain = rs !== '*'; return; }
    const res = rs.slice(0, slash);
    const sub = rs.slice(slash + 1);
    if (wildSub.has(res)) errs.push(field.invalid(`${path}[${i}]`, rs, `if '${res}/*' is present, must not specify ${rs}`));
    if (wildRes.has(sub)) errs.push(field.invalid(`${path}[${i}]`, rs, `if '*/${sub}' is present, must not specify ${rs}`));
    if (sub === '*') wildSub.add(res);
    if (res === '*') wildRes.add(sub);
  });
  if (resources.length > 1 && doubleWild) errs.push(goInvalid(path, goStrings(resources), "if '*/*' is present, must not specify other resources"));
  if (singleWild && plain) errs.push(goInvalid(path, goStrings(resources), "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

/** validateRuleWithOperations + validateRule (sub-resources allowed). */
export function validateRuleWithOperations(rule: J, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = arr(rule['operations']).map(str);
  if (ops.length === 0) errs.push(field.required(`${path}.operations`));
  if (ops.length > 1 && ops.includes('*')) errs.push(goInvalid(`${path}.operations`, goStrings(ops, '[]admissionregistration.OperationType'), "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => { if (!OPERATIONS.includes(op)) errs.push(field.notSupported(`${path}.operations[${i}]`, op, OPERATIONS)); });
  const groups = arr(rule['apiGroups']).map(str);
  if (groups.length === 0) errs.push(field.required(`${path}.apiGroups`));
  if (groups.length > 1 && groups.includes('*')) errs.push(goInvalid(`${path}.apiGroups`, goStrings(groups), "if '*' is present, must not specify other API groups"));
  const versions = arr(rule['apiVersions']).map(str);
  if (versions.length === 0) errs.push(field.required(`${path}.apiVersions`));
  if (versions.length > 1 && versions.includes('*')) errs.push(goInvalid(`${path}.apiVersions`, goStrings(versions), "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => { if (!v) errs.push(field.required(`${path}.apiVersions[${i}]`)); });
  errs.push(...validateResources(arr(rule['resources']).map(str), `${path}.resources`));
  const scope = rule['scope'];
  if (isSet(scope) && !SCOPES.includes(str(scope))) errs.push(field.notSupported(`${path}.scope`, scope, SCOPES));
  return errs;
}

/** webhook.ValidateWebhookURL with forceHttps. */
export function validateWebhookURL(raw: string, path: string): FieldError[] {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    // Go's url.Parse accepts most strings that WHATWG URLs refuse (relative ones, `https://` with no host):
    // they parse with whatever scheme they carry and no host.
    const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(raw)?.[1]?.toLowerCase() ?? '';
    const errs = scheme === 'https' ? [] : [field.invalid(path, scheme, `'https' is the only allowed URL scheme${URL_FORM}`)];
    return [...errs, field.invalid(path, '', `host must be specified${URL_FORM}`)];
  }
  const errs: FieldError[] = [];
  const scheme = u.protocol.replace(/:$/, '');
  if (scheme !== 'https') errs.push(field.invalid(path, scheme, `'https' is the only allowed URL scheme${URL_FORM}`));
  if (!u.host) errs.push(field.invalid(path, u.host, `host must be specified${URL_FORM}`));
  if (u.username || u.password) errs.push(field.invalid(path, u.password ? `${u.username}:${u.password}` : u.username, 'user information is not permitted in the URL'));
  if (u.hash.length > 1) errs.push(field.invalid(path, u.hash.slice(1), 'fragments are not permitted in the URL'));
  if (u.search.length > 1) errs.push(field.invalid(path, u.search.slice(1), 'query parameters are not permitted in the URL'));
  return errs;
}

/** webhook.ValidateWebhookService */
export function validateWebhookService(svc: J, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(svc['name'])) errs.push(field.required(`${path}.name`, 'service name is required'));
  if (!str(svc['namespace'])) errs.push(field.required(`${path}.namespace`, 'service namespace is required'));
  const port = typeof svc['port'] === 'number' ? svc['port'] : 443;
  const pm = isValidPortNum(port);
  if (pm.length) errs.push(field.invalid(`${path}.port`, port, `port is not valid: ${pm.join(', ')}`));
  if (!isSet(svc['path'])) return errs;
  const p = str(svc['path']);
  if (p === '/' || p === '') return errs;
  if (p === '//') return [...errs, field.invalid(`${path}.path`, p, 'segment[0] may not be empty')];
  if (!p.startsWith('/')) errs.push(field.invalid(`${path}.path`, p, "must start with a '/'"));
  let check = p.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (!step) return void errs.push(field.invalid(`${path}.path`, p, `segment[${i}] may not be empty`));
    for (const m of isDNS1123Subdomain(step)) errs.push(field.invalid(`${path}.path`, p, `segment[${i}]: ${m}`));
  });
  return errs;
}

const MATCH_VARIABLES = { object: 'dyn', oldObject: 'dyn', request: 'dyn', params: 'dyn', namespaceObject: 'dyn' } as const;

/** The CEL check of one match condition expression (kube: compile, then the result must be a bool). */
function validateExpression(expr: string, path: string): FieldError[] {
  if (/\bauthorizer\b/.test(expr)) return [];
  try {
    const prog = compileCel(expr, { profile: 'admission', variables: MATCH_VARIABLES });
    if (prog.resultType !== 'bool' && prog.resultType !== 'dyn' && prog.resultType !== 'any') return [field.invalid(path, expr, 'must evaluate to bool')];
    return [];
  } catch (e) {
    return [field.invalid(path, expr, e instanceof Error ? e.message : String(e))];
  }
}

export function validateMatchConditions(conditions: unknown, path: string): FieldError[] {
  const list = arr(conditions);
  const errs: FieldError[] = [];
  // kube reports the count (Go prints the int) and checks nothing else of an over-long list.
  if (list.length > 64) return [new FieldError('FieldValueTooMany', path, `${list.length}: must have at most 64 items`)];
  const names = new Set<string>();
  list.forEach((raw, i) => {
    const c = obj(raw);
    const p = `${path}[${i}]`;
    const expr = str(c['expression']).trim();
    if (!expr) errs.push(field.required(`${p}.expression`));
    else errs.push(...validateExpression(expr, `${p}.expression`));
    const name = str(c['name']);
    if (!name) errs.push(field.required(`${p}.name`));
    else for (const m of isQualifiedName(name)) errs.push(field.invalid(`${p}.name`, name, m));
    if (name) {
      if (names.has(name)) errs.push(field.duplicate(`${p}.name`, name));
      else names.add(name);
    }
  });
  return errs;
}

function validateReviewVersions(versions: string[], opts: Options, path: string): FieldError[] {
  if (versions.length < 1) return [field.required(path, `must specify one of ${REVIEW_VERSIONS.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let known = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) return void errs.push(field.invalid(`${path}[${i}]`, v, 'duplicate version'));
    seen.add(v);
    for (const m of isDNS1035Label(v)) errs.push(field.invalid(`${path}[${i}]`, v, m));
    if (REVIEW_VERSIONS.includes(v)) known = true;
  });
  if (opts.knownReviewVersion && !known) errs.push(goInvalid(path, goStrings(versions), `must include at least one of ${REVIEW_VERSIONS.join(', ')}`));
  return errs;
}

function validateWebhook(hook: J, mutating: boolean, opts: Options, path: string): FieldError[] {
  const errs = validateFQDN(str(hook['name']), `${path}.name`, 3);
  arr(hook['rules']).forEach((r, i) => errs.push(...validateRuleWithOperations(obj(r), `${path}.rules[${i}]`)));
  const fp = hook['failurePolicy'];
  if (isSet(fp) && !FAILURE_POLICIES.includes(str(fp))) errs.push(field.notSupported(`${path}.failurePolicy`, fp, FAILURE_POLICIES));
  const mp = hook['matchPolicy'];
  if (isSet(mp) && !MATCH_POLICIES.includes(str(mp))) errs.push(field.notSupported(`${path}.matchPolicy`, mp, MATCH_POLICIES));
  const allowed = opts.noSideEffects ? NO_SIDE_EFFECTS : ALL_SIDE_EFFECTS;
  const se = hook['sideEffects'];
  if (!isSet(se)) errs.push(field.required(`${path}.sideEffects`, `must specify one of ${allowed.join(', ')}`));
  else if (!allowed.includes(str(se))) errs.push(field.notSupported(`${path}.sideEffects`, se, allowed));
  const t = hook['timeoutSeconds'];
  if (typeof t === 'number' && (t > 30 || t < 1)) errs.push(field.invalid(`${path}.timeoutSeconds`, t, 'the timeout value must be between 1 and 30 seconds'));
  if (isSet(hook['namespaceSelector'])) errs.push(...validateLabelSelector(hook['namespaceSelector'], `${path}.namespaceSelector`));
  if (isSet(hook['objectSelector'])) errs.push(...validateLabelSelector(hook['objectSelector'], `${path}.objectSelector`));
  if (mutating) {
    const rp = hook['reinvocationPolicy'];
    if (isSet(rp) && !REINVOCATION.includes(str(rp))) errs.push(field.notSupported(`${path}.reinvocationPolicy`, rp, REINVOCATION));
  }
  const cc = obj(hook['clientConfig']);
  const hasUrl = isSet(cc['url']);
  if (hasUrl === isSet(cc['service'])) errs.push(field.required(`${path}.clientConfig`, 'exactly one of url or service is required'));
  else if (hasUrl) errs.push(...validateWebhookURL(str(cc['url']), `${path}.clientConfig.url`));
  else errs.push(...validateWebhookService(obj(cc['service']), `${path}.clientConfig.service`));
  if (!opts.ignoreMatchConditions) errs.push(...validateMatchConditions(hook['matchConditions'], `${path}.matchConditions`));
  return errs;
}

function validateConfiguration(cfg: J, mutating: boolean, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  arr(cfg['webhooks']).forEach((raw, i) => {
    const hook = obj(raw);
    const p = `webhooks[${i}]`;
    errs.push(...validateWebhook(hook, mutating, opts, p));
    errs.push(...validateReviewVersions(arr(hook['admissionReviewVersions']).map(str), opts, `${p}.admissionReviewVersions`));
    const name = str(hook['name']);
    if (opts.uniqueNames && name) {
      if (names.has(name)) errs.push(field.duplicate(`${p}.name`, name));
      else names.add(name);
    }
  });
  return errs;
}

const CREATE: Options = { noSideEffects: true, knownReviewVersion: true, uniqueNames: true, ignoreMatchConditions: false };

/**
 * Update options: a rule the stored webhooks already broke is not enforced again (kube's ratcheting), and
 * match conditions are not re-checked when no webhook's conditions changed.
 */
function updateOptions(cfg: J, old: J): Options {
  const hooks = arr(old['webhooks']).map(obj);
  const now = arr(cfg['webhooks']).map(obj);
  const names = hooks.map((h) => str(h['name']));
  return {
    noSideEffects: hooks.every((h) => NO_SIDE_EFFECTS.includes(str(h['sideEffects']))),
    knownReviewVersion: hooks.every((h) => {
      const v = arr(h['admissionReviewVersions']);
      return v.length === 0 || v.some((x) => REVIEW_VERSIONS.includes(str(x)));
    }),
    uniqueNames: new Set(names).size === names.length,
    ignoreMatchConditions: now.length === hooks.length && now.every((h, i) => semanticEqual(h['matchConditions'], hooks[i]!['matchConditions'])),
  };
}

export const validateValidatingWebhookConfiguration = (c: J): FieldError[] => validateConfiguration(c, false, CREATE);
export const validateValidatingWebhookConfigurationUpdate = (c: J, old: J): FieldError[] => validateConfiguration(c, false, updateOptions(c, old));
export const validateMutatingWebhookConfiguration = (c: J): FieldError[] => validateConfiguration(c, true, CREATE);
export const validateMutatingWebhookConfigurationUpdate = (c: J, old: J): FieldError[] => validateConfiguration(c, true, updateOptions(c, old));
