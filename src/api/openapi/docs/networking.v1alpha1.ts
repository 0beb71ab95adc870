import { defineDocs } from './define.ts';
import * as n from './shared/networking.ts';

const docs = {
  IPAddress: n.IPAddress,
  IPAddressList: n.IPAddressList,
  IPAddressSpec: n.IPAddressSpec,
  ParentReference: n.ParentReference,
  ServiceCIDR: n.ServiceCIDR,
  ServiceCIDRList: n.ServiceCIDRList,
  ServiceCIDRSpec: n.ServiceCIDRSpec,
  ServiceCIDRStatus: n.ServiceCIDRStatus,
};

defineDocs('networking.v1alpha1', docs);
export default docs;
