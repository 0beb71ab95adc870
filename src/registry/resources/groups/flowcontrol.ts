/** flowcontrol.apiserver.k8s.io: API priority and fairness configuration. */
import type { GroupSpec } from '../../../api/resources/define.ts';
import { statusSub } from '../../../api/resources/define.ts';
import * as ac from '../other/columns-admin.ts';
import { statusStrategy } from '../strategy-kit.ts';
import { flowSchemaDefaults, priorityLevelConfigurationDefaults } from '../flowcontrol/defaults.ts';

export const flowcontrol: GroupSpec = {
  group: 'flowcontrol.apiserver.k8s.io',
  versions: [{ version: 'v1', resources: [
    { resource: 'flowschemas', kind: 'FlowSchema', namespaced: false, subresources: [statusSub], tableColumns: ac.flowSchemaColumns, strategy: statusStrategy({ status: true, generation: true }, { defaults: flowSchemaDefaults }) },
    { resource: 'prioritylevelconfigurations', kind: 'PriorityLevelConfiguration', namespaced: false, subresources: [statusSub], tableColumns: ac.priorityLevelColumns, strategy: statusStrategy({ status: true, generation: true }, { defaults: priorityLevelConfigurationDefaults }) },
  ] }],
};
