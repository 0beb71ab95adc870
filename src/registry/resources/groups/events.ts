/** events.k8s.io: the newer Event API, stored as core/v1 Events under /registry/events/. */
import type { GroupSpec } from '../../../api/resources/define.ts';
import { eventColumns, eventSelectableFields } from '../core/columns.ts';
import { statusStrategy } from '../strategy-kit.ts';

export const events: GroupSpec = {
  group: 'events.k8s.io',
  versions: [{ version: 'v1', resources: [{
    // Stored as core/v1 Events in the same keys (kube's events.k8s.io shares /registry/events/).
    resource: 'events', kind: 'Event', namespaced: true, shortNames: ['ev'], storage: { group: '', version: 'v1' },
    fields: ['eventTime', 'series', 'reportingController', 'reportingInstance', 'action', 'reason', 'regarding', 'related', 'note', 'type', 'deprecatedSource', 'deprecatedFirstTimestamp', 'deprecatedLastTimestamp', 'deprecatedCount'],
    strategy: statusStrategy({ allowCreateOnUpdate: true, gcPolicy: 'unsupported' }),
    tableColumns: eventColumns,
    // Field selectors run on stored (core/v1) objects: the events.k8s.io names read the core fields.
    selectableFields: {
      reason: eventSelectableFields['reason']!,
      type: eventSelectableFields['type']!,
      reportingController: eventSelectableFields['reportingComponent']!,
      'regarding.kind': eventSelectableFields['involvedObject.kind']!,
      'regarding.namespace': eventSelectableFields['involvedObject.namespace']!,
      'regarding.name': eventSelectableFields['involvedObject.name']!,
      'regarding.uid': eventSelectableFields['involvedObject.uid']!,
      'regarding.apiVersion': eventSelectableFields['involvedObject.apiVersion']!,
      'regarding.resourceVersion': eventSelectableFields['involvedObject.resourceVersion']!,
      'regarding.fieldPath': eventSelectableFields['involvedObject.fieldPath']!,
    },
  }] }],
};
