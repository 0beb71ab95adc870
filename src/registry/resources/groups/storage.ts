/** storage.k8s.io: storage classes, CSI objects and volume attachments. */
import type { GroupSpec } from '../../../api/resources/define.ts';
import { statusSub } from '../../../api/resources/define.ts';
import * as oc from '../other/columns.ts';
import * as ac from '../other/columns-admin.ts';
import { statusStrategy } from '../strategy-kit.ts';
import { plain, withStatus } from '../shared-strategies.ts';
import { csiDriverDefaults, storageClassDefaults } from '../storage/defaults.ts';

export const storage: GroupSpec = {
  group: 'storage.k8s.io',
  versions: [{ version: 'v1', resources: [
    { resource: 'csidrivers', kind: 'CSIDriver', namespaced: false, strategy: statusStrategy({}, { defaults: csiDriverDefaults }) },
    { resource: 'csinodes', kind: 'CSINode', namespaced: false, tableColumns: ac.csiNodeColumns, strategy: plain },
    { resource: 'csistoragecapacities', kind: 'CSIStorageCapacity', namespaced: true, fields: ['nodeTopology', 'storageClassName', 'capacity', 'maximumVolumeSize'], tableColumns: ac.csiStorageCapacityColumns, strategy: plain },
    {
      resource: 'storageclasses', kind: 'StorageClass', namespaced: false, shortNames: ['sc'],
      fields: ['provisioner', 'parameters', 'reclaimPolicy', 'mountOptions', 'allowVolumeExpansion', 'volumeBindingMode', 'allowedTopologies'], tableColumns: oc.storageClassColumns,
      strategy: statusStrategy({}, { defaults: storageClassDefaults }),
    },
    { resource: 'volumeattachments', kind: 'VolumeAttachment', namespaced: false, subresources: [statusSub], tableColumns: ac.volumeAttachmentColumns, strategy: withStatus },
  ] }],
};
