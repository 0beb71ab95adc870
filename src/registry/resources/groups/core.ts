/** The core (legacy) group, served under /api/v1. */
import type { GroupSpec } from '../../../api/resources/define.ts';
import type { GroupVersionKind } from '../../../machinery/objects.ts';
import type { Verb } from '../../../api/types.ts';
import { SUB_VERBS, statusSub, scaleSub } from '../../../api/resources/define.ts';
import { podColumns, podSelectableFields, podStrategy } from '../core/pods.ts';
import * as cols from '../core/columns.ts';
import * as st from '../core/strategies.ts';

/** What proxy sub-resources serve: every HTTP method but watch/list. */
const PROXY_VERBS: Verb[] = ['create', 'delete', 'get', 'patch', 'update'];
const coreKind = (kind: string): GroupVersionKind => ({ group: '', version: 'v1', kind });

export const core: GroupSpec = {
  group: '',
  versions: [{
    version: 'v1',
    resources: [
      // Binds a pod to a node (the scheduler's legacy form of pods/binding); nothing of its own is stored.
      { resource: 'bindings', kind: 'Binding', namespaced: true, virtual: true, fields: ['target'] },
      {
        resource: 'componentstatuses', kind: 'ComponentStatus', singular: 'componentstatus', namespaced: false, shortNames: ['cs'],
        virtual: true, verbs: ['get', 'list'], fields: ['conditions'], tableColumns: cols.componentStatusColumns,
        deprecation: { warning: 'v1 ComponentStatus is deprecated in v1.19+' },
      },
      { resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], fields: ['data', 'binaryData', 'immutable'], tableColumns: cols.configMapColumns, strategy: st.configMapsStrategy },
      {
        resource: 'endpoints', kind: 'Endpoints', singular: 'endpoints', namespaced: true, shortNames: ['ep'],
        storagePrefix: '/registry/services/endpoints/', fields: ['subsets'], tableColumns: cols.endpointsColumns, strategy: st.endpointsStrategy,
        deprecation: { warning: 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice' },
      },
      {
        resource: 'events', kind: 'Event', namespaced: true, shortNames: ['ev'], tableColumns: cols.eventColumns,
        fields: ['involvedObject', 'reason', 'message', 'source', 'firstTimestamp', 'lastTimestamp', 'count', 'type', 'eventTime', 'series', 'action', 'related', 'reportingComponent', 'reportingInstance'],
        selectableFields: cols.eventSelectableFields, strategy: st.eventsStrategy,
      },
      { resource: 'limitranges', kind: 'LimitRange', namespaced: true, shortNames: ['limits'], strategy: st.limitRangesStrategy },
      {
        resource: 'namespaces', kind: 'Namespace', namespaced: false, shortNames: ['ns'], nameRule: 'dns1123-label',
        verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
        subresources: [{ name: 'finalize', verbs: ['update'] }, statusSub],
        tableColumns: cols.namespaceColumns, selectableFields: cols.namespaceSelectableFields, strategy: st.namespaceStrategy,
      },
      {
        resource: 'nodes', kind: 'Node', namespaced: false, shortNames: ['no'], storagePrefix: '/registry/minions/',
        subresources: [{ name: 'proxy', kind: coreKind('NodeProxyOptions'), verbs: PROXY_VERBS }, statusSub], tableColumns: cols.nodeColumns, selectableFields: cols.nodeSelectableFields, strategy: st.nodesStrategy,
      },
      {
        resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', namespaced: true, shortNames: ['pvc'],
        subresources: [statusSub], tableColumns: cols.persistentVolumeClaimColumns, strategy: st.pvcStrategy,
      },
      {
        resource: 'persistentvolumes', kind: 'PersistentVolume', namespaced: false, shortNames: ['pv'],
        subresources: [statusSub], tableColumns: cols.persistentVolumeColumns, strategy: st.pvStrategy,
      },
      {
        resource: 'pods', kind: 'Pod', namespaced: true, shortNames: ['po'], categories: ['all'], returnDeletedObject: true,
        subresources: [
          { name: 'attach', kind: coreKind('PodAttachOptions'), verbs: ['create', 'get'] },
          { name: 'binding', kind: coreKind('Binding'), verbs: ['create'], table: false },
          { name: 'ephemeralcontainers', verbs: SUB_VERBS },
          { name: 'eviction', kind: { group: 'policy', version: 'v1', kind: 'Eviction' }, verbs: ['create'], table: false },
          { name: 'exec', kind: coreKind('PodExecOptions'), verbs: ['create', 'get'] },
          { name: 'log', verbs: ['get'] },
          { name: 'portforward', kind: coreKind('PodPortForwardOptions'), verbs: ['create', 'get'] },
          { name: 'proxy', kind: coreKind('PodProxyOptions'), verbs: PROXY_VERBS },
          { name: 'resize', verbs: SUB_VERBS },
          statusSub,
        ],
        tableColumns: podColumns, selectableFields: podSelectableFields, strategy: podStrategy,
      },
      { resource: 'podtemplates', kind: 'PodTemplate', namespaced: true, fields: ['template'], tableColumns: cols.podTemplateColumns, strategy: st.podTemplatesStrategy },
      {
        resource: 'replicationcontrollers', kind: 'ReplicationController', namespaced: true, shortNames: ['rc'], categories: ['all'],
        storagePrefix: '/registry/controllers/', subresources: [scaleSub, statusSub],
        tableColumns: cols.replicationControllerColumns, selectableFields: cols.replicasSelectableFields, strategy: st.rcStrategy,
      },
      {
        resource: 'resourcequotas', kind: 'ResourceQuota', namespaced: true, shortNames: ['quota'], subresources: [statusSub],
        tableColumns: cols.resourceQuotaColumns, strategy: st.resourceQuotaStrategy,
      },
      {
        resource: 'secrets', kind: 'Secret', namespaced: true, tableColumns: cols.secretColumns, fields: ['data', 'stringData', 'type', 'immutable'],
        selectableFields: cols.secretSelectableFields, strategy: st.secretsStrategy,
      },
      {
        resource: 'serviceaccounts', kind: 'ServiceAccount', namespaced: true, shortNames: ['sa'], returnDeletedObject: true, fields: ['secrets', 'imagePullSecrets', 'automountServiceAccountToken'],
        subresources: [{ name: 'token', kind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' }, verbs: ['create'], table: false }],
        tableColumns: cols.serviceAccountColumns, strategy: st.plainStrategy,
      },
      {
        resource: 'services', kind: 'Service', namespaced: true, shortNames: ['svc'], categories: ['all'], returnDeletedObject: true,
        nameRule: 'dns1035-label', storagePrefix: '/registry/services/specs/',
        subresources: [{ name: 'proxy', kind: coreKind('ServiceProxyOptions'), verbs: PROXY_VERBS }, statusSub],
        tableColumns: cols.serviceColumns, strategy: st.servicesStrategy,
      },
    ],
  }],
};
