/** policy: PodDisruptionBudgets. */
import type { GroupSpec } from './define.ts';
import { statusSub } from './define.ts';
import * as oc from '../../registry/resources/other/columns.ts';
import { withStatusGenCOU } from '../../registry/resources/shared-strategies.ts';

export const policy: GroupSpec = {
  group: 'policy',
  versions: [{ version: 'v1', resources: [{
    resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', namespaced: true, shortNames: ['pdb'], subresources: [statusSub],
    tableColumns: oc.podDisruptionBudgetColumns, strategy: withStatusGenCOU,
  }] }],
};
