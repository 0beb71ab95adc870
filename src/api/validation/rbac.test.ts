// ValidatePolicyRule, ValidateRoleBinding(Update), ValidateClusterRoleBinding, ValidateRoleBindingSubject
// (pkg/apis/rbac/validation/validation.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateClusterRole, validateClusterRoleBinding, validateRole, validateRoleBinding, validateRoleBindingUpdate } from './rbac.ts';
import type { J } from './util.ts';

const G = 'rbac.authorization.k8s.io';

test('role rules', () => {
  assert.deepEqual(validateRole({ rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }).map(String), []);
  assert.deepEqual(validateRole({ rules: [{ resources: ['pods'] }, { verbs: ['get'], nonResourceURLs: ['/healthz'] }] }).map(String), [
    'rules[0].verbs: Required value: verbs must contain at least one value',
    'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
    'rules[1].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs',
  ]);
  assert.deepEqual(validateClusterRole({ rules: [{ verbs: ['get'], nonResourceURLs: ['/x'], resources: ['pods'] }] }).map(String), [
    'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs',
  ]);
  assert.deepEqual(validateClusterRole({ aggregationRule: {} }).map(String), [
    'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
  ]);
});

test('bindings: roleRef and subjects', () => {
  const b: J = { roleRef: { apiGroup: 'rbac', kind: 'Thing', name: '' }, subjects: [
    { kind: 'ServiceAccount', name: 'Bad_Name', apiGroup: G }, { kind: 'User', name: 'alice' }, { kind: 'Robot', name: 'r2' },
  ] };
  assert.deepEqual(validateRoleBinding(b).map(String), [
    `roleRef.apiGroup: Unsupported value: "rbac": supported values: "${G}"`,
    'roleRef.kind: Unsupported value: "Thing": supported values: "Role", "ClusterRole"',
    'roleRef.name: Required value',
    `subjects[0].name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    `subjects[0].apiGroup: Unsupported value: "${G}": supported values: ""`,
    `subjects[1].apiGroup: Unsupported value: "": supported values: "${G}"`,
    'subjects[2].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
  ]);
  const crb: J = { roleRef: { apiGroup: G, kind: 'Role', name: 'r' }, subjects: [{ kind: 'ServiceAccount', name: 'sa' }] };
  assert.deepEqual(validateClusterRoleBinding(crb).map(String), [
    'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
    'subjects[0].namespace: Required value',
  ]);
});

test('binding update: roleRef is immutable', () => {
  const old: J = { roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' }, subjects: [] };
  const next: J = { roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'edit' }, subjects: [] };
  assert.deepEqual(validateRoleBindingUpdate(next, old).map(String), [
    `roleRef: Invalid value: rbac.RoleRef{APIGroup:"${G}", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef`,
  ]);
  assert.deepEqual(validateRoleBindingUpdate(old, old).map(String), []);
});
