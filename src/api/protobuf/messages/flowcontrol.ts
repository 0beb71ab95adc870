// Protobuf message descriptions of flowcontrol (field numbers, wire types, Go pointer-ness, inline embedding) as
// Kubernetes v1.33 defines them; see ../schema.ts for the notation.
import { definePackage } from '../schema.ts';

definePackage('flowcontrol.v1', {
  ExemptPriorityLevelConfiguration: { nominalConcurrencyShares: '1 *int32', lendablePercent: '2 *int32' },
  FlowDistinguisherMethod: { type: '1 string' },
  FlowSchema: { metadata: '1 ObjectMeta', spec: '2 FlowSchemaSpec', status: '3 FlowSchemaStatus' },
  FlowSchemaCondition: { type: '1 string', status: '2 string', lastTransitionTime: '3 Time', reason: '4 string', message: '5 string' },
  FlowSchemaList: { metadata: '1 ListMeta', items: '2 []FlowSchema' },
  FlowSchemaSpec: { priorityLevelConfiguration: '1 PriorityLevelConfigurationReference', matchingPrecedence: '2 int32', distinguisherMethod: '3 *FlowDistinguisherMethod', rules: '4 []PolicyRulesWithSubjects' },
  FlowSchemaStatus: { conditions: '1 []FlowSchemaCondition' },
  GroupSubject: { name: '1 string' },
  LimitResponse: { type: '1 string', queuing: '2 *QueuingConfiguration' },
  LimitedPriorityLevelConfiguration: { nominalConcurrencyShares: '1 *int32', limitResponse: '2 LimitResponse', lendablePercent: '3 *int32', borrowingLimitPercent: '4 *int32' },
  NonResourcePolicyRule: { verbs: '1 []string', nonResourceURLs: '6 []string' },
  PolicyRulesWithSubjects: { subjects: '1 []Subject', resourceRules: '2 []ResourcePolicyRule', nonResourceRules: '3 []NonResourcePolicyRule' },
  PriorityLevelConfiguration: { metadata: '1 ObjectMeta', spec: '2 PriorityLevelConfigurationSpec', status: '3 PriorityLevelConfigurationStatus' },
  PriorityLevelConfigurationCondition: { type: '1 string', status: '2 string', lastTransitionTime: '3 Time', reason: '4 string', message: '5 string' },
  PriorityLevelConfigurationList: { metadata: '1 ListMeta', items: '2 []PriorityLevelConfiguration' },
  PriorityLevelConfigurationReference: { name: '1 string' },
  PriorityLevelConfigurationSpec: { type: '1 string', limited: '2 *LimitedPriorityLevelConfiguration', exempt: '3 *ExemptPriorityLevelConfiguration' },
  PriorityLevelConfigurationStatus: { conditions: '1 []PriorityLevelConfigurationCondition' },
  QueuingConfiguration: { queues: '1 int32', handSize: '2 int32', queueLengthLimit: '3 int32' },
  ResourcePolicyRule: { verbs: '1 []string', apiGroups: '2 []string', resources: '3 []string', clusterScope: '4 bool', namespaces: '5 []string' },
  ServiceAccountSubject: { namespace: '1 string', name: '2 string' },
  Subject: { kind: '1 string', user: '2 *UserSubject', group: '3 *GroupSubject', serviceAccount: '4 *ServiceAccountSubject' },
  UserSubject: { name: '1 string' },
});

