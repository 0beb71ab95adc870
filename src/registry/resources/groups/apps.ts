/** apps: workload controllers. */
import type { GroupSpec } from '../../../api/resources/define.ts';
import { scaleSub, statusSub } from '../../../api/resources/define.ts';
import * as cols from '../apps/columns.ts';
import { replicasSelectableFields } from '../core/columns.ts';
import { statusStrategy } from '../strategy-kit.ts';
import { daemonSetStrategy, deploymentStrategy, replicaSetStrategy, statefulSetStrategy } from '../apps/strategies.ts';

export const apps: GroupSpec = {
  group: 'apps',
  versions: [{
    version: 'v1',
    resources: [
      { resource: 'controllerrevisions', kind: 'ControllerRevision', namespaced: true, fields: ['data', 'revision'], tableColumns: cols.controllerRevisionColumns, strategy: statusStrategy({}) },
      {
        resource: 'daemonsets', kind: 'DaemonSet', namespaced: true, shortNames: ['ds'], categories: ['all'],
        subresources: [statusSub], tableColumns: cols.daemonSetColumns, strategy: daemonSetStrategy,
      },
      {
        resource: 'deployments', kind: 'Deployment', namespaced: true, shortNames: ['deploy'], categories: ['all'],
        subresources: [scaleSub, statusSub], tableColumns: cols.deploymentColumns, strategy: deploymentStrategy,
      },
      {
        resource: 'replicasets', kind: 'ReplicaSet', namespaced: true, shortNames: ['rs'], categories: ['all'],
        subresources: [scaleSub, statusSub], tableColumns: cols.replicaSetColumns, selectableFields: replicasSelectableFields, strategy: replicaSetStrategy,
      },
      {
        resource: 'statefulsets', kind: 'StatefulSet', namespaced: true, shortNames: ['sts'], categories: ['all'],
        subresources: [scaleSub, statusSub], tableColumns: cols.statefulSetColumns, strategy: statefulSetStrategy,
      },
    ],
  }],
};
