// Protobuf message descriptions of rbac (field numbers, wire types, Go pointer-ness, inline embedding, merge
// markers) as Kubernetes v1.33 defines them; see ../schema.ts for the notation.
import { definePackage } from '../schema.ts';

definePackage('rbac.v1', {
  AggregationRule: { clusterRoleSelectors: '1 []LabelSelector list=atomic' },
  ClusterRole: { metadata: '1 ObjectMeta', rules: '2 ![]PolicyRule list=atomic', aggregationRule: '3 *AggregationRule' },
  ClusterRoleBinding: { metadata: '1 ObjectMeta', subjects: '2 []Subject list=atomic', roleRef: '3 !RoleRef' },
  ClusterRoleBindingList: { metadata: '1 ListMeta', items: '2 ![]ClusterRoleBinding' },
  ClusterRoleList: { metadata: '1 ListMeta', items: '2 ![]ClusterRole' },
  PolicyRule: { verbs: '1 ![]string list=atomic', apiGroups: '2 []string list=atomic', resources: '3 []string list=atomic', resourceNames: '4 []string list=atomic', nonResourceURLs: '5 []string list=atomic' },
  Role: { metadata: '1 ObjectMeta', rules: '2 ![]PolicyRule list=atomic' },
  RoleBinding: { metadata: '1 ObjectMeta', subjects: '2 []Subject list=atomic', roleRef: '3 !RoleRef' },
  RoleBindingList: { metadata: '1 ListMeta', items: '2 ![]RoleBinding' },
  RoleList: { metadata: '1 ListMeta', items: '2 ![]Role' },
  RoleRef: { apiGroup: '1 !string', kind: '2 !string', name: '3 !string' },
  Subject: { kind: '1 !string', apiGroup: '2 string', name: '3 !string', namespace: '4 string' },
}, {}, ["RoleRef", "Subject"]);

