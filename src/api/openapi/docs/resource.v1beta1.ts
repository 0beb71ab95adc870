import { defineDocs } from './define.ts';
import * as r from './shared/resource.ts';

const docs = {
  ...r.COMMON,
  BasicDevice: r.BasicDevice,
  Device: {
    $: 'One device in a ResourceSlice: a name and, in basic, its properties.',
    name: 'Name of the device, a DNS label unique in the pool. Required.',
    basic: 'The device\'s attributes, capacity and other properties.',
  },
  DeviceCapacity: r.DeviceCapacity,
  DeviceRequest: r.DeviceRequest,
};

defineDocs('resource.v1beta1', docs);
export default docs;
