// Protobuf message descriptions of storage (field numbers, wire types, Go pointer-ness, inline embedding, merge
// markers) as Kubernetes v1.33 defines them; see ../schema.ts for the notation.
import { definePackage } from '../schema.ts';

definePackage('storage.v1', {
  CSIDriver: { metadata: '1 ObjectMeta', spec: '2 !CSIDriverSpec' },
  CSIDriverList: { metadata: '1 ListMeta', items: '2 ![]CSIDriver' },
  CSIDriverSpec: { attachRequired: '1 *bool', podInfoOnMount: '2 *bool', volumeLifecycleModes: '3 []string list=set', storageCapacity: '4 *bool', fsGroupPolicy: '5 *string', tokenRequests: '6 []TokenRequest list=atomic', requiresRepublish: '7 *bool', seLinuxMount: '8 *bool', nodeAllocatableUpdatePeriodSeconds: '9 *int64' },
  CSINode: { metadata: '1 ObjectMeta', spec: '2 !CSINodeSpec' },
  CSINodeDriver: { name: '1 !string', nodeID: '2 !string', topologyKeys: '3 ![]string list=atomic', allocatable: '4 *VolumeNodeResources' },
  CSINodeList: { metadata: '1 ListMeta', items: '2 ![]CSINode' },
  CSINodeSpec: { drivers: '1 ![]CSINodeDriver list=map(name) patch=merge(name)' },
  CSIStorageCapacity: { metadata: '1 ObjectMeta', nodeTopology: '2 *LabelSelector', storageClassName: '3 !string', capacity: '4 *Quantity', maximumVolumeSize: '5 *Quantity' },
  CSIStorageCapacityList: { metadata: '1 ListMeta', items: '2 ![]CSIStorageCapacity' },
  StorageClass: { metadata: '1 ObjectMeta', provisioner: '2 !string', parameters: '3 map<string,string>', reclaimPolicy: '4 *string', mountOptions: '5 []string list=atomic', allowVolumeExpansion: '6 *bool', volumeBindingMode: '7 *string', allowedTopologies: '8 []core.v1.TopologySelectorTerm list=atomic' },
  StorageClassList: { metadata: '1 ListMeta', items: '2 ![]StorageClass' },
  TokenRequest: { audience: '1 !string', expirationSeconds: '2 *int64' },
  VolumeAttachment: { metadata: '1 ObjectMeta', spec: '2 !VolumeAttachmentSpec', status: '3 VolumeAttachmentStatus' },
  VolumeAttachmentList: { metadata: '1 ListMeta', items: '2 ![]VolumeAttachment' },
  VolumeAttachmentSource: { persistentVolumeName: '1 *string', inlineVolumeSpec: '2 *core.v1.PersistentVolumeSpec' },
  VolumeAttachmentSpec: { attacher: '1 !string', source: '2 !VolumeAttachmentSource', nodeName: '3 !string' },
  VolumeAttachmentStatus: { attached: '1 !bool', attachmentMetadata: '2 map<string,string>', attachError: '3 *VolumeError', detachError: '4 *VolumeError' },
  VolumeError: { time: '1 Time', message: '2 string', errorCode: '3 *int32' },
  VolumeNodeResources: { count: '1 *int32' },
});

definePackage('storage.v1beta1', {
  CSIDriver: { metadata: '1 ObjectMeta', spec: '2 !CSIDriverSpec' },
  CSIDriverList: { metadata: '1 ListMeta', items: '2 ![]CSIDriver' },
  CSIDriverSpec: { attachRequired: '1 *bool', podInfoOnMount: '2 *bool', volumeLifecycleModes: '3 []string list=atomic', storageCapacity: '4 *bool', fsGroupPolicy: '5 *string', tokenRequests: '6 []TokenRequest list=atomic', requiresRepublish: '7 *bool', seLinuxMount: '8 *bool', nodeAllocatableUpdatePeriodSeconds: '9 *int64' },
  CSINode: { metadata: '1 ObjectMeta', spec: '2 !CSINodeSpec' },
  CSINodeDriver: { name: '1 !string', nodeID: '2 !string', topologyKeys: '3 ![]string list=atomic', allocatable: '4 *VolumeNodeResources' },
  CSINodeList: { metadata: '1 ListMeta', items: '2 ![]CSINode' },
  CSINodeSpec: { drivers: '1 ![]CSINodeDriver list=map(name) patch=merge(name)' },
  CSIStorageCapacity: { metadata: '1 ObjectMeta', nodeTopology: '2 *LabelSelector', storageClassName: '3 !string', capacity: '4 *Quantity', maximumVolumeSize: '5 *Quantity' },
  CSIStorageCapacityList: { metadata: '1 ListMeta', items: '2 ![]CSIStorageCapacity' },
  StorageClass: { metadata: '1 ObjectMeta', provisioner: '2 !string', parameters: '3 map<string,string>', reclaimPolicy: '4 *string', mountOptions: '5 []string list=atomic', allowVolumeExpansion: '6 *bool', volumeBindingMode: '7 *string', allowedTopologies: '8 []core.v1.TopologySelectorTerm list=atomic' },
  StorageClassList: { metadata: '1 ListMeta', items: '2 ![]StorageClass' },
  TokenRequest: { audience: '1 !string', expirationSeconds: '2 *int64' },
  VolumeAttachment: { metadata: '1 ObjectMeta', spec: '2 !VolumeAttachmentSpec', status: '3 VolumeAttachmentStatus' },
  VolumeAttachmentList: { metadata: '1 ListMeta', items: '2 ![]VolumeAttachment' },
  VolumeAttachmentSource: { persistentVolumeName: '1 *string', inlineVolumeSpec: '2 *core.v1.PersistentVolumeSpec' },
  VolumeAttachmentSpec: { attacher: '1 !string', source: '2 !VolumeAttachmentSource', nodeName: '3 !string' },
  VolumeAttachmentStatus: { attached: '1 !bool', attachmentMetadata: '2 map<string,string>', attachError: '3 *VolumeError', detachError: '4 *VolumeError' },
  VolumeAttributesClass: { metadata: '1 ObjectMeta', driverName: '2 !string', parameters: '3 map<string,string>' },
  VolumeAttributesClassList: { metadata: '1 ListMeta', items: '2 ![]VolumeAttributesClass' },
  VolumeError: { time: '1 Time', message: '2 string', errorCode: '3 *int32' },
  VolumeNodeResources: { count: '1 *int32' },
});

definePackage('storage.v1alpha1', {
  CSIStorageCapacity: { metadata: '1 ObjectMeta', nodeTopology: '2 *LabelSelector', storageClassName: '3 !string', capacity: '4 *Quantity', maximumVolumeSize: '5 *Quantity' },
  CSIStorageCapacityList: { metadata: '1 ListMeta', items: '2 ![]CSIStorageCapacity' },
  VolumeAttachment: { metadata: '1 ObjectMeta', spec: '2 !VolumeAttachmentSpec', status: '3 VolumeAttachmentStatus' },
  VolumeAttachmentList: { metadata: '1 ListMeta', items: '2 ![]VolumeAttachment' },
  VolumeAttachmentSource: { persistentVolumeName: '1 *string', inlineVolumeSpec: '2 *core.v1.PersistentVolumeSpec' },
  VolumeAttachmentSpec: { attacher: '1 !string', source: '2 !VolumeAttachmentSource', nodeName: '3 !string' },
  VolumeAttachmentStatus: { attached: '1 !bool', attachmentMetadata: '2 map<string,string>', attachError: '3 *VolumeError', detachError: '4 *VolumeError' },
  VolumeAttributesClass: { metadata: '1 ObjectMeta', driverName: '2 !string', parameters: '3 map<string,string>' },
  VolumeAttributesClassList: { metadata: '1 ListMeta', items: '2 ![]VolumeAttributesClass' },
  VolumeError: { time: '1 Time', message: '2 string', errorCode: '3 *int32' },
});

