/**
 * The FlowSchemas and PriorityLevelConfigurations kube-apiserver v1.33 installs (k8s.io/apiserver
 * pkg/apis/flowcontrol/bootstrap): the mandatory pair every server keeps (exempt, catch-all) and the suggested
 * set operators may edit or delete. Every object carries `apf.kubernetes.io/autoupdate-spec: "true"`.
 */
import type { KObject } from '../machinery/objects.ts';

export const AUTO_UPDATE_ANNOTATION = 'apf.kubernetes.io/autoupdate-spec';
export const FLOWCONTROL_GROUP = 'flowcontrol.apiserver.k8s.io';
export const FLOWCONTROL_API_VERSION = `${FLOWCONTROL_GROUP}/v1`;

type J = Record<string, unknown>;

const ALL_RESOURCES = { verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] };
const ALL_NON_RESOURCES = { verbs: ['*'], nonResourceURLs: ['*'] };

const group = (...names: string[]): J[] => names.map((name) => ({ kind: 'Group', group: { name } }));
const user = (...names: string[]): J[] => names.map((name) => ({ kind: 'User', user: { name } }));
const kubeSystemSA = (...names: string[]): J[] => names.map((name) => ({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name } }));
const resourceRule = (verbs: string[], apiGroups: string[], resources: string[], clusterScope: boolean): J =>
  ({ verbs, apiGroups, resources, ...(clusterScope ? { clusterScope } : {}), namespaces: ['*'] });

function flowSchema(name: string, pl: string, matchingPrecedence: number, distinguisher: 'ByUser' | 'ByNamespace' | '', rule: J): KObject {
  return {
    apiVersion: FLOWCONTROL_API_VERSION, kind: 'FlowSchema',
    metadata: { name, annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' } },
    spec: {
      priorityLevelConfiguration: { name: pl },
      matchingPrecedence,
      ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules: [rule],
    },
  };
}

function limited(name: string, shares: number, lendablePercent: number, queuing?: { queues: number; handSize: number; queueLengthLimit: number }): KObject {
  return {
    apiVersion: FLOWCONTROL_API_VERSION, kind: 'PriorityLevelConfiguration',
    metadata: { name, annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' } },
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: shares, lendablePercent,
        limitResponse: queuing ? { type: 'Queue', queuing } : { type: 'Reject' },
      },
    },
  };
}

const q = (queues: number, handSize: number) => ({ queues, handSize, queueLengthLimit: 50 });

export const MANDATORY_PRIORITY_LEVELS: readonly KObject[] = [
  limited('catch-all', 5, 0),
  {
    apiVersion: FLOWCONTROL_API_VERSION, kind: 'PriorityLevelConfiguration',
    metadata: { name: 'exempt', annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' } },
    spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } },
  },
];

export const MANDATORY_FLOW_SCHEMAS: readonly KObject[] = [
  flowSchema('exempt', 'exempt', 1, '', { subjects: group('system:masters'), resourceRules: [ALL_RESOURCES], nonResourceRules: [ALL_NON_RESOURCES] }),
  flowSchema('catch-all', 'catch-all', 10000, 'ByUser', {
    subjects: group('system:unauthenticated', 'system:authenticated'), resourceRules: [ALL_RESOURCES], nonResourceRules: [ALL_NON_RESOURCES],
  }),
];

export const SUGGESTED_PRIORITY_LEVELS: readonly KObject[] = [
  limited('system', 30, 33, q(64, 6)),
  limited('node-high', 40, 25, q(64, 6)),
  limited('leader-election', 10, 0, q(16, 4)),
  limited('workload-high', 40, 50, q(128, 6)),
  limited('workload-low', 100, 90, q(128, 6)),
  limited('global-default', 20, 50, q(128, 6)),
];

const everything = (subjects: J[]): J => ({ subjects, resourceRules: [ALL_RESOURCES], nonResourceRules: [ALL_NON_RESOURCES] });
const GUR = ['get', 'create', 'update'];

export const SUGGESTED_FLOW_SCHEMAS: readonly KObject[] = [
  flowSchema('system-nodes', 'system', 500, 'ByUser', everything(group('system:nodes'))),
  flowSchema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: group('system:nodes'),
    resourceRules: [resourceRule(['*'], [''], ['nodes', 'nodes/status'], true), resourceRule(['*'], ['coordination.k8s.io'], ['leases'], false)],
  }),
  flowSchema('probes', 'exempt', 2, '', {
    subjects: group('system:unauthenticated', 'system:authenticated'),
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
  }),
  flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', {
    subjects: [...user('system:kube-controller-manager', 'system:kube-scheduler'), ...kubeSystemSA('*')],
    resourceRules: [resourceRule(GUR, ['coordination.k8s.io'], ['leases'], false)],
  }),
  flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', {
    subjects: kubeSystemSA('*'),
    resourceRules: [resourceRule(GUR, [''], ['endpoints', 'configmaps'], false), resourceRule(GUR, ['coordination.k8s.io'], ['leases'], false)],
  }),
  flowSchema('endpoint-controller', 'workload-high', 150, 'ByUser', {
    subjects: [...user('system:kube-controller-manager'), ...kubeSystemSA('endpoint-controller', 'endpointslicemirroring-controller')],
    resourceRules: [resourceRule(GUR, [''], ['endpoints'], false)],
  }),
  flowSchema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', everything(user('system:kube-controller-manager'))),
  flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', everything(user('system:kube-scheduler'))),
  flowSchema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', everything(kubeSystemSA('*'))),
  flowSchema('service-accounts', 'workload-low', 9000, 'ByUser', everything(group('system:serviceaccounts'))),
  flowSchema('global-default', 'global-default', 9900, 'ByUser', everything(group('system:unauthenticated', 'system:authenticated'))),
];
