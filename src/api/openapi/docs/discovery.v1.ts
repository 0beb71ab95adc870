import { defineDocs } from './define.ts';
import { list, OBJECT_METADATA } from './shared/common.ts';

const docs = {
  Endpoint: {
    $: 'One network endpoint of a Service, usually a pod: its addresses, readiness and location.',
    addresses: 'The endpoint\'s addresses, of the slice\'s addressType; consumers treat them as interchangeable and usually use the first. Between 1 and 100.',
    conditions: 'Readiness of the endpoint.',
    hostname: 'DNS label of the endpoint, used by DNS servers to give it its own name; must be lowercase.',
    targetRef: 'The object backing the endpoint, usually its Pod.',
    deprecatedTopology: 'Old v1beta1 topology labels kept for round-tripping; ignored and never written except when converting. Use nodeName and zone.',
    nodeName: 'Name of the node hosting the endpoint.',
    zone: 'Zone of the endpoint, as in the topology.kubernetes.io/zone label of its node.',
    hints: 'Routing hints from topology-aware routing: which zones or nodes should prefer this endpoint.',
  },
  EndpointConditions: {
    $: 'Readiness of one endpoint.',
    ready: 'Whether the endpoint may receive new traffic; for a pod, its Ready condition, and false while terminating unless the Service publishes not-ready addresses. Unset means unknown, treated as ready.',
    serving: 'Whether the endpoint is able to serve, like ready but also reported while it terminates, so that terminating endpoints can be used as a last resort. Unset means unknown, treated as serving.',
    terminating: 'Whether the endpoint is shutting down; for a pod, whether it has a deletionTimestamp. Unset means unknown, treated as not terminating.',
  },
  EndpointHints: {
    $: 'Topology-aware routing hints for one endpoint.',
    forZones: 'Zones whose clients should be routed to this endpoint; at most 8.',
    forNodes: 'Nodes whose clients should be routed to this endpoint; at most 8. Needs the PreferSameTrafficDistribution feature.',
  },
  EndpointPort: {
    $: 'A port that every endpoint of the slice serves.',
    name: 'Name of the port, matching the Service port it implements; empty or a DNS label, unique in the slice. Defaults to empty.',
    protocol: 'TCP, UDP or SCTP. Defaults to TCP.',
    port: 'Port number on the endpoints; unset means the port is not restricted, which only slices not made from a Service may do.',
    appProtocol: 'Application protocol spoken on the port, such as http, h2c or a prefixed custom name like example.com/proto; copied from the Service port.',
  },
  EndpointSlice: {
    $: 'A slice of the endpoints of a Service; a Service\'s endpoints are spread over several slices, linked to it by the kubernetes.io/service-name label.',
    metadata: OBJECT_METADATA,
    addressType: 'Type of every address in the slice: IPv4, IPv6 or FQDN. Required; immutable.',
    endpoints: 'The endpoints of the slice; at most 1000.',
    ports: 'The ports every endpoint serves; empty means no ports are known, and a port without number means all ports. At most 100, with unique names.',
  },
  EndpointSliceList: list('EndpointSlice'),
  ForNode: {
    $: 'A node that should use an endpoint, in routing hints.',
    name: 'The Node object\'s metadata.name.',
  },
  ForZone: {
    $: 'A zone that should use an endpoint, in routing hints.',
    name: 'Zone name, as in the topology.kubernetes.io/zone label of nodes.',
  },
};

defineDocs('discovery.v1', docs);
export default docs;
