/** apps: workload controllers. */
import type { GroupSpec } from './define.ts';
import { scaleSub, statusSub } from './define.ts';
import * as cols from '../../registry/resources/apps/columns.ts';
import { replicasSelectableFields } from '../../registry/resources/core/columns.ts';
import { statusStrategy } from '../../registry/resources/strategy-kit.ts';

const workload = statusStrategy({ status: true, generation: true, allowCreateOnUpdate: true });

export const apps: GroupSpec = {
  group: 'apps',
  versions: [{
    version: 'v1',
    resources: [
      { resource: 'controllerrevisions', kind: 'ControllerRevision', namespaced: true, tableColumns: cols.controllerRevisionColumns, strategy: statusStrategy({}) },
      {
        resource: 'daemonsets', kind: 'DaemonSet', namespaced: true, shortNames: ['ds'], categories: ['all'],
        subresources: [statusSub], tableColumns: cols.daemonSetColumns, strategy: workload,
      },
      {
        resource: 'deployments', kind: 'Deployment', namespaced: true, shortNames: ['deploy'], categories: ['all'],
        subresources: [scaleSub, statusSub], tableColumns: cols.deploymentColumns, strategy: workload,
      },
      {
        resource: 'replicasets', kind: 'ReplicaSet', namespaced: true, shortNames: ['rs'], categories: ['all'],
        subresources: [scaleSub, statusSub], tableColumns: cols.replicaSetColumns, selectableFields: replicasSelectableFields, strategy: workload,
      },
      {
        resource: 'statefulsets', kind: 'StatefulSet', namespaced: true, shortNames: ['sts'], categories: ['all'],
        subresources: [scaleSub, statusSub], tableColumns: cols.statefulSetColumns, strategy: workload,
      },
    ],
  }],
};
