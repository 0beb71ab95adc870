// Protobuf message descriptions of storagemigration (field numbers, wire types, Go pointer-ness, inline embedding, merge
// markers) as Kubernetes v1.33 defines them; see ../schema.ts for the notation.
import { definePackage } from '../schema.ts';

definePackage('storagemigration.v1alpha1', {
  GroupVersionResource: { group: '1 string', version: '2 string', resource: '3 string' },
  MigrationCondition: { type: '1 !string', status: '2 !string', lastUpdateTime: '3 Time', reason: '4 string', message: '5 string' },
  StorageVersionMigration: { metadata: '1 ObjectMeta', spec: '2 StorageVersionMigrationSpec', status: '3 StorageVersionMigrationStatus' },
  StorageVersionMigrationList: { metadata: '1 ListMeta', items: '2 ![]StorageVersionMigration list=map(type) patch=merge(type)' },
  StorageVersionMigrationSpec: { resource: '1 !GroupVersionResource', continueToken: '2 string' },
  StorageVersionMigrationStatus: { conditions: '1 []MigrationCondition list=map(type) patch=merge(type)', resourceVersion: '2 string' },
});

