/**
 * The smaller built-in groups, each a compact GroupSpec. Storage prefixes follow kube-apiserver's etcd
 * layout (`/registry/<resource>/` unless noted: ingresses live under `/registry/ingress/`, CRDs and
 * APIServices under their group).
 */
import type { GroupSpec } from './define.ts';
import { SUB_VERBS, fieldOf, statusSub } from './define.ts';
import * as oc from '../../registry/resources/other/columns.ts';
import * as ac from '../../registry/resources/other/columns-admin.ts';
import { csrStrategy } from '../../registry/resources/other/csr.ts';
import { eventColumns, eventSelectableFields } from '../../registry/resources/core/columns.ts';
import { statusStrategy } from '../../registry/resources/strategy-kit.ts';
import { ageColumn, col, nameColumn } from '../../registry/resources/columns.ts';

const plain = statusStrategy({});
/** SetDefaults_Subject: User and Group subjects belong to the RBAC group. */
const rbacBinding = statusStrategy({ allowCreateOnUpdate: true }, {
  defaults(o) {
    for (const s of Array.isArray(o['subjects']) ? (o['subjects'] as unknown[]) : []) {
      if (!s || typeof s !== 'object') continue;
      const subj = s as Record<string, unknown>;
      if ((subj['kind'] === 'User' || subj['kind'] === 'Group') && subj['apiGroup'] === undefined) subj['apiGroup'] = 'rbac.authorization.k8s.io';
    }
  },
});
const plainCOU = statusStrategy({ allowCreateOnUpdate: true });
const withStatus = statusStrategy({ status: true });
const withStatusGen = statusStrategy({ status: true, generation: true });
const withStatusGenCOU = statusStrategy({ status: true, generation: true, allowCreateOnUpdate: true });
const genCOU = statusStrategy({ generation: true, allowCreateOnUpdate: true });
const API_EXT = ['api-extensions'];

export const apiregistration: GroupSpec = {
  group: 'apiregistration.k8s.io',
  versions: [{ version: 'v1', resources: [{
    resource: 'apiservices', kind: 'APIService', namespaced: false, categories: API_EXT, subresources: [statusSub],
    storagePrefix: '/registry/apiregistration.k8s.io/apiservices/', nameRule: 'path-segment', tableColumns: ac.apiServiceColumns,
    strategy: statusStrategy({ status: true, allowUnconditionalUpdate: false }),
  }] }],
};

export const events: GroupSpec = {
  group: 'events.k8s.io',
  versions: [{ version: 'v1', resources: [{
    // Stored as core/v1 Events in the same keys (kube's events.k8s.io shares /registry/events/).
    resource: 'events', kind: 'Event', namespaced: true, shortNames: ['ev'], storage: { group: '', version: 'v1' },
    fields: ['eventTime', 'series', 'reportingController', 'reportingInstance', 'action', 'reason', 'regarding', 'related', 'note', 'type', 'deprecatedSource', 'deprecatedFirstTimestamp', 'deprecatedLastTimestamp', 'deprecatedCount'],
    strategy: statusStrategy({ allowCreateOnUpdate: true, gcPolicy: 'unsupported' }),
    tableColumns: eventColumns,
    // Field selectors run on stored (core/v1) objects: the events.k8s.io names read the core fields.
    selectableFields: {
      reason: eventSelectableFields['reason']!,
      type: eventSelectableFields['type']!,
      reportingController: eventSelectableFields['reportingComponent']!,
      'regarding.kind': eventSelectableFields['involvedObject.kind']!,
      'regarding.namespace': eventSelectableFields['involvedObject.namespace']!,
      'regarding.name': eventSelectableFields['involvedObject.name']!,
      'regarding.uid': eventSelectableFields['involvedObject.uid']!,
      'regarding.apiVersion': eventSelectableFields['involvedObject.apiVersion']!,
      'regarding.resourceVersion': eventSelectableFields['involvedObject.resourceVersion']!,
      'regarding.fieldPath': eventSelectableFields['involvedObject.fieldPath']!,
    },
  }] }],
};

export const authentication: GroupSpec = {
  group: 'authentication.k8s.io',
  versions: [{ version: 'v1', resources: [
    { resource: 'selfsubjectreviews', kind: 'SelfSubjectReview', namespaced: false, virtual: true, fields: ['status'] },
    { resource: 'tokenreviews', kind: 'TokenReview', namespaced: false, virtual: true },
  ] }],
};

export const authorization: GroupSpec = {
  group: 'authorization.k8s.io',
  versions: [{ version: 'v1', resources: [
    { resource: 'localsubjectaccessreviews', kind: 'LocalSubjectAccessReview', namespaced: true, virtual: true },
    { resource: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview', namespaced: false, virtual: true },
    { resource: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview', namespaced: false, virtual: true },
    { resource: 'subjectaccessreviews', kind: 'SubjectAccessReview', namespaced: false, virtual: true },
  ] }],
};

const hpa = {
  resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespaced: true, shortNames: ['hpa'], categories: ['all'],
  subresources: [statusSub], storage: { group: 'autoscaling', version: 'v2' }, tableColumns: oc.horizontalPodAutoscalerColumns,
  strategy: withStatusGenCOU,
};

export const autoscaling: GroupSpec = {
  group: 'autoscaling',
  versions: [
    { version: 'v2', resources: [hpa] },
    // v1 objects are stored as v2: the registry must convert (targetCPUUtilizationPercentage ↔ metrics).
    { version: 'v1', resources: [hpa] },
  ],
};

export const certificates: GroupSpec = {
  group: 'certificates.k8s.io',
  versions: [{ version: 'v1', resources: [{
    resource: 'certificatesigningrequests', kind: 'CertificateSigningRequest', namespaced: false, shortNames: ['csr'],
    subresources: [{ name: 'approval', verbs: SUB_VERBS }, statusSub], tableColumns: oc.certificateSigningRequestColumns,
    selectableFields: { 'spec.signerName': fieldOf('spec.signerName') },
    strategy: csrStrategy,
  }] }],
};

export const networking: GroupSpec = {
  group: 'networking.k8s.io',
  versions: [{ version: 'v1', resources: [
    { resource: 'ingressclasses', kind: 'IngressClass', namespaced: false, tableColumns: oc.ingressClassColumns, strategy: genCOU },
    {
      resource: 'ingresses', kind: 'Ingress', namespaced: true, shortNames: ['ing'], subresources: [statusSub],
      storagePrefix: '/registry/ingress/', tableColumns: oc.ingressColumns, strategy: withStatusGenCOU,
    },
    { resource: 'ipaddresses', kind: 'IPAddress', namespaced: false, shortNames: ['ip'], tableColumns: ac.ipAddressColumns, strategy: plain },
    { resource: 'networkpolicies', kind: 'NetworkPolicy', namespaced: true, shortNames: ['netpol'], tableColumns: oc.networkPolicyColumns, strategy: genCOU },
    { resource: 'servicecidrs', kind: 'ServiceCIDR', namespaced: false, subresources: [statusSub], tableColumns: ac.serviceCIDRColumns, strategy: withStatus },
  ] }],
};

export const policy: GroupSpec = {
  group: 'policy',
  versions: [{ version: 'v1', resources: [{
    resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', namespaced: true, shortNames: ['pdb'], subresources: [statusSub],
    tableColumns: oc.podDisruptionBudgetColumns, strategy: withStatusGenCOU,
  }] }],
};

export const rbac: GroupSpec = {
  group: 'rbac.authorization.k8s.io',
  versions: [{ version: 'v1', resources: [
    { resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false, nameRule: 'path-segment', fields: ['subjects', 'roleRef'], tableColumns: oc.clusterRoleBindingColumns, strategy: rbacBinding },
    { resource: 'clusterroles', kind: 'ClusterRole', namespaced: false, nameRule: 'path-segment', fields: ['rules', 'aggregationRule'], tableColumns: oc.roleColumns, strategy: plainCOU },
    { resource: 'rolebindings', kind: 'RoleBinding', namespaced: true, nameRule: 'path-segment', fields: ['subjects', 'roleRef'], tableColumns: oc.roleBindingColumns, strategy: rbacBinding },
    { resource: 'roles', kind: 'Role', namespaced: true, nameRule: 'path-segment', fields: ['rules'], tableColumns: oc.roleColumns, strategy: plainCOU },
  ] }],
};

export const storage: GroupSpec = {
  group: 'storage.k8s.io',
  versions: [{ version: 'v1', resources: [
    { resource: 'csidrivers', kind: 'CSIDriver', namespaced: false, strategy: plain },
    { resource: 'csinodes', kind: 'CSINode', namespaced: false, tableColumns: ac.csiNodeColumns, strategy: plain },
    { resource: 'csistoragecapacities', kind: 'CSIStorageCapacity', namespaced: true, fields: ['nodeTopology', 'storageClassName', 'capacity', 'maximumVolumeSize'], tableColumns: ac.csiStorageCapacityColumns, strategy: plain },
    {
      resource: 'storageclasses', kind: 'StorageClass', namespaced: false, shortNames: ['sc'],
      fields: ['provisioner', 'parameters', 'reclaimPolicy', 'mountOptions', 'allowVolumeExpansion', 'volumeBindingMode', 'allowedTopologies'], tableColumns: oc.storageClassColumns,
      strategy: statusStrategy({}, { defaults: (o) => { o['reclaimPolicy'] ??= 'Delete'; o['volumeBindingMode'] ??= 'Immediate'; } }),
    },
    { resource: 'volumeattachments', kind: 'VolumeAttachment', namespaced: false, subresources: [statusSub], tableColumns: ac.volumeAttachmentColumns, strategy: withStatus },
  ] }],
};

export const admissionregistration: GroupSpec = {
  group: 'admissionregistration.k8s.io',
  versions: [{ version: 'v1', resources: [
    { resource: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', namespaced: false, fields: ['webhooks'], categories: API_EXT, tableColumns: ac.mutatingWebhookColumns, strategy: statusStrategy({ generation: true, allowCreateOnUpdate: true }) },
    { resource: 'validatingadmissionpolicies', kind: 'ValidatingAdmissionPolicy', namespaced: false, categories: API_EXT, subresources: [statusSub], tableColumns: ac.validatingAdmissionPolicyColumns, strategy: withStatusGen },
    { resource: 'validatingadmissionpolicybindings', kind: 'ValidatingAdmissionPolicyBinding', namespaced: false, categories: API_EXT, tableColumns: ac.validatingAdmissionPolicyBindingColumns, strategy: statusStrategy({ generation: true }) },
    { resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false, fields: ['webhooks'], categories: API_EXT, tableColumns: ac.validatingWebhookColumns, strategy: statusStrategy({ generation: true, allowCreateOnUpdate: true }) },
  ] }],
};

export const apiextensions: GroupSpec = {
  group: 'apiextensions.k8s.io',
  versions: [{ version: 'v1', resources: [{
    resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false, shortNames: ['crd', 'crds'],
    categories: API_EXT, subresources: [statusSub], storagePrefix: '/registry/apiextensions.k8s.io/customresourcedefinitions/',
    hashVersion: { group: 'apiextensions.k8s.io', version: 'v1beta1' },
    strategy: statusStrategy({ status: true, generation: true, allowUnconditionalUpdate: false }),
  }] }],
};

export const scheduling: GroupSpec = {
  group: 'scheduling.k8s.io',
  versions: [{ version: 'v1', resources: [{
    resource: 'priorityclasses', kind: 'PriorityClass', namespaced: false, shortNames: ['pc'], fields: ['value', 'globalDefault', 'description', 'preemptionPolicy'], tableColumns: oc.priorityClassColumns,
    strategy: statusStrategy({}, { defaults: (o) => { o['preemptionPolicy'] ??= 'PreemptLowerPriority'; } }),
  }] }],
};

export const coordination: GroupSpec = {
  group: 'coordination.k8s.io',
  versions: [{ version: 'v1', resources: [{
    resource: 'leases', kind: 'Lease', namespaced: true, tableColumns: oc.leaseColumns, strategy: plainCOU,
  }] }],
};

export const node: GroupSpec = {
  group: 'node.k8s.io',
  versions: [{ version: 'v1', resources: [{
    resource: 'runtimeclasses', kind: 'RuntimeClass', namespaced: false, fields: ['handler', 'overhead', 'scheduling'], tableColumns: oc.runtimeClassColumns, strategy: plainCOU,
  }] }],
};

export const discovery: GroupSpec = {
  group: 'discovery.k8s.io',
  versions: [{ version: 'v1', resources: [{
    resource: 'endpointslices', kind: 'EndpointSlice', namespaced: true, fields: ['addressType', 'endpoints', 'ports'], strategy: genCOU,
    tableColumns: [
      nameColumn(),
      col('AddressType', 'string', 'addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name.', (o) => String(o['addressType'] ?? '')),
      col('Ports', 'string', 'ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name. When ports is empty, it indicates that there are no defined ports. When a port is defined with a nil port value, it indicates "all ports". Each slice may include a maximum of 100 ports.', (o) => {
        const ports = Array.isArray(o['ports']) ? (o['ports'] as Array<Record<string, unknown>>) : [];
        if (!ports.length) return '<unset>';
        const list = ports.map((p) => (typeof p['port'] === 'number' ? String(p['port']) : typeof p['name'] === 'string' ? p['name'] : '*'));
        return list.length > 3 ? `${list.slice(0, 3).join(',')} + ${list.length - 3} more...` : list.join(',');
      }),
      col('Endpoints', 'string', 'endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.', (o) => {
        const eps = Array.isArray(o['endpoints']) ? (o['endpoints'] as Array<Record<string, unknown>>) : [];
        const addrs = eps.flatMap((e) => (Array.isArray(e['addresses']) ? (e['addresses'] as string[]) : []));
        if (!addrs.length) return '<unset>';
        return addrs.length > 3 ? `${addrs.slice(0, 3).join(',')} + ${addrs.length - 3} more...` : addrs.join(',');
      }),
      ageColumn(),
    ],
  }] }],
};

export const flowcontrol: GroupSpec = {
  group: 'flowcontrol.apiserver.k8s.io',
  versions: [{ version: 'v1', resources: [
    { resource: 'flowschemas', kind: 'FlowSchema', namespaced: false, subresources: [statusSub], tableColumns: ac.flowSchemaColumns, strategy: withStatusGen },
    { resource: 'prioritylevelconfigurations', kind: 'PriorityLevelConfiguration', namespaced: false, subresources: [statusSub], tableColumns: ac.priorityLevelColumns, strategy: withStatusGen },
  ] }],
};

