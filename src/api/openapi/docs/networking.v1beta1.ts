import { defineDocs } from './define.ts';
import * as n from './shared/networking.ts';

const docs = {
  ...n,
  HTTPIngressPath: {
    ...n.HTTPIngressPath,
    pathType: 'How path is compared: Exact, Prefix (by /-separated elements) or ImplementationSpecific (as the controller decides). Defaults to ImplementationSpecific in this version.',
  },
  IngressBackend: {
    $: 'Where an Ingress sends requests: a Service port or another resource.',
    serviceName: 'Name of the Service, in the Ingress\'s namespace.',
    servicePort: 'The Service port, by name or number.',
    resource: 'Another object in the namespace, served by the controller; exclusive with serviceName and servicePort.',
  },
  IngressSpec: {
    ...n.IngressSpec,
    backend: 'Where requests that match no rule go; unset leaves that to the controller.',
  },
};

defineDocs('networking.v1beta1', docs);
export default docs;
