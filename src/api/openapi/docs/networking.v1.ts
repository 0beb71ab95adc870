import { defineDocs } from './define.ts';
import { OBJECT_METADATA, list } from './shared/common.ts';
import * as n from './shared/networking.ts';

const docs = {
  ...n,
  IPBlock: {
    $: 'A range of IP addresses a network policy allows, minus some sub-ranges.',
    cidr: 'The allowed range in CIDR notation, such as 10.0.0.0/16 or fd00::/108. Required.',
    except: 'Sub-ranges of cidr that are not allowed; each must lie within cidr.',
  },
  IngressBackend: {
    $: 'Where an Ingress sends requests: a Service port or another resource; exactly one is set.',
    service: 'A Service and port in the Ingress\'s namespace.',
    resource: 'Another object in the namespace, such as a storage bucket served by the controller; exclusive with service.',
  },
  IngressServiceBackend: {
    $: 'A Service and port that receives Ingress traffic.',
    name: 'Name of the Service, in the Ingress\'s namespace. Required.',
    port: 'The Service port, by name or number.',
  },
  IngressSpec: {
    ...n.IngressSpec,
    defaultBackend: 'Where requests that match no rule go; unset leaves that to the controller. At least one of defaultBackend and rules is needed.',
  },
  NetworkPolicy: {
    $: 'Limits which traffic may reach or leave the pods it selects; a network plugin that supports it enforces it. Pods selected by no policy allow all traffic.',
    metadata: OBJECT_METADATA,
    spec: 'The selected pods and the traffic allowed to and from them.',
  },
  NetworkPolicyEgressRule: {
    $: 'Outgoing traffic allowed from the selected pods; a connection must satisfy the ports list and the to list alike.',
    ports: 'Destination ports allowed; empty or unset allows every port.',
    to: 'Destinations allowed; empty or unset allows every destination.',
  },
  NetworkPolicyIngressRule: {
    $: 'Incoming traffic allowed to the selected pods; a connection must satisfy the ports list and the from list alike.',
    ports: 'Ports on the selected pods that may be reached; empty or unset allows every port.',
    from: 'Sources allowed; empty or unset allows every source.',
  },
  NetworkPolicyList: list('NetworkPolicy', 'NetworkPolicies'),
  NetworkPolicyPeer: {
    $: 'A set of traffic sources or destinations: pods by labels, namespaces by labels, both, or an IP range.',
    podSelector: 'Pods picked by labels, in the policy\'s namespace unless namespaceSelector is also set (then in the namespaces it picks).',
    namespaceSelector: 'Namespaces picked by labels, all their pods included unless podSelector narrows them; the empty selector picks every namespace.',
    ipBlock: 'An IP range; exclusive with the two selectors.',
  },
  NetworkPolicyPort: {
    $: 'A port, or range of ports, that traffic may use.',
    protocol: 'TCP, UDP or SCTP. Defaults to TCP.',
    port: 'The port, by number or by the name of a container port on the selected pods; unset matches every port.',
    endPort: 'With a numeric port: the last port of a range starting at port; at least port.',
  },
  NetworkPolicySpec: {
    $: 'Which pods a NetworkPolicy covers and the traffic it lets through.',
    podSelector: 'Pods of the namespace the policy applies to; the empty selector picks all of them. Required.',
    ingress: 'Incoming traffic allowed, added to what other policies allow; empty with Ingress in policyTypes allows none.',
    egress: 'Outgoing traffic allowed, added to what other policies allow; empty with Egress in policyTypes allows none.',
    policyTypes: 'Directions the policy governs: Ingress, Egress or both. Defaults to Ingress, plus Egress when egress rules are given.',
  },
  ServiceBackendPort: {
    $: 'A Service port, by name or by number; exactly one is set.',
    name: 'Name of the Service port.',
    number: 'Number of the Service port.',
  },
};

defineDocs('networking.v1', docs);
export default docs;
