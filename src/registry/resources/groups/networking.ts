/** networking.k8s.io: ingresses (stored under /registry/ingress/), classes, network policies, service CIDRs, IP addresses. */
import type { GroupSpec } from '../../../api/resources/define.ts';
import { statusSub } from '../../../api/resources/define.ts';
import * as oc from '../other/columns.ts';
import * as ac from '../other/columns-admin.ts';
import { plain, withStatus, withStatusGenCOU, genCOU } from '../shared-strategies.ts';

export const networking: GroupSpec = {
  group: 'networking.k8s.io',
  versions: [{ version: 'v1', resources: [
    { resource: 'ingressclasses', kind: 'IngressClass', namespaced: false, tableColumns: oc.ingressClassColumns, strategy: genCOU },
    {
      resource: 'ingresses', kind: 'Ingress', namespaced: true, shortNames: ['ing'], subresources: [statusSub],
      storagePrefix: '/registry/ingress/', tableColumns: oc.ingressColumns, strategy: withStatusGenCOU,
    },
    { resource: 'ipaddresses', kind: 'IPAddress', namespaced: false, shortNames: ['ip'], tableColumns: ac.ipAddressColumns, strategy: plain },
    { resource: 'networkpolicies', kind: 'NetworkPolicy', namespaced: true, shortNames: ['netpol'], tableColumns: oc.networkPolicyColumns, strategy: genCOU },
    { resource: 'servicecidrs', kind: 'ServiceCIDR', namespaced: false, subresources: [statusSub], tableColumns: ac.serviceCIDRColumns, strategy: withStatus },
  ] }],
};
