/** batch: jobs and cron jobs. */
import type { GroupSpec } from '../../../api/resources/define.ts';
import { statusSub } from '../../../api/resources/define.ts';
import { cronJobColumns, jobColumns, jobSelectableFields } from '../batch/columns.ts';
import { cronJobStrategy, jobStrategy } from '../batch/strategies.ts';

export const batch: GroupSpec = {
  group: 'batch',
  versions: [{
    version: 'v1',
    resources: [
      {
        resource: 'cronjobs', kind: 'CronJob', namespaced: true, shortNames: ['cj'], categories: ['all'], subresources: [statusSub],
        tableColumns: cronJobColumns, strategy: cronJobStrategy,
      },
      {
        resource: 'jobs', kind: 'Job', namespaced: true, categories: ['all'], subresources: [statusSub],
        tableColumns: jobColumns, selectableFields: jobSelectableFields, strategy: jobStrategy,
      },
    ],
  }],
};
