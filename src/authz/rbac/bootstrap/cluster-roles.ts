/**
 * kube-apiserver v1.33's default ClusterRoles other than the `system:controller:*` ones, with the default
 * feature gates (DynamicResourceAllocation and ClusterTrustBundleProjection are off in v1.33, so the scheduler
 * and node roles carry no resource.k8s.io / clustertrustbundle rules). Facts from kube's bootstrappolicy
 * (testdata/cluster-roles.yaml of that release), re-expressed with the rule builder; rule order is kube's.
 */
import { EVENTS, eventsRule, LEGACY, READ, READ_WRITE, rule, WRITE, type PolicyRule } from './rule.ts';

export interface ClusterRoleSpec {
  name: string;
  rules: PolicyRule[];
  /** Extra labels (the bootstrapping label is added for every role). */
  labels?: Record<string, string>;
  /** `matchLabels` of each clusterRoleSelector: the role is aggregated and its rules start empty. */
  aggregateFrom?: Array<Record<string, string>>;
}

export const AGGREGATE_TO_ADMIN = 'rbac.authorization.k8s.io/aggregate-to-admin';
export const AGGREGATE_TO_EDIT = 'rbac.authorization.k8s.io/aggregate-to-edit';
export const AGGREGATE_TO_VIEW = 'rbac.authorization.k8s.io/aggregate-to-view';

const AUTHN = 'authentication.k8s.io';
const AUTHZ = 'authorization.k8s.io';
const CERTS = 'certificates.k8s.io';
const COORD = 'coordination.k8s.io';
const STORAGE = 'storage.k8s.io';

function signerApprover(signer: string): ClusterRoleSpec {
  const suffix = signer.slice('kubernetes.io/'.length);
  return { name: `system:certificates.k8s.io:${suffix}-approver`, rules: [rule('approve').groups(CERTS).resources('signers').names(signer).build()] };
}

function nonResource(name: string, urls: string[]): ClusterRoleSpec {
  return { name, rules: [rule('get').nonResourceURLs(...urls).build()] };
}

const aggregateToAdmin: PolicyRule[] = [
  rule('create').groups(AUTHZ).resources('localsubjectaccessreviews').build(),
  rule(...READ_WRITE).groups('rbac.authorization.k8s.io').resources('rolebindings', 'roles').build(),
];

const aggregateToEdit: PolicyRule[] = [
  // Read access to secrets and the proxy/exec subresources is write-equivalent: edit gets it, view does not.
  rule(...READ).groups(LEGACY).resources('pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy').build(),
  rule('impersonate').groups(LEGACY).resources('serviceaccounts').build(),
  rule(...WRITE).groups(LEGACY).resources('pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy').build(),
  rule('create').groups(LEGACY).resources('pods/eviction').build(),
  rule(...WRITE).groups(LEGACY).resources('configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers',
    'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy').build(),
  rule('create').groups(LEGACY).resources('serviceaccounts/token').build(),
  rule(...WRITE).groups('apps').resources('daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale',
    'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale').build(),
  rule(...WRITE).groups('autoscaling').resources('horizontalpodautoscalers').build(),
  rule(...WRITE).groups('batch').resources('cronjobs', 'jobs').build(),
  rule(...WRITE).groups('extensions').resources('daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale',
    'ingresses', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale').build(),
  rule(...WRITE).groups('policy').resources('poddisruptionbudgets').build(),
  rule(...WRITE).groups('networking.k8s.io').resources('ingresses', 'networkpolicies').build(),
  rule(...READ_WRITE).groups(COORD).resources('leases').build(),
];

const aggregateToView: PolicyRule[] = [
  rule(...READ).groups(LEGACY).resources('configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods',
    'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status').build(),
  rule(...READ).groups(LEGACY).resources('bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status',
    'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status').build(),
  // Reading namespaces at namespace scope means reading *this* namespace.
  rule(...READ).groups(LEGACY).resources('namespaces').build(),
  rule(...READ).groups('discovery.k8s.io').resources('endpointslices').build(),
  rule(...READ).groups('apps').resources('controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale',
    'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status').build(),
  rule(...READ).groups('autoscaling').resources('horizontalpodautoscalers', 'horizontalpodautoscalers/status').build(),
  rule(...READ).groups('batch').resources('cronjobs', 'cronjobs/status', 'jobs', 'jobs/status').build(),
  rule(...READ).groups('extensions').resources('daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status',
    'ingresses', 'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale').build(),
  rule(...READ).groups('policy').resources('poddisruptionbudgets', 'poddisruptionbudgets/status').build(),
  rule(...READ).groups('networking.k8s.io').resources('ingresses', 'ingresses/status', 'networkpolicies').build(),
];

const kubeControllerManager: PolicyRule[] = [
  eventsRule(),
  rule('create').groups(COORD).resources('leases').build(),
  rule('get', 'update').groups(COORD).resources('leases').names('kube-controller-manager').build(),
  rule('create').groups(LEGACY).resources('secrets', 'serviceaccounts').build(),
  rule('delete').groups(LEGACY).resources('secrets').build(),
  rule('get').groups(LEGACY).resources('configmaps', 'namespaces', 'secrets', 'serviceaccounts').build(),
  rule('update').groups(LEGACY).resources('secrets', 'serviceaccounts').build(),
  rule('create').groups(AUTHN).resources('tokenreviews').build(),
  rule('create').groups(AUTHZ).resources('subjectaccessreviews').build(),
  // Shared informers of every controller.
  rule('list', 'watch').groups('*').resources('*').build(),
  rule('create').groups(LEGACY).resources('serviceaccounts/token').build(),
];

const kubeScheduler: PolicyRule[] = [
  eventsRule(),
  rule('create').groups(COORD).resources('leases').build(),
  rule('get', 'update').groups(COORD).resources('leases').names('kube-scheduler').build(),
  rule(...READ).groups(LEGACY).resources('nodes').build(),
  rule('get', 'list', 'watch', 'delete').groups(LEGACY).resources('pods').build(),
  rule('create').groups(LEGACY).resources('bindings', 'pods/binding').build(),
  rule('patch', 'update').groups(LEGACY).resources('pods/status').build(),
  rule(...READ).groups(LEGACY).resources('replicationcontrollers', 'services').build(),
  rule(...READ).groups('apps', 'extensions').resources('replicasets').build(),
  rule(...READ).groups('apps').resources('statefulsets').build(),
  rule(...READ).groups('policy').resources('poddisruptionbudgets').build(),
  rule(...READ).groups(LEGACY).resources('persistentvolumeclaims', 'persistentvolumes').build(),
  rule('create').groups(AUTHN).resources('tokenreviews').build(),
  rule('create').groups(AUTHZ).resources('subjectaccessreviews').build(),
  rule(...READ).groups(STORAGE).resources('csinodes').build(),
  rule(...READ).groups(LEGACY).resources('namespaces').build(),
  rule(...READ).groups(STORAGE).resources('csidrivers').build(),
  rule(...READ).groups(STORAGE).resources('csistoragecapacities').build(),
];

const node: PolicyRule[] = [
  rule('create').groups(AUTHN).resources('tokenreviews').build(),
  rule('create').groups(AUTHZ).resources('subjectaccessreviews', 'localsubjectaccessreviews').build(),
  rule(...READ).groups(LEGACY).resources('services').build(),
  rule('create', 'get', 'list', 'watch').groups(LEGACY).resources('nodes').build(),
  rule('update', 'patch').groups(LEGACY).resources('nodes/status').build(),
  rule('update', 'patch').groups(LEGACY).resources('nodes').build(),
  rule('create', 'update', 'patch').groups(LEGACY).resources('events').build(),
  rule(...READ).groups(LEGACY).resources('pods').build(),
  rule('create', 'delete').groups(LEGACY).resources('pods').build(),
  rule('update', 'patch').groups(LEGACY).resources('pods/status').build(),
  rule('create').groups(LEGACY).resources('pods/eviction').build(),
  rule(...READ).groups(LEGACY).resources('secrets', 'configmaps').build(),
  rule('get').groups(LEGACY).resources('persistentvolumeclaims', 'persistentvolumes').build(),
  rule('get').groups(LEGACY).resources('endpoints').build(),
  rule('create', 'get', 'list', 'watch').groups(CERTS).resources('certificatesigningrequests').build(),
  rule('get', 'create', 'update', 'patch', 'delete').groups(COORD).resources('leases').build(),
  rule('get').groups(STORAGE).resources('volumeattachments').build(),
  rule('create').groups(LEGACY).resources('serviceaccounts/token').build(),
  rule('get', 'update', 'patch').groups(LEGACY).resources('persistentvolumeclaims/status').build(),
  rule(...READ).groups(STORAGE).resources('csidrivers').build(),
  rule('get', 'create', 'update', 'patch', 'delete').groups(STORAGE).resources('csinodes').build(),
  rule(...READ).groups('node.k8s.io').resources('runtimeclasses').build(),
];

/** The roles, named as kube names them (the list order does not matter: the API lists by name). */
export function clusterRoleSpecs(): ClusterRoleSpec[] {
  return [
    { name: 'admin', rules: [], aggregateFrom: [{ [AGGREGATE_TO_ADMIN]: 'true' }] },
    {
      name: 'cluster-admin',
      rules: [rule('*').groups('*').resources('*').build(), rule('*').nonResourceURLs('*').build()],
    },
    { name: 'edit', rules: [], labels: { [AGGREGATE_TO_ADMIN]: 'true' }, aggregateFrom: [{ [AGGREGATE_TO_EDIT]: 'true' }] },
    { name: 'system:aggregate-to-admin', labels: { [AGGREGATE_TO_ADMIN]: 'true' }, rules: aggregateToAdmin },
    { name: 'system:aggregate-to-edit', labels: { [AGGREGATE_TO_EDIT]: 'true' }, rules: aggregateToEdit },
    { name: 'system:aggregate-to-view', labels: { [AGGREGATE_TO_VIEW]: 'true' }, rules: aggregateToView },
    {
      name: 'system:auth-delegator',
      rules: [rule('create').groups(AUTHN).resources('tokenreviews').build(), rule('create').groups(AUTHZ).resources('subjectaccessreviews').build()],
    },
    {
      name: 'system:basic-user',
      rules: [
        rule('create').groups(AUTHZ).resources('selfsubjectaccessreviews', 'selfsubjectrulesreviews').build(),
        rule('create').groups(AUTHN).resources('selfsubjectreviews').build(),
      ],
    },
    { name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', rules: [rule('create').groups(CERTS).resources('certificatesigningrequests/nodeclient').build()] },
    { name: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', rules: [rule('create').groups(CERTS).resources('certificatesigningrequests/selfnodeclient').build()] },
    signerApprover('kubernetes.io/kube-apiserver-client'),
    signerApprover('kubernetes.io/kube-apiserver-client-kubelet'),
    signerApprover('kubernetes.io/kubelet-serving'),
    signerApprover('kubernetes.io/legacy-unknown'),
    nonResource('system:discovery', ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/']),
    {
      name: 'system:heapster',
      rules: [rule(...READ).groups(LEGACY).resources('events', 'namespaces', 'nodes', 'pods').build(), rule(...READ).groups('extensions').resources('deployments').build()],
    },
    { name: 'system:kube-aggregator', rules: [rule(...READ).groups(LEGACY).resources('endpoints', 'services').build()] },
    { name: 'system:kube-controller-manager', rules: kubeControllerManager },
    { name: 'system:kube-dns', rules: [rule('list', 'watch').groups(LEGACY).resources('endpoints', 'services').build()] },
    { name: 'system:kube-scheduler', rules: kubeScheduler },
    {
      name: 'system:kubelet-api-admin',
      rules: [
        rule(...READ).groups(LEGACY).resources('nodes').build(),
        rule('proxy').groups(LEGACY).resources('nodes').build(),
        rule('*').groups(LEGACY).resources('nodes/log', 'nodes/metrics', 'nodes/proxy', 'nodes/stats').build(),
      ],
    },
    nonResource('system:monitoring', ['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*']),
    { name: 'system:node', rules: node },
    { name: 'system:node-bootstrapper', rules: [rule('create', 'get', 'list', 'watch').groups(CERTS).resources('certificatesigningrequests').build()] },
    {
      name: 'system:node-problem-detector',
      rules: [rule('get').groups(LEGACY).resources('nodes').build(), rule('patch').groups(LEGACY).resources('nodes/status').build(), eventsRule()],
    },
    {
      name: 'system:node-proxier',
      rules: [
        rule('list', 'watch').groups(LEGACY).resources('services', 'endpoints').build(),
        rule(...READ).groups(LEGACY).resources('nodes').build(),
        eventsRule(),
        rule('list', 'watch').groups('discovery.k8s.io').resources('endpointslices').build(),
      ],
    },
    {
      name: 'system:persistent-volume-provisioner',
      rules: [
        rule('get', 'list', 'watch', 'create', 'delete').groups(LEGACY).resources('persistentvolumes').build(),
        // update: the provisioner annotates claims.
        rule('get', 'list', 'watch', 'update').groups(LEGACY).resources('persistentvolumeclaims').build(),
        rule(...READ).groups(STORAGE).resources('storageclasses').build(),
        rule('watch').groups(LEGACY).resources('events').build(),
        rule('create', 'update', 'patch').groups(LEGACY, EVENTS).resources('events').build(),
      ],
    },
    nonResource('system:public-info-viewer', ['/healthz', '/livez', '/readyz', '/version', '/version/']),
    nonResource('system:service-account-issuer-discovery', ['/.well-known/openid-configuration', '/openid/v1/jwks']),
    {
      name: 'system:volume-scheduler',
      rules: [
        rule(...READ, 'update', 'patch').groups(LEGACY).resources('persistentvolumes').build(),
        rule(...READ).groups(STORAGE).resources('storageclasses').build(),
        rule(...READ, 'update', 'patch').groups(LEGACY).resources('persistentvolumeclaims').build(),
      ],
    },
    { name: 'view', rules: [], labels: { [AGGREGATE_TO_EDIT]: 'true' }, aggregateFrom: [{ [AGGREGATE_TO_VIEW]: 'true' }] },
  ];
}
