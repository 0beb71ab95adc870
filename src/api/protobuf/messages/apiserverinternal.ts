// Protobuf message descriptions of apiserverinternal (field numbers, wire types, Go pointer-ness, inline embedding, merge
// markers) as Kubernetes v1.33 defines them; see ../schema.ts for the notation.
import { definePackage } from '../schema.ts';

definePackage('apiserverinternal.v1alpha1', {
  ServerStorageVersion: { apiServerID: '1 string', encodingVersion: '2 string', decodableVersions: '3 []string list=set', servedVersions: '4 []string list=set' },
  StorageVersion: { metadata: '1 ObjectMeta', spec: '2 !StorageVersionSpec', status: '3 !StorageVersionStatus' },
  StorageVersionCondition: { type: '1 !string', status: '2 !string', observedGeneration: '3 int64', lastTransitionTime: '4 Time', reason: '5 !string', message: '6 string' },
  StorageVersionList: { metadata: '1 ListMeta', items: '2 ![]StorageVersion' },
  StorageVersionSpec: {  },
  StorageVersionStatus: { storageVersions: '1 []ServerStorageVersion list=map(apiServerID)', commonEncodingVersion: '2 *string', conditions: '3 []StorageVersionCondition list=map(type)' },
});

