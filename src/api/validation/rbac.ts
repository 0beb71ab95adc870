/**
 * rbac.authorization.k8s.io/v1 (pkg/apis/rbac/validation/validation.go: ValidatePolicyRule, ValidateRole,
 * ValidateClusterRole, ValidateRoleBinding, ValidateClusterRoleBinding, ValidateRoleBindingSubject and the
 * *Update variants: `cannot change roleRef`).
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { isDNS1123Subdomain, isValidPathSegmentName } from '../../machinery/validation/names.ts';
import { type J, arr, isSet, obj, str, validateLabelSelector } from './util.ts';
import { goInvalid, goQuote, goStrings } from './go-render.ts';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** ValidatePolicyRule */
function validatePolicyRule(rule: J, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (arr(rule['verbs']).length === 0) errs.push(field.required(`${path}.verbs`, 'verbs must contain at least one value'));
  const nonResourceURLs = arr(rule['nonResourceURLs']);
  if (nonResourceURLs.length > 0) {
    if (namespaced) errs.push(goInvalid(`${path}.nonResourceURLs`, goStrings(nonResourceURLs), 'namespaced rules cannot apply to non-resource URLs'));
    if (arr(rule['apiGroups']).length > 0 || arr(rule['resources']).length > 0 || arr(rule['resourceNames']).length > 0) {
      errs.push(goInvalid(`${path}.nonResourceURLs`, goStrings(nonResourceURLs), 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (arr(rule['apiGroups']).length === 0) errs.push(field.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (arr(rule['resources']).length === 0) errs.push(field.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return errs;
}

export function validateRole(role: J): FieldError[] {
  return arr(role['rules']).flatMap((r, i) => validatePolicyRule(obj(r), true, `rules[${i}]`));
}

export function validateClusterRole(role: J): FieldError[] {
  const errs = arr(role['rules']).flatMap((r, i) => validatePolicyRule(obj(r), false, `rules[${i}]`));
  if (isSet(role['aggregationRule'])) {
    const selectors = arr(obj(role['aggregationRule'])['clusterRoleSelectors']);
    if (selectors.length === 0) {
      errs.push(field.required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    }
    selectors.forEach((s, i) => errs.push(...validateLabelSelector(s, `aggregationRule.clusterRoleSelectors[${i}]`)));
  }
  return errs;
}

/** ValidateRoleBindingSubject */
function validateSubject(subject: J, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(subject['name']);
  const apiGroup = str(subject['apiGroup']);
  if (!name) errs.push(field.required(`${path}.name`));
  switch (str(subject['kind'])) {
    case 'ServiceAccount':
      if (name) for (const m of isDNS1123Subdomain(name)) errs.push(field.invalid(`${path}.name`, name, m));
      if (apiGroup) errs.push(field.notSupported(`${path}.apiGroup`, apiGroup, ['']));
      if (!namespaced && !str(subject['namespace'])) errs.push(field.required(`${path}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== RBAC_GROUP) errs.push(field.notSupported(`${path}.apiGroup`, apiGroup, [RBAC_GROUP]));
      break;
    default:
      errs.push(field.notSupported(`${path}.kind`, str(subject['kind']), ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function validateBinding(binding: J, cluster: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref = obj(binding['roleRef']);
  const apiGroup = str(ref['apiGroup']);
  const kind = str(ref['kind']);
  const name = str(ref['name']);
  if (apiGroup !== RBAC_GROUP) errs.push(field.notSupported('roleRef.apiGroup', apiGroup, [RBAC_GROUP]));
  if (cluster) {
    if (kind !== 'ClusterRole') errs.push(field.notSupported('roleRef.kind', kind, ['ClusterRole']));
  } else if (kind !== 'Role' && kind !== 'ClusterRole') {
    errs.push(field.notSupported('roleRef.kind', kind, ['Role', 'ClusterRole']));
  }
  if (!name) errs.push(field.required('roleRef.name'));
  else for (const m of isValidPathSegmentName(name)) errs.push(field.invalid('roleRef.name', name, m));
  arr(binding['subjects']).forEach((s, i) => errs.push(...validateSubject(obj(s), !cluster, `subjects[${i}]`)));
  return errs;
}

export const validateRoleBinding = (b: J) => validateBinding(b, false);
export const validateClusterRoleBinding = (b: J) => validateBinding(b, true);

/** The internal rbac.RoleRef as kube's %#v prints it. */
function renderRoleRef(ref: J): string {
  return `rbac.RoleRef{APIGroup:${goQuote(str(ref['apiGroup']))}, Kind:${goQuote(str(ref['kind']))}, Name:${goQuote(str(ref['name']))}}`;
}

function roleRefUnchanged(b: J, old: J): FieldError[] {
  const a = obj(b['roleRef']);
  const o = obj(old['roleRef']);
  const same = str(a['apiGroup']) === str(o['apiGroup']) && str(a['kind']) === str(o['kind']) && str(a['name']) === str(o['name']);
  return same ? [] : [goInvalid('roleRef', renderRoleRef(a), 'cannot change roleRef')];
}

export const validateRoleBindingUpdate = (b: J, old: J) => [...validateRoleBinding(b), ...roleRefUnchanged(b, old)];
export const validateClusterRoleBindingUpdate = (b: J, old: J) => [...validateClusterRoleBinding(b), ...roleRefUnchanged(b, old)];
