/** Descriptions for storage.k8s.io, written for v1 and reused by v1beta1 and v1alpha1 (see ../define.ts). */
import { CLUSTER_OBJECT_METADATA, list } from './common.ts';

export const CSIDriver = {
  $: 'Tells Kubernetes how to treat a CSI volume driver installed in the cluster; named after the driver, such as ebs.csi.aws.com.',
  metadata: 'Standard object metadata; the name is the driver\'s CSI plugin name: at most 63 characters, alphanumerics, dashes and dots, starting and ending alphanumeric.',
  spec: 'How Kubernetes calls the driver.',
};

export const CSIDriverList = list('CSIDriver');

export const CSIDriverSpec = {
  $: 'The behaviour of a CSI driver as Kubernetes should handle it.',
  attachRequired: 'Whether volumes need an attach step (the driver implements ControllerPublishVolume), so that Kubernetes waits for a VolumeAttachment before mounting. Defaults to true; immutable.',
  podInfoOnMount: 'Whether the kubelet passes the pod\'s name, namespace, UID and ephemeral flag to the driver at mount time, as csi.storage.k8s.io/pod.* volume context entries. Defaults to false.',
  volumeLifecycleModes: 'Kinds of volumes the driver supports: Persistent (through PersistentVolumes) and Ephemeral (inline in a pod, living as long as it). Defaults to Persistent; immutable.',
  storageCapacity: 'Whether the driver publishes CSIStorageCapacity objects, so that the scheduler only picks nodes with enough capacity for late-bound volumes. Defaults to false.',
  fsGroupPolicy: 'Whether the volume\'s ownership and permissions are changed to the pod\'s fsGroup: ReadWriteOnceWithFSType (when an fsType is set and the access mode is ReadWriteOnce), File (always) or None (never). Defaults to ReadWriteOnceWithFSType.',
  tokenRequests: 'Service account tokens the kubelet requests for the pod and passes to the driver at mount time, one per audience.',
  requiresRepublish: 'Whether the kubelet should call NodePublishVolume periodically, for instance to pass refreshed tokens; later calls may only update the volume\'s contents. Defaults to false.',
  seLinuxMount: 'Whether the driver supports mounting each volume with its own -o context SELinux option, so the kubelet can skip relabeling files. Defaults to false.',
  nodeAllocatableUpdatePeriodSeconds: 'Seconds between refreshes of the driver\'s volume limit in CSINode, also refreshed after capacity-related attach failures; unset means never. At least 10; needs the MutableCSINodeAllocatableCount feature.',
};

export const CSINode = {
  $: 'Lists the CSI drivers registered on a node, as the kubelet reports them; named after the node.',
  metadata: 'Standard object metadata; the object shares its name with its Node, which owns it.',
  spec: 'The drivers registered on the node.',
};

export const CSINodeDriver = {
  $: 'What the kubelet reports about one CSI driver registered on its node.',
  name: 'Name of the driver, as its CSIDriver object and PersistentVolumes name it. Required.',
  nodeID: 'The node as the driver knows it, passed back to the driver in attach calls. Required.',
  topologyKeys: 'Node label keys the driver uses for topology, such as topology.kubernetes.io/zone; empty when it has none.',
  allocatable: 'How many volumes of this driver the node can take.',
};

export const CSINodeList = list('CSINode');

export const CSINodeSpec = {
  $: 'The CSI drivers of a node.',
  drivers: 'One entry per driver registered on the node, keyed by name; empty when none is.',
};

export const CSIStorageCapacity = {
  $: 'Capacity a CSI driver reports as available for one storage class in one topology segment; the scheduler uses it for volumes bound on first use.',
  metadata: 'Standard object metadata; the name carries no meaning, and the namespace is the driver\'s choice, usually that of its deployment.',
  nodeTopology: 'Nodes that can reach this capacity; unset means none, the empty selector means every node. Immutable.',
  storageClassName: 'StorageClass the capacity applies to. Required; immutable.',
  capacity: 'Capacity available for new volumes, as reported by the driver; unset means unknown, zero none.',
  maximumVolumeSize: 'Largest single volume that can be made from this capacity; unset means up to capacity.',
};

export const CSIStorageCapacityList = list('CSIStorageCapacity', 'CSIStorageCapacities');

export const StorageClass = {
  $: 'A class of storage that dynamically provisioned PersistentVolumes are made from, naming a provisioner and its parameters.',
  metadata: CLUSTER_OBJECT_METADATA,
  provisioner: 'Name of the volume plugin or CSI driver that creates the volumes. Required; immutable.',
  parameters: 'Provisioner-specific settings, such as a disk type; at most 512 entries and 256 KiB in total. Immutable.',
  reclaimPolicy: 'What happens to a volume provisioned from this class when its claim is deleted: Delete or Retain. Defaults to Delete; immutable.',
  mountOptions: 'Mount options given to volumes provisioned from this class, such as ro or soft; invalid ones make mounts fail. Not checked by the API.',
  allowVolumeExpansion: 'Whether claims of this class may be resized by raising their storage request.',
  volumeBindingMode: 'When volumes are provisioned and bound: Immediate (as soon as the claim exists) or WaitForFirstConsumer (once a pod using it is scheduled, honouring its constraints). Defaults to Immediate; immutable.',
  allowedTopologies: 'Topology segments (such as zones) volumes may be provisioned in; empty means anywhere.',
};

export const StorageClassList = list('StorageClass', 'StorageClasses');

export const TokenRequest = {
  $: 'A service account token the kubelet gets for a pod and hands to a CSI driver.',
  audience: 'Audience of the token; empty means the API server\'s audiences.',
  expirationSeconds: 'Lifetime of the token in seconds; defaults as for a TokenRequest, one hour.',
};

export const VolumeAttachment = {
  $: 'Asks for a volume to be attached to, or detached from, a node; made by the attach/detach controller and fulfilled by the driver\'s attacher.',
  metadata: CLUSTER_OBJECT_METADATA,
  spec: 'The volume, node and attacher. Immutable.',
  status: 'Whether the volume is attached and any error; written by the attacher.',
};

export const VolumeAttachmentList = list('VolumeAttachment');

export const VolumeAttachmentSource = {
  $: 'The volume to attach; exactly one field is set.',
  persistentVolumeName: 'The PersistentVolume to attach, by name.',
  inlineVolumeSpec: 'The volume\'s definition, for inline pod volumes migrated from an in-tree plugin to CSI.',
};

export const VolumeAttachmentSpec = {
  $: 'What to attach and where.',
  attacher: 'Name of the driver that must attach the volume, as its GetPluginName call returns it. Required.',
  source: 'The volume to attach. Required.',
  nodeName: 'Name of the node to attach the volume to. Required.',
};

export const VolumeAttachmentStatus = {
  $: 'The observed state of a VolumeAttachment; written only by the attacher.',
  attached: 'Whether the volume is attached.',
  attachmentMetadata: 'Information the attach call returned, passed on to later mount calls.',
  attachError: 'The last attach error, if any; cleared once attached.',
  detachError: 'The last detach error, if any; cleared once detached.',
};

export const VolumeError = {
  $: 'An error met while attaching or detaching a volume.',
  time: 'When the error happened.',
  message: 'Description of the error; may be logged, so it must hold no secrets.',
  errorCode: 'Numeric gRPC status code of the error, telling kubelet and scheduler how to react; needs the MutableCSINodeAllocatableCount feature.',
};

export const VolumeNodeResources = {
  $: 'Limits on volumes a node can take for one driver.',
  count: 'Most volumes of this driver that may be used on the node at once; unset means no limit.',
};

export const VolumeAttributesClass = {
  $: 'A set of driver-specific volume attributes (such as IOPS or throughput) that claims can name to set, or change, how their volume performs.',
  metadata: CLUSTER_OBJECT_METADATA,
  driverName: 'CSI driver that applies the class\'s parameters to volumes. Required; immutable.',
  parameters: 'Driver-specific attributes applied when a volume is created or modified with this class; unknown keys make the operation fail. At most 512 entries and 256 KiB. Immutable.',
};

export const VolumeAttributesClassList = list('VolumeAttributesClass', 'VolumeAttributesClasses');

