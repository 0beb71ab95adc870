import { defineDocs } from './define.ts';
import { CLUSTER_OBJECT_METADATA, list, OBJECT_METADATA } from './shared/common.ts';

const RULES = 'The permissions granted; rules only add, there is no deny.';
const SUBJECTS = 'Users, groups and service accounts that receive the role\'s permissions.';

const docs = {
  AggregationRule: {
    $: 'Builds a ClusterRole\'s rules from other ClusterRoles chosen by labels.',
    clusterRoleSelectors: 'Label selectors; the rules of every ClusterRole matching any of them are copied in by the controller. Any rules written directly are overwritten.',
  },
  ClusterRole: {
    $: 'A set of permissions valid cluster-wide, granted by a ClusterRoleBinding, or within one namespace by a RoleBinding.',
    metadata: CLUSTER_OBJECT_METADATA,
    rules: RULES,
    aggregationRule: 'When set, the rules are managed by the controller from the ClusterRoles it selects.',
  },
  ClusterRoleBinding: {
    $: 'Grants the permissions of a ClusterRole to subjects in every namespace and on cluster-scoped resources.',
    metadata: CLUSTER_OBJECT_METADATA,
    subjects: SUBJECTS,
    roleRef: 'The ClusterRole granted; if it cannot be found the binding grants nothing. Immutable: make a new binding to change it.',
  },
  ClusterRoleBindingList: list('ClusterRoleBinding'),
  ClusterRoleList: list('ClusterRole'),
  PolicyRule: {
    $: 'One RBAC permission: verbs allowed on resources or on non-resource URLs.',
    verbs: 'Verbs allowed, such as get, list, watch, create, update, patch, delete; * allows all. Required.',
    apiGroups: 'API groups of the resources; the empty string is the core group, * is every group.',
    resources: 'Resources allowed, such as pods or pods/log; * is every resource, */scale any resource\'s scale subresource.',
    resourceNames: 'Names of the objects allowed; empty means all. It cannot restrict create or deletecollection, and restricts list and watch only when they select by metadata.name.',
    nonResourceURLs: 'URL paths allowed, such as /healthz, with a trailing * as wildcard; only in ClusterRoles bound by ClusterRoleBindings, and exclusive with resources.',
  },
  Role: {
    $: 'A set of permissions within one namespace, granted by a RoleBinding.',
    metadata: OBJECT_METADATA,
    rules: RULES,
  },
  RoleBinding: {
    $: 'Grants the permissions of a Role, or of a ClusterRole limited to this namespace, to subjects.',
    metadata: OBJECT_METADATA,
    subjects: SUBJECTS,
    roleRef: 'The Role in this namespace, or the ClusterRole, granted; the binding grants nothing if it cannot be found. Immutable.',
  },
  RoleBindingList: list('RoleBinding'),
  RoleList: list('Role'),
  RoleRef: {
    $: 'Names the role that a binding grants.',
    apiGroup: 'API group of the role: rbac.authorization.k8s.io. Required.',
    kind: 'Role or ClusterRole. Required.',
    name: 'Name of the role. Required.',
  },
  Subject: {
    $: 'Whom a binding grants permissions to: a user, a group or a service account.',
    kind: 'User, Group or ServiceAccount. Required.',
    apiGroup: 'Group of the subject\'s kind. Users and groups belong to rbac.authorization.k8s.io, filled in when omitted; a ServiceAccount to the empty core group.',
    name: 'Name of the user, group or service account. Required.',
    namespace: 'Namespace of the service account; required for ServiceAccount and not allowed for users and groups.',
  },
};

defineDocs('rbac.v1', docs);
export default docs;
