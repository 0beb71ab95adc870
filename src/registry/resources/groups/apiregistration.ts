/** apiregistration.k8s.io: API services (the aggregation layer's registry; stored under its group). */
import type { GroupSpec } from '../../../api/resources/define.ts';
import { statusSub, API_EXT } from '../../../api/resources/define.ts';
import * as ac from '../other/columns-admin.ts';
import { statusStrategy } from '../strategy-kit.ts';

export const apiregistration: GroupSpec = {
  group: 'apiregistration.k8s.io',
  versions: [{ version: 'v1', resources: [{
    resource: 'apiservices', kind: 'APIService', namespaced: false, categories: API_EXT, subresources: [statusSub],
    storagePrefix: '/registry/apiregistration.k8s.io/apiservices/', nameRule: 'path-segment', tableColumns: ac.apiServiceColumns,
    strategy: statusStrategy({ status: true, allowUnconditionalUpdate: false }),
  }] }],
};
