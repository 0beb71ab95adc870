import { defineDocs } from './define.ts';
import * as r from './shared/resource.ts';

const docs = {
  ...r.COMMON,
  Device: {
    $: 'One device in a ResourceSlice, with its attributes, capacity and where it can be used.',
    name: 'Name of the device, a DNS label unique in the pool. Required.',
    ...r.DEVICE_FIELDS,
  },
  DeviceCapacity: r.DeviceCapacity,
  DeviceRequest: {
    $: 'A request for devices: either exactly what is wanted, or an ordered list of alternatives.',
    name: r.DeviceRequest.name,
    exactly: 'The devices wanted, when there is one way to satisfy the request; exclusive with firstAvailable.',
    firstAvailable: 'Alternative requests tried in order, the first that can be satisfied being used; exclusive with exactly. At most 8; needs the DRAPrioritizedList feature.',
  },
  ExactDeviceRequest: {
    $: 'A request for devices of one class, optionally narrowed by selectors.',
    deviceClassName: r.DeviceSubRequest.deviceClassName,
    selectors: r.DeviceRequest.selectors,
    allocationMode: r.DeviceRequest.allocationMode,
    count: r.DeviceRequest.count,
    adminAccess: r.DeviceRequest.adminAccess,
    tolerations: r.DeviceRequest.tolerations,
  },
};

defineDocs('resource.v1beta2', docs);
export default docs;
