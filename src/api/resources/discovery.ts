/** discovery.k8s.io: EndpointSlices. */
import type { GroupSpec } from './define.ts';
import { genCOU } from '../../registry/resources/shared-strategies.ts';
import { ageColumn, col, nameColumn } from '../../registry/resources/columns.ts';

export const discovery: GroupSpec = {
  group: 'discovery.k8s.io',
  versions: [{ version: 'v1', resources: [{
    resource: 'endpointslices', kind: 'EndpointSlice', namespaced: true, fields: ['addressType', 'endpoints', 'ports'], strategy: genCOU,
    tableColumns: [
      nameColumn(),
      col('AddressType', 'string', 'addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name.', (o) => String(o['addressType'] ?? '')),
      col('Ports', 'string', 'ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name. When ports is empty, it indicates that there are no defined ports. When a port is defined with a nil port value, it indicates "all ports". Each slice may include a maximum of 100 ports.', (o) => {
        const ports = Array.isArray(o['ports']) ? (o['ports'] as Array<Record<string, unknown>>) : [];
        if (!ports.length) return '<unset>';
        const list = ports.map((p) => (typeof p['port'] === 'number' ? String(p['port']) : typeof p['name'] === 'string' ? p['name'] : '*'));
        return list.length > 3 ? `${list.slice(0, 3).join(',')} + ${list.length - 3} more...` : list.join(',');
      }),
      col('Endpoints', 'string', 'endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.', (o) => {
        const eps = Array.isArray(o['endpoints']) ? (o['endpoints'] as Array<Record<string, unknown>>) : [];
        const addrs = eps.flatMap((e) => (Array.isArray(e['addresses']) ? (e['addresses'] as string[]) : []));
        if (!addrs.length) return '<unset>';
        return addrs.length > 3 ? `${addrs.slice(0, 3).join(',')} + ${addrs.length - 3} more...` : addrs.join(',');
      }),
      ageColumn(),
    ],
  }] }],
};
