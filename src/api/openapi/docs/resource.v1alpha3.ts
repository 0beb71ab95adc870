import { defineDocs } from './define.ts';
import { CLUSTER_OBJECT_METADATA, list } from './shared/common.ts';
import * as r from './shared/resource.ts';

const docs = {
  ...r.COMMON,
  BasicDevice: {
    ...r.BasicDevice,
    capacity: 'Amounts of the device\'s resources, such as memory, keyed by name like attributes, each a quantity; with attributes, at most 32 entries.',
  },
  Device: {
    $: 'One device in a ResourceSlice: a name and, in basic, its properties.',
    name: 'Name of the device, a DNS label unique in the pool. Required.',
    basic: 'The device\'s attributes, capacity and other properties.',
  },
  DeviceRequest: r.DeviceRequest,
  DeviceTaintRule: {
    $: 'Adds a taint to every device that its selector matches, without the driver\'s help; for administrators taking devices out of use.',
    metadata: CLUSTER_OBJECT_METADATA,
    spec: 'The devices tainted and the taint.',
  },
  DeviceTaintRuleList: list('DeviceTaintRule'),
  DeviceTaintRuleSpec: {
    $: 'The desired behaviour of a DeviceTaintRule.',
    deviceSelector: 'Which devices get the taint; all criteria must hold. The empty selector matches every device, and unset matches none.',
    taint: 'Key, value and effect put on every matching device. Required.',
  },
  DeviceTaintSelector: {
    $: 'Criteria picking the devices a DeviceTaintRule taints; all set criteria must hold.',
    deviceClassName: 'Only devices meeting the selectors of this DeviceClass.',
    driver: 'Only devices of this driver.',
    pool: 'Only devices of this pool; adding driver avoids picking same-named pools of other drivers.',
    device: 'Only devices with this name; adding driver and pool avoids ambiguity.',
    selectors: 'CEL criteria, as in claims, that the device must all meet.',
  },
};

defineDocs('resource.v1alpha3', docs);
export default docs;
