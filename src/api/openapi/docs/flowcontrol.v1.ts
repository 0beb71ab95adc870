import { defineDocs } from './define.ts';
import { CLUSTER_OBJECT_METADATA, condition, list } from './shared/common.ts';

const LENDABLE = 'Percentage of this level\'s nominal concurrency that other levels may borrow while it is idle; between 0 and 100. Defaults to 0.';

const docs = {
  ExemptPriorityLevelConfiguration: {
    $: 'Settings of an Exempt priority level, whose requests are never queued or limited but still count in the concurrency budget.',
    nominalConcurrencyShares: 'Share of the server\'s total concurrency nominally reserved for this level, relative to the shares of other levels; may be 0. Defaults to 0.',
    lendablePercent: LENDABLE,
  },
  FlowDistinguisherMethod: {
    $: 'How requests matched by a FlowSchema are split into flows, for fair queuing between them.',
    type: 'ByUser (one flow per requesting user) or ByNamespace (one flow per namespace of the object). Required.',
  },
  FlowSchema: {
    $: 'Classifies incoming API requests by who sends them and what they touch, and sends each matched request to a priority level (API Priority and Fairness).',
    metadata: CLUSTER_OBJECT_METADATA,
    spec: 'Which requests the schema matches, its precedence and its priority level.',
    status: 'Conditions of the FlowSchema; read-only.',
  },
  FlowSchemaCondition: condition('a FlowSchema', 'Dangling (the priority level it names does not exist) is the one set today.'),
  FlowSchemaList: list('FlowSchema'),
  FlowSchemaSpec: {
    $: 'The desired behaviour of a FlowSchema.',
    priorityLevelConfiguration: 'The priority level that handles the matched requests; if it does not exist, they are rejected. Required.',
    matchingPrecedence: 'Order in which schemas are tried, lowest first; the first match wins. Between 1 and 10000. Defaults to 1000.',
    distinguisherMethod: 'How matched requests are grouped into flows; unset puts them all into one flow.',
    rules: 'Rules, any one of which matching makes the schema match; empty matches nothing.',
  },
  FlowSchemaStatus: {
    $: 'Conditions the API server reports for a FlowSchema.',
    conditions: 'Conditions reported for the schema, one per type.',
  },
  GroupSubject: {
    $: 'A user group as a flow schema subject.',
    name: 'Group name, such as system:authenticated; * matches every group. Required.',
  },
  LimitResponse: {
    $: 'What a limited priority level does with requests it cannot run at once.',
    type: 'Queue (hold them in queues) or Reject (fail them at once with 429). Required.',
    queuing: 'Queue settings; only with type Queue.',
  },
  LimitedPriorityLevelConfiguration: {
    $: 'Settings of a Limited priority level: its share of the server\'s concurrency and what happens to the excess.',
    nominalConcurrencyShares: 'Share of the server\'s total concurrency nominally given to this level, relative to the shares of all levels. Defaults to 30; 0 allowed.',
    limitResponse: 'Whether excess requests wait in queues or are turned away.',
    lendablePercent: LENDABLE,
    borrowingLimitPercent: 'Most this level may borrow from others, as a percentage of its own nominal concurrency; unset means no limit.',
  },
  NonResourcePolicyRule: {
    $: 'Matches requests to non-resource URLs by verb and path.',
    verbs: 'Verbs matched, such as get; * matches all and must then be the only item. Required.',
    nonResourceURLs: 'Paths matched, such as /healthz or /apis/* (a trailing /* matches the path and anything below); * matches all and must be alone. Required.',
  },
  PolicyRulesWithSubjects: {
    $: 'A flow schema rule: the request must come from one of the subjects and match at least one resource or non-resource rule.',
    subjects: 'Users, groups or service accounts the rule applies to; at least one. Required.',
    resourceRules: 'Rules matching resource requests.',
    nonResourceRules: 'Rules matching non-resource requests.',
  },
  PriorityLevelConfiguration: {
    $: 'A priority level of API Priority and Fairness: a share of the server\'s concurrency and how requests beyond it are queued or rejected.',
    metadata: CLUSTER_OBJECT_METADATA,
    spec: 'The kind of level and its limits.',
    status: 'Conditions of the priority level; read-only.',
  },
  PriorityLevelConfigurationCondition: condition('a PriorityLevelConfiguration', ''),
  PriorityLevelConfigurationList: list('PriorityLevelConfiguration'),
  PriorityLevelConfigurationReference: {
    $: 'Names the priority level that a FlowSchema sends requests to.',
    name: 'Name of the PriorityLevelConfiguration. Required.',
  },
  PriorityLevelConfigurationSpec: {
    $: 'The desired behaviour of a priority level; the field named by type is set.',
    type: 'Exempt (requests run at once, unlimited; for the built-in exempt level) or Limited (requests share a limited concurrency). Required.',
    limited: 'Concurrency share and overflow handling; present exactly when type is Limited.',
    exempt: 'Settings of an Exempt level; only with type Exempt, and defaulted when empty.',
  },
  PriorityLevelConfigurationStatus: {
    $: 'Conditions the API server reports for a priority level.',
    conditions: 'Conditions reported for the level, one per type.',
  },
  QueuingConfiguration: {
    $: 'Queues of a Limited priority level, into which flows are shuffle-sharded.',
    queues: 'Number of queues per API server; 1 turns shuffle sharding off. Positive; defaults to 64.',
    handSize: 'Number of queues each flow is dealt, of which it uses the shortest; at most queues, and ideally small. Defaults to 8.',
    queueLengthLimit: 'Most requests waiting in one queue; later ones are rejected with 429. Positive; defaults to 50.',
  },
  ResourcePolicyRule: {
    $: 'Matches resource requests by verb, group, resource and namespace.',
    verbs: 'Verbs matched, such as get or list; * matches all and must then be alone. Required.',
    apiGroups: 'API groups matched; the empty string is the core group, * matches all and must then be alone. Required.',
    resources: 'Resources matched, lowercase plural, with subresources as pods/log; * matches all and must then be alone. Required.',
    clusterScope: 'Whether requests without a namespace (on cluster-scoped resources, or across all namespaces) match.',
    namespaces: 'Namespaces matched by namespaced requests; * matches any. When empty, only clusterScope decides.',
  },
  ServiceAccountSubject: {
    $: 'A service account as a flow schema subject.',
    namespace: 'Namespace of the service account. Required.',
    name: 'Name of the service account; * matches every one in the namespace. Required.',
  },
  Subject: {
    $: 'Who a request comes from, for flow schema matching; the field named by kind is set.',
    kind: 'User, Group or ServiceAccount. Required.',
    user: 'The user, when kind is User.',
    group: 'The group, when kind is Group.',
    serviceAccount: 'The service account, when kind is ServiceAccount.',
  },
  UserSubject: {
    $: 'A user as a flow schema subject.',
    name: 'User name; * matches every user. Required.',
  },
};

defineDocs('flowcontrol.v1', docs);
export default docs;
