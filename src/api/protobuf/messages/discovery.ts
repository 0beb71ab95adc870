// Protobuf message descriptions of discovery (field numbers, wire types, Go pointer-ness, inline embedding, merge
// markers) as Kubernetes v1.33 defines them; see ../schema.ts for the notation.
import { definePackage } from '../schema.ts';

definePackage('discovery.v1', {
  Endpoint: { addresses: '1 ![]string list=set', conditions: '2 EndpointConditions', hostname: '3 *string', targetRef: '4 *core.v1.ObjectReference', deprecatedTopology: '5 map<string,string>', nodeName: '6 *string', zone: '7 *string', hints: '8 *EndpointHints' },
  EndpointConditions: { ready: '1 *bool', serving: '2 *bool', terminating: '3 *bool' },
  EndpointHints: { forZones: '1 []ForZone list=atomic', forNodes: '2 []ForNode list=atomic' },
  EndpointPort: { name: '1 *string', protocol: '2 *string', port: '3 *int32', appProtocol: '4 *string' },
  EndpointSlice: { metadata: '1 ObjectMeta', addressType: '4 !string', endpoints: '2 ![]Endpoint list=atomic', ports: '3 ![]EndpointPort list=atomic' },
  EndpointSliceList: { metadata: '1 ListMeta', items: '2 ![]EndpointSlice' },
  ForNode: { name: '1 !string' },
  ForZone: { name: '1 !string' },
}, {}, ["EndpointPort"]);

