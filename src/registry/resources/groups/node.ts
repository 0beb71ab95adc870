/** node.k8s.io: RuntimeClasses. */
import type { GroupSpec } from '../../../api/resources/define.ts';
import * as oc from '../other/columns.ts';
import { plainCOU } from '../shared-strategies.ts';

export const node: GroupSpec = {
  group: 'node.k8s.io',
  versions: [{ version: 'v1', resources: [{
    resource: 'runtimeclasses', kind: 'RuntimeClass', namespaced: false, fields: ['handler', 'overhead', 'scheduling'], tableColumns: oc.runtimeClassColumns, strategy: plainCOU,
  }] }],
};
