/** coordination.k8s.io: Leases. */
import type { GroupSpec } from './define.ts';
import * as oc from '../../registry/resources/other/columns.ts';
import { plainCOU } from '../../registry/resources/shared-strategies.ts';

export const coordination: GroupSpec = {
  group: 'coordination.k8s.io',
  versions: [{ version: 'v1', resources: [{
    resource: 'leases', kind: 'Lease', namespaced: true, tableColumns: oc.leaseColumns, strategy: plainCOU,
  }] }],
};
