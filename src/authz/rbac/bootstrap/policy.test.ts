import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapPolicy } from './policy.ts';
import { v133DefaultGates } from './controller-roles.ts';
import { readKubeJson } from '../../../../test/support/kube-reference.ts';

const names = (objs: Array<{ metadata: { name?: string; namespace?: string } }>): string[] =>
  objs.map((o) => (o.metadata.namespace ? `${o.metadata.namespace}/` : '') + (o.metadata.name ?? '')).sort();

void test('the ClusterRoles are kube v1.32 ones (reference server) plus v1.33 default-gate controllers', () => {
  const table = readKubeJson<{ rows: Array<{ cells: string[] }> }>('responses/table/apis_rbac.authorization.k8s.io_v1_clusterroles.json');
  // The recorded server carried one test role and two OpenShift additions that upstream kube does not have.
  const notUpstream = new Set(['cr1', 'system:openshift:public-info-viewer', 'system:controller:service-ca-cert-publisher']);
  const v132 = table.rows.map((r) => r.cells[0]!).filter((n) => !notUpstream.has(n));
  // v1.33: MultiCIDRServiceAllocator is GA and SELinuxChangePolicy beta-on, each adding its controller's role.
  const want = [...v132, 'system:controller:service-cidrs-controller', 'system:controller:selinux-warning-controller'].sort();
  assert.deepEqual(names(bootstrapPolicy().clusterRoles), want);
});

void test('counts, labels, annotations; every controller role has its binding to kube-system/<controller>', () => {
  const p = bootstrapPolicy();
  assert.equal(p.clusterRoles.length, 66);
  assert.equal(p.clusterRoleBindings.length, 47);
  assert.deepEqual(names(p.roles), [
    'kube-public/system:controller:bootstrap-signer', 'kube-system/extension-apiserver-authentication-reader',
    'kube-system/system::leader-locking-kube-controller-manager', 'kube-system/system::leader-locking-kube-scheduler',
    'kube-system/system:controller:bootstrap-signer', 'kube-system/system:controller:cloud-provider', 'kube-system/system:controller:token-cleaner',
  ]);
  assert.deepEqual(names(p.roleBindings), [
    'kube-public/system:controller:bootstrap-signer', 'kube-system/system::extension-apiserver-authentication-reader',
    'kube-system/system::leader-locking-kube-controller-manager', 'kube-system/system::leader-locking-kube-scheduler',
    'kube-system/system:controller:bootstrap-signer', 'kube-system/system:controller:cloud-provider', 'kube-system/system:controller:token-cleaner',
  ]);
  for (const o of [...p.clusterRoles, ...p.clusterRoleBindings, ...p.roles, ...p.roleBindings]) {
    assert.equal(o.metadata.labels?.['kubernetes.io/bootstrapping'], 'rbac-defaults', o.metadata.name);
    assert.equal(o.metadata.annotations?.['rbac.authorization.kubernetes.io/autoupdate'], 'true', o.metadata.name);
  }
  for (const r of p.clusterRoles.filter((x) => x.metadata.name!.startsWith('system:controller:'))) {
    const b = p.clusterRoleBindings.find((x) => x.metadata.name === r.metadata.name);
    assert.ok(b, `binding for ${r.metadata.name}`);
    assert.deepEqual(b['roleRef'], { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: r.metadata.name });
    assert.deepEqual(b['subjects'], [{ kind: 'ServiceAccount', name: r.metadata.name!.slice('system:controller:'.length), namespace: 'kube-system' }]);
  }
  const node = p.clusterRoleBindings.find((x) => x.metadata.name === 'system:node')!;
  assert.equal(node['subjects'], undefined);
});

void test('every rule list is sorted and duplicate-free, as kube emits them', () => {
  const p = bootstrapPolicy();
  for (const o of [...p.clusterRoles, ...p.roles]) {
    for (const r of (o['rules'] as Array<Record<string, string[]>>)) {
      for (const [k, v] of Object.entries(r)) assert.deepEqual(v, [...new Set(v)].sort(), `${o.metadata.name} ${k}`);
    }
  }
});

void test('feature gates decide the gated controller roles', () => {
  const off = bootstrapPolicy({ gate: (g) => g !== 'MultiCIDRServiceAllocator' && v133DefaultGates(g) });
  assert.ok(!names(off.clusterRoles).includes('system:controller:service-cidrs-controller'));
  const dra = bootstrapPolicy({ gate: (g) => g === 'DynamicResourceAllocation' || v133DefaultGates(g) });
  assert.ok(names(dra.clusterRoles).includes('system:controller:resource-claim-controller'));
  assert.equal(dra.clusterRoles.length, 67);
  // A registry that throws for gates it does not know leaves them at v1.33's defaults.
  const strict = bootstrapPolicy({ gate: (g) => { throw new Error(`feature "${g}" is not registered`); } });
  assert.equal(strict.clusterRoles.length, 66);
});

void test('fresh objects on every call', () => {
  const a = bootstrapPolicy();
  (a.clusterRoles[0]!['rules'] as unknown[]).push('x');
  a.clusterRoles[0]!.metadata.labels!['x'] = 'y';
  const b = bootstrapPolicy();
  assert.notDeepEqual(a.clusterRoles[0], b.clusterRoles[0]);
});
