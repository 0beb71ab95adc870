/** policy: PodDisruptionBudgets. */
import type { GroupSpec } from '../../../api/resources/define.ts';
import { statusSub } from '../../../api/resources/define.ts';
import * as oc from '../other/columns.ts';
import { withStatusGenCOU } from '../shared-strategies.ts';

export const policy: GroupSpec = {
  group: 'policy',
  versions: [{ version: 'v1', resources: [{
    resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', namespaced: true, shortNames: ['pdb'], subresources: [statusSub],
    tableColumns: oc.podDisruptionBudgetColumns, strategy: withStatusGenCOU,
  }] }],
};
