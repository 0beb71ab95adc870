import { defineDocs } from './define.ts';
import { CLUSTER_OBJECT_METADATA, condition, list, OBSERVED_GENERATION } from './shared/common.ts';

const docs = {
  ServerStorageVersion: {
    $: 'The encoding and decoding versions of one resource in one API server instance.',
    apiServerID: 'Identity of the API server instance reporting these versions.',
    encodingVersion: 'Group/version the server writes objects of this resource in when storing them.',
    decodableVersions: 'Group/versions the server can read stored objects from; always includes encodingVersion.',
    servedVersions: 'Group/versions of this resource the server serves to clients; a subset of decodableVersions.',
  },
  StorageVersion: {
    $: 'Records, for one resource, the version each API server instance stores it in, so that storage migration knows when all agree. Named <group>.<resource>.',
    metadata: CLUSTER_OBJECT_METADATA,
    spec: 'Empty: a StorageVersion has nothing to configure.',
    status: 'The storage versions reported by the API servers; written by the servers themselves.',
  },
  StorageVersionCondition: {
    ...condition('a StorageVersion', 'AllEncodingVersionsEqual is the one set today.'),
    observedGeneration: OBSERVED_GENERATION,
  },
  StorageVersionList: list('StorageVersion'),
  StorageVersionSpec: {
    $: 'The spec of a StorageVersion, which has no fields.',
  },
  StorageVersionStatus: {
    $: 'The storage versions of one resource across API server instances.',
    storageVersions: 'One entry per API server instance, keyed by apiServerID.',
    commonEncodingVersion: 'The encoding version every instance agrees on; unset while they differ.',
    conditions: 'Conditions reported for the storage version, one per type.',
  },
};

defineDocs('apiserverinternal.v1alpha1', docs);
export default docs;
