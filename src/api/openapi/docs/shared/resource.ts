/**
 * Descriptions for resource.k8s.io (dynamic resource allocation), written for v1beta1 and reused by v1alpha3 and
 * v1beta2 where the fields mean the same (see ../define.ts).
 */
import { CLUSTER_OBJECT_METADATA, list, OBJECT_METADATA } from './common.ts';

const DRIVER = 'Name of the DRA driver, a DNS subdomain of at most 63 characters that should end in a domain its vendor owns, such as gpu.example.com.';
const POOL = 'Name of the resource pool the device belongs to, at most 253 characters: DNS subdomains separated by slashes.';
const DEVICE = 'Name of the device within its pool, a DNS label.';
const TOLERATIONS = 'Tolerations of device taints: a device with a NoSchedule taint is allocated only if tolerated, and a NoExecute taint evicts unless tolerated. At most 16; needs the DRADeviceTaints feature.';
const SELECTORS = 'CEL criteria a device must all meet to be picked, besides those of its class; at most 32.';
const ALLOCATION_MODE = 'ExactCount (allocate count devices) or All (every matching device of a pool, failing if some are already allocated, unless with adminAccess). Defaults to ExactCount.';
const COUNT = 'How many devices to allocate when allocationMode is ExactCount; positive. Defaults to 1.';
const CLASS = 'Name of the DeviceClass whose selectors and configuration apply to the devices picked. Required.';
const ADMIN_ACCESS = 'Requests access for monitoring or maintenance: the device is allocated even if already in use, without being taken from its other users. Only in namespaces labeled resource.k8s.io/admin-access=true; needs the DRAAdminAccess feature.';
const NODE_CHOICE = 'Set exactly one of allNodes, nodeName, nodeSelector or perDeviceNodeSelection.';

export const AllocatedDeviceStatus = {
  $: 'The state of one allocated device as its driver reports it, such as its network interface.',
  driver: DRIVER,
  pool: POOL,
  device: DEVICE,
  conditions: 'Conditions the driver reports for the device; Ready should be True once the device is set up as configured. At most 8.',
  data: 'Driver-specific data in any form; at most 10 KiB.',
  networkData: 'Network details of the device, for network-attached devices.',
};

export const AllocationResult = {
  $: 'The devices allocated to a claim and where they can be used.',
  devices: 'The devices allocated and their configuration.',
  nodeSelector: 'Nodes on which the allocated devices are reachable, and so where pods using the claim must run; unset means every node.',
};

export const DEVICE_FIELDS = {
  attributes: 'Attributes of the device that selectors can test, keyed by name (qualified, or short names that get the driver\'s domain); with capacity, at most 32 entries.',
  capacity: 'Amounts of the device\'s resources, such as memory, keyed by name like attributes; with attributes, at most 32 entries.',
  consumesCounters: 'Counters of the slice\'s shared counter sets that this device uses up when allocated, for partitionable devices; one entry per counter set, at most 32 counters. Needs the DRAPartitionableDevices feature.',
  nodeName: 'With perDeviceNodeSelection: the single node the device is reachable from. Exclusive with nodeSelector and allNodes.',
  nodeSelector: 'With perDeviceNodeSelection: the nodes the device is reachable from, as a selector with one term. Exclusive with nodeName and allNodes.',
  allNodes: 'With perDeviceNodeSelection: true when every node can reach the device. Exclusive with nodeName and nodeSelector.',
  taints: 'Taints of the device, which keep claims that do not tolerate them from getting it; at most 4. Needs the DRADeviceTaints feature.',
};

export const BasicDevice = {
  $: 'The properties of a device that is not subdivided further.',
  ...DEVICE_FIELDS,
};

export const CELDeviceSelector = {
  $: 'A device selection criterion written in CEL.',
  expression: 'CEL expression returning a bool, with device.driver, device.attributes["domain"].name and device.capacity["domain"].name in scope; true picks the device. At most 10 KiB, with a bounded cost. Required.',
};

export const Counter = {
  $: 'An amount of a shared resource.',
  value: 'The amount, as a quantity. Required.',
};

export const CounterSet = {
  $: 'Counters, under one name, that the partitions of a device draw from, so that overlapping partitions are not allocated together.',
  name: 'Name of the set, a DNS label unique in the slice. Required.',
  counters: 'The counters and their total amounts, keyed by DNS-label names; at most 32. Required.',
};

export const DeviceAllocationConfiguration = {
  $: 'A configuration handed to the driver for the devices allocated to some requests, copied in at allocation time.',
  source: 'Where the configuration came from: FromClass (a DeviceClass) or FromClaim (the claim). Required.',
  requests: 'Requests the configuration applies to; empty means all of them.',
};

export const DeviceAllocationResult = {
  $: 'Which devices were picked for a claim and the configuration that goes with them.',
  results: 'One entry per device allocated.',
  config: 'Configuration from the classes and the claim, in order, class ones first; the driver applies them in that order.',
};

export const DeviceAttribute = {
  $: 'The value of one device attribute; exactly one field is set.',
  int: 'An integer value.',
  bool: 'A boolean value.',
  string: 'A string value of at most 64 characters.',
  version: 'A semantic version (semver 2.0) of at most 64 characters.',
};

export const DeviceCapacity = {
  $: 'How much of some resource a device has.',
  value: 'The amount, as a quantity. Required.',
};

export const DeviceClaim = {
  $: 'The devices a ResourceClaim asks for, the constraints between them and their configuration.',
  requests: 'The requests, each for one or more devices; all must be satisfied. At most 32.',
  constraints: 'Conditions the allocated devices must meet together, such as sharing an attribute value; at most 32.',
  config: 'Configuration passed to the drivers of the devices; at most 32.',
};

export const DeviceClaimConfiguration = {
  $: 'Configuration a claim gives for the devices of some of its requests.',
  requests: 'Names of the requests (or request/subrequest) it applies to; empty means all of them.',
};

export const DeviceClass = {
  $: 'A kind of device that claims can ask for, defined by administrators through selectors and default configuration.',
  metadata: CLUSTER_OBJECT_METADATA,
  spec: 'How devices of the class are picked and configured.',
};

export const DeviceClassConfiguration = {
  $: 'Configuration a DeviceClass gives to every device allocated through it.',
};

export const DeviceClassList = list('DeviceClass', 'DeviceClasses');

export const DeviceClassSpec = {
  $: 'The desired behaviour of a DeviceClass; its changes affect only later allocations.',
  selectors: 'CEL criteria every device of the class must meet; at most 32.',
  config: 'Configuration handed to the drivers of devices of this class, before any from the claim; at most 32.',
};

export const DeviceConfiguration = {
  $: 'A configuration for devices; today it is always driver-specific and opaque.',
  opaque: 'Configuration in a form only the driver understands.',
};

export const DeviceConstraint = {
  $: 'A condition that the devices allocated for some requests must meet together.',
  requests: 'Requests whose devices the constraint covers; empty means every request of the claim.',
  matchAttribute: 'Fully qualified attribute, such as example.com/numaNode, that all the devices must have with the same value; a device lacking it cannot be picked.',
};

export const DeviceCounterConsumption = {
  $: 'How much of the counters of one counter set a device uses.',
  counterSet: 'Name of the counter set in the slice. Required.',
  counters: 'The amounts used, keyed by counter name; at most 32. Required.',
};

export const DeviceRequest = {
  $: 'Asks for devices of one class, optionally narrowed by selectors, or for the first satisfiable of several alternatives.',
  name: 'Name of the request, a DNS label unique in the claim; constraints, config and containers refer to it. Required.',
  deviceClassName: `${CLASS.replace(' Required.', '')} Required unless firstAvailable is given.`,
  selectors: SELECTORS,
  allocationMode: ALLOCATION_MODE,
  count: COUNT,
  adminAccess: ADMIN_ACCESS,
  firstAvailable: 'Alternative requests tried in order, the first one that can be satisfied being used; exclusive with the other fields but name. At most 8; needs the DRAPrioritizedList feature.',
  tolerations: TOLERATIONS,
};

export const DeviceRequestAllocationResult = {
  $: 'One device allocated for a request.',
  request: 'Name of the request it satisfies, or request/subrequest for an alternative from firstAvailable. Required.',
  driver: DRIVER,
  pool: POOL,
  device: DEVICE,
  adminAccess: 'Whether this device was handed out for administrative access, as the request asked.',
  tolerations: 'The tolerations of the request at allocation time, kept since taints are checked again later.',
};

export const DeviceSelector = {
  $: 'One criterion for picking devices.',
  cel: 'The criterion as a CEL expression over the device\'s driver, attributes and capacity.',
};

export const DeviceSubRequest = {
  $: 'One alternative of a request\'s firstAvailable list: a class, selectors and a count.',
  name: 'Name of the alternative, a DNS label unique within the request; referred to as request/subrequest. Required.',
  deviceClassName: CLASS,
  selectors: SELECTORS,
  allocationMode: ALLOCATION_MODE,
  count: COUNT,
  tolerations: TOLERATIONS,
};

export const DeviceTaint = {
  $: 'A taint on a device, which claims must tolerate to get or keep it.',
  key: 'Taint key, in the form of a label name such as example.com/broken. Required.',
  value: 'Taint value, a label value of at most 63 characters.',
  effect: 'NoSchedule (do not allocate the device to claims without a toleration) or NoExecute (also evict pods whose claims use it). Required.',
  timeAdded: 'When the taint was added; set automatically for NoExecute taints.',
};

export const DeviceToleration = {
  $: 'Lets a request get, or keep, devices with matching taints.',
  key: 'Taint key matched, in the form of a label name; empty with operator Exists matches every taint.',
  operator: 'Exists (any value) or Equal (the value must match). Defaults to Equal.',
  value: 'Value the taint must have with Equal; empty with Exists.',
  effect: 'Taint effect matched, NoSchedule or NoExecute; empty matches both.',
  tolerationSeconds: 'With effect NoExecute: seconds the device stays allocated after the taint appears; unset means forever, 0 or less evicts at once.',
};

export const NetworkDeviceData = {
  $: 'Network details of an allocated device.',
  interfaceName: 'Name of the network interface set up in the pod for the device; at most 256 characters.',
  ips: 'Addresses of that interface in CIDR form, such as 192.0.2.5/24 or 2001:db8::5/64; at most 16.',
  hardwareAddress: 'Hardware (MAC) address of the interface; at most 128 characters.',
};

export const OpaqueDeviceConfiguration = {
  $: 'A configuration only a driver understands.',
  driver: `${DRIVER} The configuration goes only to this driver. Required.`,
  parameters: 'The configuration as a JSON object, ideally with apiVersion and kind so the driver can decode it; at most 10 KiB. Required.',
};

export const ResourceClaim = {
  $: 'A request for devices, such as GPUs, on behalf of pods; the scheduler allocates matching devices and the pods that reference it share them.',
  metadata: OBJECT_METADATA,
  spec: 'The devices wanted. Immutable.',
  status: 'The allocation, the pods using the claim and the state of its devices; written by the scheduler and drivers.',
};

export const ResourceClaimConsumerReference = {
  $: 'An object, usually a Pod, that uses a ResourceClaim; it lives in the claim\'s namespace.',
  apiGroup: 'API group of the object; empty for the core group.',
  resource: 'Plural resource name of the object, such as pods. Required.',
  name: 'The object\'s name. Required.',
  uid: 'UID of the object, telling it from a later one of the same name. Required.',
};

export const ResourceClaimList = list('ResourceClaim');

export const ResourceClaimSpec = {
  $: 'What a ResourceClaim asks for.',
  devices: 'The devices wanted.',
};

export const ResourceClaimStatus = {
  $: 'The observed state of a ResourceClaim.',
  allocation: 'The devices allocated, once the claim is allocated.',
  reservedFor: 'Consumers allowed to use the claim, keyed by UID; a pod runs only once listed. At most 256; the claim is deallocated when the list empties.',
  devices: 'Status reported by the drivers for each allocated device.',
};

export const ResourceClaimTemplate = {
  $: 'A template from which a ResourceClaim is made for each pod that references it, and deleted with the pod.',
  metadata: OBJECT_METADATA,
  spec: 'Metadata and spec of the claims made. Immutable.',
};

export const ResourceClaimTemplateList = list('ResourceClaimTemplate');

export const ResourceClaimTemplateSpec = {
  $: 'The ResourceClaim made from a template.',
  metadata: 'Labels and annotations copied into each claim; names are generated from the pod\'s.',
  spec: 'Spec copied into each claim.',
};

export const ResourcePool = {
  $: 'Identifies the pool a ResourceSlice describes part of, and how many slices make up the pool now.',
  name: 'Name of the pool, often the node name; at most 253 characters, DNS subdomains separated by slashes. Required; immutable.',
  generation: 'Bumped by the driver when the pool changes; slices with an older generation are stale and ignored.',
  resourceSliceCount: 'How many slices the pool has at this generation, so that consumers know when they have seen all of it. Required.',
};

export const ResourceSlice = {
  $: 'Part or all of a pool of devices that a DRA driver publishes, with their attributes and where they can be used.',
  metadata: CLUSTER_OBJECT_METADATA,
  spec: 'The driver, pool, node scope and devices.',
};

export const ResourceSliceList = list('ResourceSlice');

export const ResourceSliceSpec = {
  $: 'The devices of a ResourceSlice and where they can be reached.',
  driver: `${DRIVER} Required; immutable.`,
  pool: 'Which pool, and which generation of it, the slice is part of. Required.',
  nodeName: `Node whose devices these are, for node-local devices. ${NODE_CHOICE} Immutable.`,
  nodeSelector: `Nodes the devices can be reached from, as a selector with one term. ${NODE_CHOICE}`,
  allNodes: `True when every node can reach the devices. ${NODE_CHOICE}`,
  devices: 'The devices in this slice; at most 128.',
  perDeviceNodeSelection: `True when each device says which nodes reach it (nodeName, nodeSelector or allNodes of the device). ${NODE_CHOICE} Needs the DRAPartitionableDevices feature.`,
  sharedCounters: 'Counter sets that devices of the slice draw from when allocated; at most 32 sets and 1024 counters per slice. Needs the DRAPartitionableDevices feature.',
};

/** The parts all three versions share as they are. */
export const COMMON = {
  AllocatedDeviceStatus, AllocationResult, CELDeviceSelector, Counter, CounterSet, DeviceAllocationConfiguration,
  DeviceAllocationResult, DeviceAttribute, DeviceClaim, DeviceClaimConfiguration, DeviceClass, DeviceClassConfiguration,
  DeviceClassList, DeviceClassSpec, DeviceConfiguration, DeviceConstraint, DeviceCounterConsumption,
  DeviceRequestAllocationResult, DeviceSelector, DeviceSubRequest, DeviceTaint, DeviceToleration, NetworkDeviceData,
  OpaqueDeviceConfiguration, ResourceClaim, ResourceClaimConsumerReference, ResourceClaimList, ResourceClaimSpec,
  ResourceClaimStatus, ResourceClaimTemplate, ResourceClaimTemplateList, ResourceClaimTemplateSpec, ResourcePool,
  ResourceSlice, ResourceSliceList, ResourceSliceSpec,
};
