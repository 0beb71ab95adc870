import { defineDocs } from './define.ts';
import { CLUSTER_OBJECT_METADATA, condition, list } from './shared/common.ts';

const { lastTransitionTime: _, ...migrationCondition } = condition('a storage version migration', 'One of Running, Succeeded or Failed.');

const docs = {
  GroupVersionResource: {
    $: 'Names a resource by API group, version and plural resource name.',
    group: 'API group of the resource; empty for the core group.',
    version: 'API version used to read and rewrite the objects.',
    resource: 'Plural resource name, such as deployments.',
  },
  MigrationCondition: {
    ...migrationCondition,
    lastUpdateTime: 'When this condition was last written (RFC 3339).',
  },
  StorageVersionMigration: {
    $: 'Asks the storage version migrator to rewrite every stored object of a resource, so that all are stored in the current storage version.',
    metadata: CLUSTER_OBJECT_METADATA,
    spec: 'The resource to migrate.',
    status: 'Conditions and progress of the migration; read-only.',
  },
  StorageVersionMigrationList: list('StorageVersionMigration'),
  StorageVersionMigrationSpec: {
    $: 'The desired migration.',
    resource: 'The resource whose objects are rewritten; the migrator calls the endpoint that serves it. Immutable.',
    continueToken: 'Continue token of the list page the migrator reads next; while the migration is Running it shows how far it got.',
  },
  StorageVersionMigrationStatus: {
    $: 'The observed progress of a StorageVersionMigration.',
    conditions: 'Conditions reported for the migration, one per type.',
    resourceVersion: 'The resource\'s current resourceVersion when the controller first saw this migration; objects up to it are migrated.',
  },
};

defineDocs('storagemigration.v1alpha1', docs);
export default docs;
