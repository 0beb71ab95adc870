/** flowcontrol.apiserver.k8s.io: API priority and fairness configuration. */
import type { GroupSpec } from './define.ts';
import { statusSub } from './define.ts';
import * as ac from '../../registry/resources/other/columns-admin.ts';
import { withStatusGen } from '../../registry/resources/shared-strategies.ts';

export const flowcontrol: GroupSpec = {
  group: 'flowcontrol.apiserver.k8s.io',
  versions: [{ version: 'v1', resources: [
    { resource: 'flowschemas', kind: 'FlowSchema', namespaced: false, subresources: [statusSub], tableColumns: ac.flowSchemaColumns, strategy: withStatusGen },
    { resource: 'prioritylevelconfigurations', kind: 'PriorityLevelConfiguration', namespaced: false, subresources: [statusSub], tableColumns: ac.priorityLevelColumns, strategy: withStatusGen },
  ] }],
};
