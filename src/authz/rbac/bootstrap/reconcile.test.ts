import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../../machinery/objects.ts';
import { reconcileBinding, reconcileRole } from './reconcile.ts';
import { breakdownRule, covers, ruleCovers } from './covers.ts';
import { rule, type PolicyRule } from './rule.ts';

const AUTO = 'rbac.authorization.kubernetes.io/autoupdate';

function clusterRole(name: string, rules: unknown[], extra: Partial<KObject> = {}, annotations: Record<string, string> = { [AUTO]: 'true' }): KObject {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name, resourceVersion: '7', labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' }, annotations }, rules, ...extra };
}

void test('the rule builder sorts and de-duplicates every list, as kube builder sets do', () => {
  assert.deepEqual(rule('get', 'create', 'get').groups('extensions', 'apps').resources('b', 'a').build(), {
    verbs: ['create', 'get'], apiGroups: ['apps', 'extensions'], resources: ['a', 'b'],
  });
  assert.deepEqual(Object.keys(rule('get').groups('').resources('x').names('n').build()), ['verbs', 'apiGroups', 'resources', 'resourceNames']);
  assert.throws(() => rule('get').build(), /resources or non-resource URLs/);
  assert.throws(() => rule('get').resources('pods').build(), /apiGroups/);
});

void test('breakdown and coverage follow kube: wildcards, */subresource, URL prefixes, resource names', () => {
  assert.deepEqual(breakdownRule({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }), [
    { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] },
    { verbs: ['list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] },
  ]);
  assert.deepEqual(breakdownRule({ verbs: ['get'], nonResourceURLs: ['/a', '/b'] }), [{ verbs: ['get'], nonResourceURLs: ['/a'] }, { verbs: ['get'], nonResourceURLs: ['/b'] }]);
  const sub = { verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/status'] };
  assert.ok(ruleCovers({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, sub));
  assert.ok(ruleCovers({ verbs: ['get'], apiGroups: ['apps'], resources: ['*/status'] }, sub));
  assert.ok(!ruleCovers({ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'] }, sub));
  assert.ok(ruleCovers({ verbs: ['get'], nonResourceURLs: ['/healthz/*'] }, { verbs: ['get'], nonResourceURLs: ['/healthz/etcd'] }));
  assert.ok(!ruleCovers({ verbs: ['get'], nonResourceURLs: ['/healthz'] }, { verbs: ['get'], nonResourceURLs: ['/healthz/etcd'] }));
  // A rule limited to names does not cover the unlimited one; an unlimited one covers any name.
  assert.ok(!ruleCovers({ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }, { verbs: ['get'], apiGroups: [''], resources: ['pods'] }));
  assert.ok(ruleCovers({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }));
  assert.deepEqual(covers([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]).uncovered,
    [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }]);
});

void test('the whole-rule shortcut in covers() finds exactly the sub-rules the per-sub-rule search finds', () => {
  // Reference: kube's definition, every broken-down sub-rule against every owner rule.
  const reference = (owner: PolicyRule[], servant: PolicyRule[]): PolicyRule[] =>
    servant.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
  // An owner limited to names grants no URL: the servant's URL sub-rules stay uncovered.
  const named = { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'], nonResourceURLs: ['/x'] };
  assert.deepEqual(covers([named], [named]).uncovered, [{ verbs: ['get'], nonResourceURLs: ['/x'] }]);
  // A bounded pseudo-random sweep over small alphabets (fixed seed: the same cases every run).
  let seed = 7;
  const rand = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const pick = (xs: string[]): string[] => xs.filter(() => rand(2) === 0);
  const gen = (): PolicyRule => {
    const r: PolicyRule = { verbs: pick(['get', 'list', '*']) };
    if (rand(3) > 0) Object.assign(r, { apiGroups: pick(['', 'apps', '*']), resources: pick(['pods', 'pods/status', '*/status', '*']) });
    if (rand(4) === 0) r.resourceNames = pick(['a', 'b']);
    if (rand(3) === 0) r.nonResourceURLs = pick(['/x', '/x/*', '/y']);
    return r;
  };
  for (let i = 0; i < 500; i++) {
    const owner = Array.from({ length: 1 + rand(3) }, gen);
    const servant = rand(2) ? structuredClone(owner) : Array.from({ length: 1 + rand(3) }, gen);
    assert.deepEqual(covers(owner, servant).uncovered, reference(owner, servant), JSON.stringify({ owner, servant }));
  }
});

void test('a role missing default rules gets the uncovered sub-rules appended; user rules and values stay', () => {
  const expected = clusterRole('r', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'services'] }]);
  const existing = clusterRole('r', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['delete'], apiGroups: ['x'], resources: ['y'] }]);
  existing.metadata.labels = { mine: 'yes' };
  existing.metadata.annotations = { [AUTO]: 'true', note: 'n' };
  const r = reconcileRole(existing, expected);
  assert.equal(r.operation, 'update');
  assert.equal(r.protected, false);
  assert.deepEqual(r.object['rules'], [
    { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
    { verbs: ['delete'], apiGroups: ['x'], resources: ['y'] },
    { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
    { verbs: ['get'], apiGroups: [''], resources: ['services'] },
    { verbs: ['list'], apiGroups: [''], resources: ['services'] },
  ]);
  assert.deepEqual(r.object.metadata.labels, { 'kubernetes.io/bootstrapping': 'rbac-defaults', mine: 'yes' });
  assert.equal(r.object.metadata.resourceVersion, '7');
  // The input was not changed.
  assert.equal((existing['rules'] as unknown[]).length, 2);
});

void test('a role holding its defaults (even through a wildcard) needs nothing; autoupdate "false" marks it protected', () => {
  const expected = clusterRole('r', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
  assert.equal(reconcileRole(clusterRole('r', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]), expected).operation, 'none');
  const prot = reconcileRole(clusterRole('r', [], {}, { [AUTO]: 'false' }), expected);
  assert.equal(prot.operation, 'update');
  assert.equal(prot.protected, true);
});

void test('an existing label value wins over the default one (an admin may change them)', () => {
  const expected = clusterRole('r', []);
  const existing = clusterRole('r', []);
  existing.metadata.labels = { 'kubernetes.io/bootstrapping': 'changed' };
  const r = reconcileRole(existing, expected);
  assert.equal(r.operation, 'none');
});

void test('aggregated roles: missing selectors are added, rules are left to the controller; a stray aggregation is removed', () => {
  const sel = (k: string) => ({ matchLabels: { [k]: 'true' } });
  const expected = clusterRole('view', [], { aggregationRule: { clusterRoleSelectors: [sel('a')] } });
  const existing = clusterRole('view', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], { aggregationRule: { clusterRoleSelectors: [sel('b')] } });
  const r = reconcileRole(existing, expected);
  assert.equal(r.operation, 'update');
  assert.deepEqual(r.object['aggregationRule'], { clusterRoleSelectors: [sel('b'), sel('a')] });
  assert.deepEqual(r.object['rules'], existing['rules']);
  const same = clusterRole('view', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], { aggregationRule: { clusterRoleSelectors: [sel('a')] } });
  assert.equal(reconcileRole(same, expected).operation, 'none');
  const stray = reconcileRole(clusterRole('r', [], { aggregationRule: { clusterRoleSelectors: [] } }), clusterRole('r', []));
  assert.equal(stray.operation, 'update');
  assert.equal(stray.object['aggregationRule'], undefined);
});

void test('bindings: missing subjects appended after the user ones; another roleRef means recreate', () => {
  const ref = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'x' };
  const g = (name: string) => ({ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name });
  const expected: KObject = { kind: 'ClusterRoleBinding', metadata: { name: 'x', annotations: { [AUTO]: 'true' } }, roleRef: ref, subjects: [g('a'), g('b')] };
  const existing: KObject = { kind: 'ClusterRoleBinding', metadata: { name: 'x', annotations: { [AUTO]: 'true' } }, roleRef: ref, subjects: [g('mine'), g('b')] };
  const r = reconcileBinding(existing, expected);
  assert.equal(r.operation, 'update');
  assert.deepEqual(r.object['subjects'], [g('mine'), g('b'), g('a')]);
  assert.equal(reconcileBinding(expected, expected).operation, 'none');
  const other = reconcileBinding({ ...existing, roleRef: { ...ref, name: 'y' } }, expected);
  assert.equal(other.operation, 'recreate');
  assert.deepEqual(other.object, expected);
  // A binding without subjects by default (system:node) stays as the admin left it.
  assert.equal(reconcileBinding(existing, { ...expected, subjects: undefined }).operation, 'none');
});
