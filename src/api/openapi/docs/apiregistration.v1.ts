import { defineDocs } from './define.ts';
import { CLUSTER_OBJECT_METADATA, condition, list } from './shared/common.ts';

const docs = {
  APIService: {
    $: 'Registers an API group and version with the aggregation layer: served by this server itself, or proxied to an extension API server behind a Service. Named <version>.<group>.',
    metadata: CLUSTER_OBJECT_METADATA,
    spec: 'Which group and version, where requests go and how that server is trusted.',
    status: 'Whether the API is reachable; read-only.',
  },
  APIServiceCondition: condition('an APIService', 'Available is the one set today.'),
  APIServiceList: list('APIService'),
  APIServiceSpec: {
    $: 'The desired behaviour of an APIService.',
    service: 'The Service in front of the extension API server that handles this group and version; unset means the local server handles it.',
    group: 'API group served, such as metrics.k8s.io; empty only for the legacy core v1.',
    version: 'API version served, such as v1beta1; a DNS label.',
    insecureSkipTLSVerify: 'Skips verification of the extension server\'s certificate when proxying; strongly discouraged. Cannot be true together with caBundle.',
    caBundle: 'PEM-encoded CA certificates that verify the extension server\'s serving certificate; unset means the system trust roots. Not allowed without a service.',
    groupPriorityMinimum: 'Lowest priority this group should have; the group with the highest value comes first in discovery, ties broken by name. Between 1 and 20000; built-in groups use values up to about 18000.',
    versionPriority: 'Order of this version within its group, highest first in discovery; equal values sort by the Kubernetes version ordering (v1 > v1beta1 > v1alpha1). Between 1 and 1000.',
  },
  APIServiceStatus: {
    $: 'The observed state of an APIService.',
    conditions: 'Conditions reported for the APIService, one per type.',
  },
  ServiceReference: {
    $: 'An in-cluster Service through which an extension API server is reached.',
    namespace: 'Namespace the Service lives in. Required.',
    name: 'Which Service in that namespace, by name. Required.',
    port: 'Service port to connect to, between 1 and 65535. Defaults to 443.',
  },
};

defineDocs('apiregistration.v1', docs);
export default docs;
