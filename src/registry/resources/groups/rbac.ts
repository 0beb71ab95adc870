/** rbac.authorization.k8s.io: roles and bindings (names are path segments). */
import type { GroupSpec } from '../../../api/resources/define.ts';
import * as oc from '../other/columns.ts';
import { plainCOU, rbacBinding } from '../shared-strategies.ts';

export const rbac: GroupSpec = {
  group: 'rbac.authorization.k8s.io',
  versions: [{ version: 'v1', resources: [
    { resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false, nameRule: 'path-segment', fields: ['subjects', 'roleRef'], tableColumns: oc.clusterRoleBindingColumns, strategy: rbacBinding },
    { resource: 'clusterroles', kind: 'ClusterRole', namespaced: false, nameRule: 'path-segment', fields: ['rules', 'aggregationRule'], tableColumns: oc.roleColumns, strategy: plainCOU },
    { resource: 'rolebindings', kind: 'RoleBinding', namespaced: true, nameRule: 'path-segment', fields: ['subjects', 'roleRef'], tableColumns: oc.roleBindingColumns, strategy: rbacBinding },
    { resource: 'roles', kind: 'Role', namespaced: true, nameRule: 'path-segment', fields: ['rules'], tableColumns: oc.roleColumns, strategy: plainCOU },
  ] }],
};
