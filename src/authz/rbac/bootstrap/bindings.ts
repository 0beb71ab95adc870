/**
 * kube-apiserver v1.33's default ClusterRoleBindings (besides the controller ones) and its namespaced Roles and
 * RoleBindings in kube-system and kube-public (kube's bootstrappolicy policy.go / namespace_policy.go).
 */
import { eventsRule, LEGACY, READ, rule, type PolicyRule } from './rule.ts';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount';
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: 'Role' | 'ClusterRole';
  name: string;
}

export interface BindingSpec {
  name: string;
  /** Only for RoleBindings. */
  namespace?: string;
  roleRef: RoleRef;
  /** Absent means no subjects (kube's `system:node` binding has none). */
  subjects?: Subject[];
}

export interface RoleSpec {
  name: string;
  namespace: string;
  rules: PolicyRule[];
}

export const user = (name: string): Subject => ({ kind: 'User', apiGroup: RBAC_GROUP, name });
export const group = (name: string): Subject => ({ kind: 'Group', apiGroup: RBAC_GROUP, name });
export const serviceAccount = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace });

export function clusterBinding(name: string, ...subjects: Subject[]): BindingSpec {
  const b: BindingSpec = { name, roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name } };
  if (subjects.length) b.subjects = subjects;
  return b;
}

function roleBinding(namespace: string, name: string, roleName: string, ...subjects: Subject[]): BindingSpec {
  return { name, namespace, roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: roleName }, subjects };
}

export function clusterRoleBindingSpecs(): BindingSpec[] {
  return [
    clusterBinding('cluster-admin', group('system:masters')),
    clusterBinding('system:monitoring', group('system:monitoring')),
    clusterBinding('system:discovery', group('system:authenticated')),
    clusterBinding('system:basic-user', group('system:authenticated')),
    clusterBinding('system:public-info-viewer', group('system:authenticated'), group('system:unauthenticated')),
    clusterBinding('system:node-proxier', user('system:kube-proxy')),
    clusterBinding('system:kube-controller-manager', user('system:kube-controller-manager')),
    clusterBinding('system:kube-dns', serviceAccount('kube-system', 'kube-dns')),
    clusterBinding('system:kube-scheduler', user('system:kube-scheduler')),
    clusterBinding('system:volume-scheduler', user('system:kube-scheduler')),
    // No subjects since kube 1.8: nodes are authorized by the Node authorizer, not by this role.
    clusterBinding('system:node'),
    clusterBinding('system:service-account-issuer-discovery', group('system:serviceaccounts')),
  ];
}

const KUBE_SYSTEM = 'kube-system';
const KUBE_PUBLIC = 'kube-public';
const LEASES = 'coordination.k8s.io';

function leaderLocking(component: string): RoleSpec {
  return {
    name: `system::leader-locking-${component}`,
    namespace: KUBE_SYSTEM,
    rules: [
      rule('watch').groups(LEGACY).resources('configmaps').build(),
      rule('get', 'update').groups(LEGACY).resources('configmaps').names(component).build(),
      rule('get', 'watch', 'list', 'create', 'update').groups(LEASES).resources('leases').build(),
      rule('get', 'watch', 'list', 'create', 'update').groups(LEASES).resources('leasecandidates').build(),
    ],
  };
}

export function namespaceRoleSpecs(): RoleSpec[] {
  return [
    {
      name: 'extension-apiserver-authentication-reader',
      namespace: KUBE_SYSTEM,
      rules: [rule(...READ).groups(LEGACY).resources('configmaps').names('extension-apiserver-authentication').build()],
    },
    { name: 'system:controller:bootstrap-signer', namespace: KUBE_SYSTEM, rules: [rule(...READ).groups(LEGACY).resources('secrets').build()] },
    { name: 'system:controller:cloud-provider', namespace: KUBE_SYSTEM, rules: [rule('create', 'get', 'list', 'watch').groups(LEGACY).resources('configmaps').build()] },
    {
      name: 'system:controller:token-cleaner',
      namespace: KUBE_SYSTEM,
      rules: [rule('get', 'list', 'watch', 'delete').groups(LEGACY).resources('secrets').build(), eventsRule()],
    },
    leaderLocking('kube-controller-manager'),
    leaderLocking('kube-scheduler'),
    {
      name: 'system:controller:bootstrap-signer',
      namespace: KUBE_PUBLIC,
      rules: [
        rule(...READ).groups(LEGACY).resources('configmaps').build(),
        rule('update').groups(LEGACY).resources('configmaps').names('cluster-info').build(),
        eventsRule(),
      ],
    },
  ];
}

export function namespaceRoleBindingSpecs(): BindingSpec[] {
  return [
    roleBinding(KUBE_SYSTEM, 'system::extension-apiserver-authentication-reader', 'extension-apiserver-authentication-reader',
      user('system:kube-controller-manager'), user('system:kube-scheduler')),
    roleBinding(KUBE_SYSTEM, 'system::leader-locking-kube-controller-manager', 'system::leader-locking-kube-controller-manager',
      user('system:kube-controller-manager'), serviceAccount(KUBE_SYSTEM, 'kube-controller-manager'),
      serviceAccount(KUBE_SYSTEM, 'leader-election-controller')),
    roleBinding(KUBE_SYSTEM, 'system::leader-locking-kube-scheduler', 'system::leader-locking-kube-scheduler',
      user('system:kube-scheduler'), serviceAccount(KUBE_SYSTEM, 'kube-scheduler')),
    roleBinding(KUBE_SYSTEM, 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', serviceAccount(KUBE_SYSTEM, 'bootstrap-signer')),
    roleBinding(KUBE_SYSTEM, 'system:controller:cloud-provider', 'system:controller:cloud-provider', serviceAccount(KUBE_SYSTEM, 'cloud-provider')),
    roleBinding(KUBE_SYSTEM, 'system:controller:token-cleaner', 'system:controller:token-cleaner', serviceAccount(KUBE_SYSTEM, 'token-cleaner')),
    roleBinding(KUBE_PUBLIC, 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', serviceAccount(KUBE_SYSTEM, 'bootstrap-signer')),
  ];
}
