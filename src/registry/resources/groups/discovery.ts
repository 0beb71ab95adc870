/** discovery.k8s.io: EndpointSlices. */
import type { GroupSpec } from '../../../api/resources/define.ts';
import { genCOU } from '../shared-strategies.ts';
import { endpointSliceColumns } from '../other/columns.ts';
import { endpointSliceDefaults } from '../core/defaults.ts';

export const discovery: GroupSpec = {
  group: 'discovery.k8s.io',
  versions: [{ version: 'v1', resources: [{
    resource: 'endpointslices', kind: 'EndpointSlice', namespaced: true, fields: ['addressType', 'endpoints', 'ports'], strategy: { ...genCOU, defaults: endpointSliceDefaults },
    tableColumns: endpointSliceColumns,
  }] }],
};
