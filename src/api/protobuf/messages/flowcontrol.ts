// Protobuf message descriptions of flowcontrol (field numbers, wire types, Go pointer-ness, inline embedding, merge
// markers) as Kubernetes v1.33 defines them; see ../schema.ts for the notation.
import { definePackage } from '../schema.ts';

definePackage('flowcontrol.v1', {
  ExemptPriorityLevelConfiguration: { nominalConcurrencyShares: '1 *int32', lendablePercent: '2 *int32' },
  FlowDistinguisherMethod: { type: '1 !string' },
  FlowSchema: { metadata: '1 ObjectMeta', spec: '2 FlowSchemaSpec', status: '3 FlowSchemaStatus' },
  FlowSchemaCondition: { type: '1 string', status: '2 string', lastTransitionTime: '3 Time', reason: '4 string', message: '5 string' },
  FlowSchemaList: { metadata: '1 ListMeta', items: '2 ![]FlowSchema' },
  FlowSchemaSpec: { priorityLevelConfiguration: '1 !PriorityLevelConfigurationReference', matchingPrecedence: '2 !int32', distinguisherMethod: '3 *FlowDistinguisherMethod', rules: '4 []PolicyRulesWithSubjects list=atomic' },
  FlowSchemaStatus: { conditions: '1 []FlowSchemaCondition list=map(type) patch=merge(type)' },
  GroupSubject: { name: '1 !string' },
  LimitResponse: { type: '1 !string', queuing: '2 *QueuingConfiguration' },
  LimitedPriorityLevelConfiguration: { nominalConcurrencyShares: '1 !*int32', limitResponse: '2 LimitResponse', lendablePercent: '3 *int32', borrowingLimitPercent: '4 *int32' },
  NonResourcePolicyRule: { verbs: '1 ![]string list=set', nonResourceURLs: '6 ![]string list=set' },
  PolicyRulesWithSubjects: { subjects: '1 ![]Subject list=atomic', resourceRules: '2 []ResourcePolicyRule list=atomic', nonResourceRules: '3 []NonResourcePolicyRule list=atomic' },
  PriorityLevelConfiguration: { metadata: '1 ObjectMeta', spec: '2 PriorityLevelConfigurationSpec', status: '3 PriorityLevelConfigurationStatus' },
  PriorityLevelConfigurationCondition: { type: '1 string', status: '2 string', lastTransitionTime: '3 Time', reason: '4 string', message: '5 string' },
  PriorityLevelConfigurationList: { metadata: '1 ListMeta', items: '2 ![]PriorityLevelConfiguration' },
  PriorityLevelConfigurationReference: { name: '1 !string' },
  PriorityLevelConfigurationSpec: { type: '1 !string', limited: '2 *LimitedPriorityLevelConfiguration', exempt: '3 *ExemptPriorityLevelConfiguration' },
  PriorityLevelConfigurationStatus: { conditions: '1 []PriorityLevelConfigurationCondition list=map(type) patch=merge(type)' },
  QueuingConfiguration: { queues: '1 !int32', handSize: '2 !int32', queueLengthLimit: '3 !int32' },
  ResourcePolicyRule: { verbs: '1 ![]string list=set', apiGroups: '2 ![]string list=set', resources: '3 ![]string list=set', clusterScope: '4 bool', namespaces: '5 ![]string list=set' },
  ServiceAccountSubject: { namespace: '1 !string', name: '2 !string' },
  Subject: { kind: '1 !string', user: '2 *UserSubject', group: '3 *GroupSubject', serviceAccount: '4 *ServiceAccountSubject' },
  UserSubject: { name: '1 !string' },
});

