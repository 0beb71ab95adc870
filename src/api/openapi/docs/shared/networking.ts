/** Descriptions for networking.k8s.io, written for v1 and reused by v1beta1 and v1alpha1 (see ../define.ts). */
import { CLUSTER_OBJECT_METADATA, list, OBJECT_METADATA } from './common.ts';

export const HTTPIngressPath = {
  $: 'A URL path of an Ingress rule and the backend its requests go to.',
  path: 'Path matched against the request path; must start with / (except with ImplementationSpecific). When several paths match, the longest wins.',
  pathType: 'How path is compared: Exact (the whole path, case-sensitive), Prefix (by /-separated elements, so /foo matches /foo/bar but not /foobar) or ImplementationSpecific (as the controller decides). Required.',
  backend: 'Where matching requests are sent.',
};

export const HTTPIngressRuleValue = {
  $: 'The HTTP paths of an Ingress rule.',
  paths: 'Paths and their backends; at least one.',
};

export const IPAddress = {
  $: 'Records that one IP address is allocated, to a Service\'s cluster IP for instance; named after the address in canonical form, such as 10.0.0.1 or 2001:db8::1.',
  metadata: CLUSTER_OBJECT_METADATA,
  spec: 'The object the address is allocated to.',
};

export const IPAddressList = list('IPAddress', 'IPAddresses');

export const IPAddressSpec = {
  $: 'The allocation of an IPAddress.',
  parentRef: 'The object holding the address, such as a Service. Required; immutable.',
};

export const ParentReference = {
  $: 'Points at the object an IP address is allocated to.',
  group: 'API group of the object; empty for the core group.',
  resource: 'Plural resource name of the object, such as services. Required.',
  namespace: 'Namespace of the object; empty for cluster-scoped objects.',
  name: 'The object\'s name. Required.',
};

export const Ingress = {
  $: 'Routes external HTTP and HTTPS traffic to Services by host name and path; an ingress controller implements it.',
  metadata: OBJECT_METADATA,
  spec: 'The routing rules, TLS settings and the class of controller that serves them.',
  status: 'The addresses the Ingress is reachable at; written by its controller.',
};

export const IngressClass = {
  $: 'A kind of ingress controller that Ingresses can ask for by name; the annotation ingressclass.kubernetes.io/is-default-class=true makes it the default for Ingresses naming none.',
  metadata: CLUSTER_OBJECT_METADATA,
  spec: 'The controller that implements the class and its parameters.',
};

export const IngressClassList = list('IngressClass', 'IngressClasses');

export const IngressClassParametersReference = {
  $: 'Points at an object holding controller-specific settings for an IngressClass.',
  apiGroup: 'API group of the object; unset means the core group.',
  kind: 'Kind of the object. Required.',
  name: 'The object\'s name. Required.',
  scope: 'Cluster (the object is cluster-scoped) or Namespace (it lives in the namespace given next). Defaults to Cluster.',
  namespace: 'Namespace of the object; required when scope is Namespace and not allowed when it is Cluster.',
};

export const IngressClassSpec = {
  $: 'The desired behaviour of an IngressClass.',
  controller: 'Name of the controller that serves Ingresses of this class, a domain-prefixed path such as example.com/ingress-controller; at most 250 characters. Immutable.',
  parameters: 'An object with further settings for the controller; unset means none.',
};

export const IngressList = list('Ingress', 'Ingresses');

export const IngressLoadBalancerIngress = {
  $: 'One address of the load balancer in front of an Ingress.',
  ip: 'IP address of the load balancer, for those that expose one.',
  hostname: 'DNS name of the load balancer, for those that expose a name.',
  ports: 'Status of each port of the load balancer.',
};

export const IngressLoadBalancerStatus = {
  $: 'The load balancer in front of an Ingress.',
  ingress: 'The addresses of the load balancer.',
};

export const IngressPortStatus = {
  $: 'The state of one load balancer port.',
  port: 'Port number. Required.',
  protocol: 'TCP, UDP or SCTP. Required.',
  error: 'Why the port is broken, as a CamelCase reason or a domain-prefixed one; empty when it works.',
};

export const IngressRule = {
  $: 'The routing of one host name: requests for it are matched against its paths.',
  host: 'Host name (not an IP) the rule applies to, optionally with a leading wildcard label (*.example.com matches one extra label); empty applies to every host. No port.',
};

export const IngressRuleValue = {
  $: 'How requests for a rule\'s host are routed; HTTP is the only kind today.',
  http: 'HTTP path routing.',
};

export const IngressSpec = {
  $: 'The desired behaviour of an Ingress.',
  ingressClassName: 'Name of the IngressClass whose controller should serve this Ingress; unset uses the default class, if any. Supersedes the old kubernetes.io/ingress.class annotation.',
  tls: 'TLS settings, each a set of hosts and the Secret with their certificate; served on port 443.',
  rules: 'Host and path routing rules; requests matching none go to the default backend.',
};

export const IngressStatus = {
  $: 'The observed state of an Ingress.',
  loadBalancer: 'The load balancer addresses the Ingress is reachable at.',
};

export const IngressTLS = {
  $: 'TLS termination for a set of hosts.',
  hosts: 'Host names covered by the certificate; they should match those of the rules. Defaults to the controller\'s wildcard host when empty.',
  secretName: 'Name of a kubernetes.io/tls Secret, in the same namespace, holding the certificate and key; may be empty when only SNI routing by host is used.',
};

export const ServiceCIDR = {
  $: 'A range of IP addresses that Service cluster IPs are allocated from; the cluster may have several.',
  metadata: CLUSTER_OBJECT_METADATA,
  spec: 'The ranges.',
  status: 'Whether the ranges are ready for allocation; read-only.',
};

export const ServiceCIDRList = list('ServiceCIDR');

export const ServiceCIDRSpec = {
  $: 'The desired ranges of a ServiceCIDR.',
  cidrs: 'At most two CIDRs, one IPv4 and one IPv6, such as 10.96.0.0/16. Immutable.',
};

export const ServiceCIDRStatus = {
  $: 'The observed state of a ServiceCIDR.',
  conditions: 'Conditions of the ServiceCIDR; Ready tells whether addresses can be allocated from it.',
};
