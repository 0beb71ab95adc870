/** apps: workload controllers. */
import type { GroupSpec } from '../../../api/resources/define.ts';
import type { KObject } from '../../../machinery/objects.ts';
import { scaleSub, statusSub } from '../../../api/resources/define.ts';
import * as cols from '../apps/columns.ts';
import { replicasSelectableFields } from '../core/columns.ts';
import { statusStrategy } from '../strategy-kit.ts';

import { daemonSetDefaults, deploymentDefaults, replicaSetDefaults, statefulSetDefaults } from '../apps/defaults.ts';

const workload = (defaults: (o: KObject) => void) => statusStrategy({ status: true, generation: true, allowCreateOnUpdate: true }, { defaults });

export const apps: GroupSpec = {
  group: 'apps',
  versions: [{
    version: 'v1',
    resources: [
      { resource: 'controllerrevisions', kind: 'ControllerRevision', namespaced: true, fields: ['data', 'revision'], tableColumns: cols.controllerRevisionColumns, strategy: statusStrategy({}) },
      {
        resource: 'daemonsets', kind: 'DaemonSet', namespaced: true, shortNames: ['ds'], categories: ['all'],
        subresources: [statusSub], tableColumns: cols.daemonSetColumns, strategy: workload(daemonSetDefaults),
      },
      {
        resource: 'deployments', kind: 'Deployment', namespaced: true, shortNames: ['deploy'], categories: ['all'],
        subresources: [scaleSub, statusSub], tableColumns: cols.deploymentColumns, strategy: workload(deploymentDefaults),
      },
      {
        resource: 'replicasets', kind: 'ReplicaSet', namespaced: true, shortNames: ['rs'], categories: ['all'],
        subresources: [scaleSub, statusSub], tableColumns: cols.replicaSetColumns, selectableFields: replicasSelectableFields, strategy: workload(replicaSetDefaults),
      },
      {
        resource: 'statefulsets', kind: 'StatefulSet', namespaced: true, shortNames: ['sts'], categories: ['all'],
        subresources: [scaleSub, statusSub], tableColumns: cols.statefulSetColumns, strategy: workload(statefulSetDefaults),
      },
    ],
  }],
};
