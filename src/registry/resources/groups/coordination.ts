/** coordination.k8s.io: Leases. */
import type { GroupSpec } from '../../../api/resources/define.ts';
import * as oc from '../other/columns.ts';
import { plainCOU } from '../shared-strategies.ts';

export const coordination: GroupSpec = {
  group: 'coordination.k8s.io',
  versions: [{ version: 'v1', resources: [{
    resource: 'leases', kind: 'Lease', namespaced: true, tableColumns: oc.leaseColumns, strategy: plainCOU,
  }] }],
};
