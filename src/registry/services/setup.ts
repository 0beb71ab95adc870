/** Builds the Service allocators from the server flags (kube-apiserver's defaults when a flag is unset). */
import type { Store } from '../../storage/interface.ts';
import type { RestStorage } from '../rest.ts';
import type { Allocators } from './allocation.ts';
import { formatIpv4, parseCidr, parsePortRange } from './cidr.ts';
import { IpAllocator } from './ip-allocator.ts';
import { PortAllocator } from './port-allocator.ts';

/** kubeadm's and kind's service subnet; the `kubernetes` Service's 10.96.0.1 is its first address. */
export const DEFAULT_SERVICE_CIDR = '10.96.0.0/12';
export const DEFAULT_NODE_PORT_RANGE = '30000-32767';

export interface ServiceAllocationOptions {
  readonly clusterIPRange?: string;
  readonly nodePortRange?: string;
}

export function createServiceAllocators(o: ServiceAllocationOptions & { store: Store; ipAddresses: () => RestStorage | undefined }): Allocators {
  return {
    ips: new IpAllocator({ cidr: parseCidr(o.clusterIPRange || DEFAULT_SERVICE_CIDR), ipAddresses: o.ipAddresses }),
    ports: new PortAllocator({ store: o.store, range: parsePortRange(o.nodePortRange || DEFAULT_NODE_PORT_RANGE) }),
  };
}

/** The `kubernetes` Service's address: the first one of the range (10.96.0.1 for the default range). */
export function firstServiceIP(clusterIPRange?: string): string {
  const c = parseCidr(clusterIPRange || DEFAULT_SERVICE_CIDR);
  return formatIpv4(c.base + 1);
}
