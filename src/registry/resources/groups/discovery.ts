/** discovery.k8s.io: EndpointSlices. */
import type { GroupSpec } from '../../../api/resources/define.ts';
import { endpointSliceColumns } from '../other/columns.ts';
import { endpointSliceDefaults } from '../core/defaults.ts';
import { statusStrategy } from '../strategy-kit.ts';
import { jsonEqual } from '../../object-utils.ts';

/**
 * kube's endpointslice strategy: generation 1 on create, +1 when anything but metadata changes (the generic
 * rule) or when the labels change (they select the Service the slice belongs to).
 */
const endpointSliceStrategy = statusStrategy({
  generation: true, allowCreateOnUpdate: true,
  onUpdate(obj, old) {
    if (!jsonEqual(obj.metadata.labels ?? {}, old.metadata.labels ?? {})) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
  },
}, { defaults: endpointSliceDefaults });

export const discovery: GroupSpec = {
  group: 'discovery.k8s.io',
  versions: [{ version: 'v1', resources: [{
    resource: 'endpointslices', kind: 'EndpointSlice', namespaced: true, fields: ['addressType', 'endpoints', 'ports'], strategy: endpointSliceStrategy,
    tableColumns: endpointSliceColumns,
  }] }],
};
