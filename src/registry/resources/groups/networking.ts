/** networking.k8s.io: ingresses (stored under /registry/ingress/), classes, network policies, service CIDRs, IP addresses. */
import type { GroupSpec } from '../../../api/resources/define.ts';
import { statusSub } from '../../../api/resources/define.ts';
import * as oc from '../other/columns.ts';
import * as ac from '../other/columns-admin.ts';
import { plain, withStatus, withStatusGenCOU } from '../shared-strategies.ts';
import { statusStrategy } from '../strategy-kit.ts';
import { ingressClassDefaults, networkPolicyDefaults } from '../networking/defaults.ts';

export const networking: GroupSpec = {
  group: 'networking.k8s.io',
  versions: [{ version: 'v1', resources: [
    { resource: 'ingressclasses', kind: 'IngressClass', namespaced: false, tableColumns: oc.ingressClassColumns, strategy: statusStrategy({ generation: true, allowCreateOnUpdate: true }, { defaults: ingressClassDefaults }) },
    {
      resource: 'ingresses', kind: 'Ingress', namespaced: true, shortNames: ['ing'], subresources: [statusSub],
      storagePrefix: '/registry/ingress/', tableColumns: oc.ingressColumns, strategy: withStatusGenCOU,
    },
    { resource: 'ipaddresses', kind: 'IPAddress', namespaced: false, shortNames: ['ip'], tableColumns: ac.ipAddressColumns, strategy: plain },
    { resource: 'networkpolicies', kind: 'NetworkPolicy', namespaced: true, shortNames: ['netpol'], tableColumns: oc.networkPolicyColumns, strategy: statusStrategy({ generation: true, allowCreateOnUpdate: true }, { defaults: networkPolicyDefaults }) },
    { resource: 'servicecidrs', kind: 'ServiceCIDR', namespaced: false, subresources: [statusSub], tableColumns: ac.serviceCIDRColumns, strategy: withStatus },
  ] }],
};
