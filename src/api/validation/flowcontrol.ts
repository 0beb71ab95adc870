/**
 * flowcontrol.apiserver.k8s.io/v1 FlowSchema and PriorityLevelConfiguration
 * (pkg/apis/flowcontrol/validation/validation.go: ValidateFlowSchemaSpec, ValidateFlowSchemaPolicyRulesWithSubjects,
 * ValidateFlowSchemaSubject, the resource/non-resource rule checks, ValidateNonResourceURLPath,
 * ValidatePriorityLevelConfigurationSpec, ValidateLimitedPriorityLevelConfiguration, ValidateLimitResponse,
 * ValidatePriorityLevelQueuingConfiguration, the status condition checks).
 * Unset fields kube's v1 defaulting fills (matchingPrecedence 1000, nominalConcurrencyShares 30, queuing 64/8/50)
 * are read as those defaults. Not done: the "must equal the fixed value" rule for the mandatory objects.
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { isDNS1123Label, isDNS1123Subdomain } from '../../machinery/validation/names.ts';
import { goInvalid, goNotSupported, goQuote, goStrings } from './go-render.ts';
import { type J, arr, isSet, obj, str } from './util.ts';

const MAX_PRECEDENCE = 10000;
const MAX_QUEUES = 10_000_000;
const MAX_HASH_BITS = 60;
const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];
const NS_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";
const num = (v: unknown, dflt: number): number => (typeof v === 'number' ? v : dflt);

function validateVerbs(verbs: string[], path: string): FieldError[] {
  if (verbs.length === 0) return [field.required(path, 'verbs must contain at least one value')];
  if (verbs.includes('*')) return verbs.length > 1 ? [goInvalid(path, goStrings(verbs), "if '*' is present, must not specify other verbs")] : [];
  return verbs.every((v) => VERBS.includes(v)) ? [] : [goNotSupported(path, goStrings(verbs), VERBS)];
}

/** ValidateNonResourceURLPath */
function validateURLPath(p: string, path: string): FieldError[] {
  if (!p) return [field.invalid(path, p, 'must not be empty')];
  if (p === '/') return [];
  if (!p.startsWith('/')) return [field.invalid(path, p, 'must start with slash')];
  if (p.includes(' ')) return [field.invalid(path, p, 'must not contain white-space')];
  if (p.includes('//')) return [field.invalid(path, p, 'must not contain double slash')];
  const stars = p.split('*').length - 1;
  if (stars > 1 || (stars === 1 && !p.endsWith('/*'))) return [field.invalid(path, p, 'wildcard can only do suffix matching')];
  return [];
}

function validateResourceRule(r: J, path: string): FieldError[] {
  const errs = validateVerbs(arr(r['verbs']).map(str), `${path}.verbs`);
  const groups = arr(r['apiGroups']).map(str);
  if (groups.length === 0) errs.push(field.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  else if (groups.length > 1 && groups.includes('*')) errs.push(goInvalid(`${path}.apiGroups`, goStrings(groups), "if '*' is present, must not specify other api groups"));
  const res = arr(r['resources']).map(str);
  if (res.length === 0) errs.push(field.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  else if (res.length > 1 && res.includes('*')) errs.push(goInvalid(`${path}.resources`, goStrings(res), "if '*' is present, must not specify other resources"));
  const nss = arr(r['namespaces']).map(str);
  if (nss.length === 0 && r['clusterScope'] !== true) {
    errs.push(field.required(`${path}.namespaces`, 'resource rules that are not cluster scoped must supply at least one namespace'));
  } else if (nss.includes('*')) {
    if (nss.length > 1) errs.push(goInvalid(`${path}.namespaces`, goStrings(nss), "if '*' is present, must not specify other namespaces"));
  } else {
    nss.forEach((ns, i) => { for (const m of isDNS1123Label(ns)) errs.push(field.invalid(`${path}.namespaces[${i}]`, ns, NS_INTRO + m)); });
  }
  return errs;
}

function validateNonResourceRule(r: J, path: string): FieldError[] {
  const errs = validateVerbs(arr(r['verbs']).map(str), `${path}.verbs`);
  const urls = arr(r['nonResourceURLs']).map(str);
  if (urls.length === 0) errs.push(field.required(`${path}.nonResourceURLs`, 'nonResourceURLs must contain at least one value'));
  else if (urls.includes('*')) {
    if (urls.length > 1) errs.push(goInvalid(`${path}.nonResourceURLs`, goStrings(urls), "if '*' is present, must not specify other non-resource URLs"));
  } else urls.forEach((u, i) => errs.push(...validateURLPath(u, `${path}.nonResourceURLs[${i}]`)));
  return errs;
}

const OTHERS: Record<string, [string, string][]> = {
  ServiceAccount: [['user', "user is forbidden when subject kind is not 'User'"], ['group', "group is forbidden when subject kind is not 'Group'"]],
  User: [['serviceAccount', "serviceAccount is forbidden when subject kind is not 'ServiceAccount'"], ['group', "group is forbidden when subject kind is not 'Group'"]],
  Group: [['serviceAccount', "serviceAccount is forbidden when subject kind is not 'ServiceAccount'"], ['user', "user is forbidden when subject kind is not 'User'"]],
};

function validateSubject(s: J, path: string): FieldError[] {
  const kind = str(s['kind']);
  const errs: FieldError[] = [];
  if (kind === 'ServiceAccount') {
    if (!isSet(s['serviceAccount'])) errs.push(field.required(`${path}.serviceAccount`, "serviceAccount is required when subject kind is 'ServiceAccount'"));
    else {
      const sa = obj(s['serviceAccount']);
      const name = str(sa['name']);
      if (!name) errs.push(field.required(`${path}.serviceAccount.name`));
      else if (name !== '*') for (const m of isDNS1123Subdomain(name)) errs.push(field.invalid(`${path}.serviceAccount.name`, name, m));
      const ns = str(sa['namespace']);
      if (!ns) errs.push(field.required(`${path}.serviceAccount.namespace`, 'must specify namespace for service account'));
      else for (const m of isDNS1123Label(ns)) errs.push(field.invalid(`${path}.serviceAccount.namespace`, ns, m));
    }
  } else if (kind === 'User' || kind === 'Group') {
    const key = kind === 'User' ? 'user' : 'group';
    if (!isSet(s[key])) errs.push(field.required(`${path}.${key}`, `${key} is required when subject kind is '${kind}'`));
    else if (!str(obj(s[key])['name'])) errs.push(field.required(`${path}.${key}.name`));
  } else {
    return [field.notSupported(`${path}.kind`, kind, SUBJECT_KINDS)];
  }
  for (const [k, msg] of OTHERS[kind]!) if (isSet(s[k])) errs.push(field.forbidden(`${path}.${k}`, msg));
  return errs;
}

function validateConditions(status: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  arr(obj(status)['conditions']).forEach((raw, i) => {
    const type = str(obj(raw)['type']);
    const p = `status.conditions[${i}]`;
    if (seen.has(type)) errs.push(field.duplicate(`${p}.type`, type));
    seen.add(type);
    if (!type) errs.push(field.required(`${p}.type`, 'must not be empty'));
  });
  return errs;
}

export function validateFlowSchema(fs: J): FieldError[] {
  const spec = obj(fs['spec']);
  const name = str(obj(fs['metadata'])['name']);
  const errs: FieldError[] = [];
  const prec = num(spec['matchingPrecedence'], 1000);
  if (prec <= 0) errs.push(field.invalid('spec.matchingPrecedence', prec, 'must be a positive value'));
  if (prec > MAX_PRECEDENCE) errs.push(field.invalid('spec.matchingPrecedence', prec, `must not be greater than ${MAX_PRECEDENCE}`));
  if (prec === 1 && name !== 'exempt') errs.push(field.invalid('spec.matchingPrecedence', prec, "only the schema named 'exempt' may have matchingPrecedence 1"));
  if (isSet(spec['distinguisherMethod'])) {
    const t = str(obj(spec['distinguisherMethod'])['type']);
    if (t !== 'ByNamespace' && t !== 'ByUser') {
      errs.push(goNotSupported('spec.distinguisherMethod.type', `flowcontrol.FlowDistinguisherMethod{Type:${goQuote(t)}}`, ['ByNamespace', 'ByUser']));
    }
  }
  const pl = str(obj(spec['priorityLevelConfiguration'])['name']);
  if (pl) for (const m of isDNS1123Subdomain(pl)) errs.push(field.invalid('spec.priorityLevelConfiguration.name', pl, m));
  else errs.push(field.required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  arr(spec['rules']).forEach((raw, i) => {
    const r = obj(raw);
    const p = `spec.rules[${i}]`;
    const subjects = arr(r['subjects']);
    if (subjects.length === 0) errs.push(field.required(`${p}.subjects`, 'subjects must contain at least one value'));
    subjects.forEach((s, j) => errs.push(...validateSubject(obj(s), `${p}.subjects[${j}]`)));
    const rr = arr(r['resourceRules']);
    const nr = arr(r['nonResourceRules']);
    if (rr.length === 0 && nr.length === 0) errs.push(field.required(p, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
    rr.forEach((x, j) => errs.push(...validateResourceRule(obj(x), `${p}.resourceRules[${j}]`)));
    nr.forEach((x, j) => errs.push(...validateNonResourceRule(obj(x), `${p}.nonResourceRules[${j}]`)));
  });
  errs.push(...validateConditions(fs['status']));
  return errs;
}

function validateQueuing(q: J, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const limit = num(q['queueLengthLimit'], 50);
  const queues = num(q['queues'], 64);
  const hand = num(q['handSize'], 8);
  if (limit <= 0) errs.push(field.invalid(`${path}.queueLengthLimit`, limit, 'must be positive'));
  if (queues <= 0) errs.push(field.invalid(`${path}.queues`, queues, 'must be positive'));
  else if (queues > MAX_QUEUES) errs.push(field.invalid(`${path}.queues`, queues, `must not be greater than ${MAX_QUEUES}`));
  if (hand <= 0) errs.push(field.invalid(`${path}.handSize`, hand, 'must be positive'));
  else if (hand > queues) errs.push(field.invalid(`${path}.handSize`, hand, `should not be greater than queues (${queues})`));
  else if (Math.ceil(Math.log2(queues) * hand) > MAX_HASH_BITS) {
    errs.push(field.invalid(`${path}.handSize`, hand, `required entropy bits of deckSize ${queues} and handSize ${hand} should not be greater than ${MAX_HASH_BITS}`));
  }
  return errs;
}

function validateLendable(v: unknown, path: string): FieldError[] {
  return typeof v === 'number' && !(v >= 0 && v <= 100) ? [field.invalid(path, v, 'must be between 0 and 100, inclusive')] : [];
}

export function validatePriorityLevelConfiguration(plc: J): FieldError[] {
  const spec = obj(plc['spec']);
  const name = str(obj(plc['metadata'])['name']);
  const type = str(spec['type']);
  const errs: FieldError[] = [];
  if ((name === 'exempt') !== (type === 'Exempt')) errs.push(field.invalid('spec.type', type, "type must be 'Exempt' if and only if name is 'exempt'"));
  if (type === 'Exempt') {
    if (isSet(spec['limited'])) errs.push(field.forbidden('spec.limited', 'must be nil if the type is not Limited'));
    if (isSet(spec['exempt'])) {
      const e = obj(spec['exempt']);
      const n = e['nominalConcurrencyShares'];
      if (typeof n === 'number' && n < 0) errs.push(field.invalid('spec.exempt.nominalConcurrencyShares', n, 'must be a non-negative integer'));
      errs.push(...validateLendable(e['lendablePercent'], 'spec.exempt.lendablePercent'));
    }
  } else if (type === 'Limited') {
    if (isSet(spec['exempt'])) errs.push(field.forbidden('spec.exempt', 'must be nil if the type is Limited'));
    if (!isSet(spec['limited'])) errs.push(field.required('spec.limited', 'must not be empty when type is Limited'));
    else {
      const l = obj(spec['limited']);
      const n = num(l['nominalConcurrencyShares'], 30);
      if (n < 0) errs.push(field.invalid('spec.limited.nominalConcurrencyShares', n, 'must be a non-negative integer'));
      const lr = obj(l['limitResponse']);
      const lt = str(lr['type']);
      if (lt === 'Reject') {
        if (isSet(lr['queuing'])) errs.push(field.forbidden('spec.limited.limitResponse.queuing', 'must be nil if limited.limitResponse.type is not Limited'));
      } else if (lt === 'Queue') {
        if (!isSet(lr['queuing'])) errs.push(field.required('spec.limited.limitResponse.queuing', 'must not be empty if limited.limitResponse.type is Limited'));
        else errs.push(...validateQueuing(obj(lr['queuing']), 'spec.limited.limitResponse.queuing'));
      } else {
        errs.push(field.notSupported('spec.limited.limitResponse.type', lt, ['Queue', 'Reject']));
      }
      errs.push(...validateLendable(l['lendablePercent'], 'spec.limited.lendablePercent'));
      const b = l['borrowingLimitPercent'];
      if (typeof b === 'number' && b < 0) errs.push(field.invalid('spec.limited.borrowingLimitPercent', b, 'if specified, must be a non-negative integer'));
    }
  } else {
    errs.push(field.notSupported('spec.type', type, ['Exempt', 'Limited']));
  }
  errs.push(...validateConditions(plc['status']));
  return errs;
}

/** Status writes check only the conditions. */
export const validateFlowSchemaStatus = (fs: J): FieldError[] => validateConditions(fs['status']);
export const validatePriorityLevelConfigurationStatus = (plc: J): FieldError[] => validateConditions(plc['status']);
