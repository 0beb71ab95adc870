/** scheduling.k8s.io: PriorityClasses. */
import type { GroupSpec } from '../../../api/resources/define.ts';
import * as oc from '../other/columns.ts';
import { statusStrategy } from '../strategy-kit.ts';

export const scheduling: GroupSpec = {
  group: 'scheduling.k8s.io',
  versions: [{ version: 'v1', resources: [{
    resource: 'priorityclasses', kind: 'PriorityClass', namespaced: false, shortNames: ['pc'], fields: ['value', 'globalDefault', 'description', 'preemptionPolicy'], tableColumns: oc.priorityClassColumns,
    strategy: statusStrategy({}, { defaults: (o) => { o['preemptionPolicy'] ??= 'PreemptLowerPriority'; } }),
  }] }],
};
