/**
 * What a Service write allocates and frees (kube's pkg/registry/core/service/storage/alloc.go): cluster IPs
 * for every type but ExternalName (headless `None` allocates nothing), node ports for NodePort and
 * LoadBalancer ports (unless allocateLoadBalancerNodePorts is false), and the healthCheckNodePort of a
 * LoadBalancer with externalTrafficPolicy Local. A `Txn` records what one write took so a failed write gives
 * it back, and what the old object held that the new one no longer does (freed after success).
 */
import type { KObject } from '../../machinery/objects.ts';
import { errors, field, type FieldError } from '../../machinery/errors.ts';
import { AllocationError, ipErrors } from './errors.ts';
import { parseIpv4 } from './cidr.ts';
import type { IpAllocator, ServiceRef } from './ip-allocator.ts';
import type { PortAllocator } from './port-allocator.ts';

type J = Record<string, unknown>;
const isObj = (v: unknown): v is J => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface Allocators { readonly ips: IpAllocator; readonly ports: PortAllocator }

/** Allocations of one write: undone on failure; `freeAfter` released on success. */
export class Txn {
  readonly ips: string[] = [];
  readonly ports: number[] = [];
  freeIps: string[] = [];
  freePorts: number[] = [];
  constructor(private readonly a: Allocators) {}
  async rollback(): Promise<void> {
    await Promise.allSettled([...this.ips.map((ip) => this.a.ips.release(ip)), ...this.ports.map((p) => this.a.ports.release(p))]);
    this.ips.length = 0;
    this.ports.length = 0;
  }
  async commit(): Promise<void> {
    await Promise.allSettled([...this.freeIps.map((ip) => this.a.ips.release(ip)), ...this.freePorts.map((p) => this.a.ports.release(p))]);
  }
}

/** The spec of a Service being written (created when missing). */
export function specOf(svc: KObject): J {
  if (!isObj(svc['spec'])) svc['spec'] = {};
  return svc['spec'] as J;
}

/** The spec of a stored (possibly frozen) Service, never changed. */
const readSpec = (svc: KObject): J => (isObj(svc['spec']) ? svc['spec'] : {});

const typeOf = (spec: J): string => (typeof spec['type'] === 'string' && spec['type'] !== '' ? spec['type'] : 'ClusterIP');
const clusterIpOf = (spec: J): string => {
  if (typeof spec['clusterIP'] === 'string' && spec['clusterIP'] !== '') return spec['clusterIP'];
  const ips = spec['clusterIPs'];
  return Array.isArray(ips) && typeof ips[0] === 'string' ? ips[0] : '';
};

/** Whether the Service's ports get node ports. */
function needsNodePorts(spec: J): boolean {
  const t = typeOf(spec);
  return t === 'NodePort' || (t === 'LoadBalancer' && spec['allocateLoadBalancerNodePorts'] !== false);
}
const needsHealthPort = (spec: J): boolean => typeOf(spec) === 'LoadBalancer' && spec['externalTrafficPolicy'] === 'Local';
const ports = (spec: J): J[] => (Array.isArray(spec['ports']) ? (spec['ports'] as unknown[]).filter(isObj) : []);

/** Every IP and port a stored Service holds (repair and delete). */
export function heldBy(svc: KObject): { ips: string[]; ports: number[] } {
  const spec = readSpec(svc);
  const t = typeOf(spec);
  const ips = t === 'ExternalName' ? [] : (Array.isArray(spec['clusterIPs']) ? spec['clusterIPs'] : [spec['clusterIP']]).filter((x): x is string => typeof x === 'string' && x !== '' && x !== 'None');
  const held = ports(spec).map((p) => p['nodePort']).filter((n): n is number => typeof n === 'number' && n > 0);
  if (typeof spec['healthCheckNodePort'] === 'number' && spec['healthCheckNodePort'] > 0) held.push(spec['healthCheckNodePort']);
  return { ips, ports: held };
}

/**
 * Fill in the allocated fields of `svc` (create when `old` is undefined, update otherwise), taking IPs and
 * ports through `txn`. Dry runs check availability but take nothing. Throws 422 Invalid as kube words it.
 */
export async function allocate(a: Allocators, txn: Txn, svc: KObject, old: KObject | undefined, dryRun: boolean): Promise<void> {
  const spec = specOf(svc);
  const oldSpec = old ? readSpec(old) : undefined;
  const owner: ServiceRef = { namespace: svc.metadata.namespace ?? '', name: svc.metadata.name ?? '' };
  const invalid = (causes: FieldError[]) => errors.invalid({ kind: 'Service', name: owner.name, group: '', resource: 'services' } as never, causes);
  const type = typeOf(spec);
  const oldType = oldSpec ? typeOf(oldSpec) : undefined;
  const oldIp = oldSpec && oldType !== 'ExternalName' ? clusterIpOf(oldSpec) : '';

  if (oldSpec) dropTypeDependentFields(spec, oldSpec);
  // Updates that leave clusterIP out keep the allocated one (kube's patchAllocatedValues).
  if (oldIp && type !== 'ExternalName' && clusterIpOf(spec) === '') {
    spec['clusterIP'] = oldIp;
    spec['clusterIPs'] = structuredClone(oldSpec!['clusterIPs'] ?? [oldIp]);
    if (spec['ipFamilies'] === undefined && oldSpec!['ipFamilies'] !== undefined) spec['ipFamilies'] = structuredClone(oldSpec!['ipFamilies']);
    if (spec['ipFamilyPolicy'] === undefined && oldSpec!['ipFamilyPolicy'] !== undefined) spec['ipFamilyPolicy'] = oldSpec!['ipFamilyPolicy'];
  }

  if (type === 'ExternalName') {
    if (oldIp && oldIp !== 'None') txn.freeIps.push(oldIp);
    // omitempty in kube's types: an empty clusterIP is not stored.
    if (spec['clusterIP'] === '') delete spec['clusterIP'];
  } else {
    let ip = clusterIpOf(spec);
    if (oldIp && ip !== oldIp) {
      throw invalid([field.invalid('spec.clusterIPs[0]', ip, 'may not change once set')]);
    }
    if (ip === 'None') {
      spec['clusterIP'] = 'None';
      spec['clusterIPs'] = ['None'];
      if (spec['ipFamilyPolicy'] === undefined) spec['ipFamilyPolicy'] = isObj(spec['selector']) && Object.keys(spec['selector']).length > 0 ? 'SingleStack' : 'RequireDualStack';
    } else if (!oldIp && ip !== '' && parseIpv4(ip) === undefined && !ip.includes(':')) {
      // Not an address at all: validation reports it (`must be a valid IP address`); nothing to allocate.
    } else if (!oldIp) {
      try {
        if (ip.includes(':')) throw ipErrors.range(ip, a.ips.rangeText);
        if (ip) {
          if (dryRun) { if (await a.ips.has(ip)) throw new AllocationError('allocated', 'provided IP is already allocated'); }
          else { await a.ips.allocate(ip, owner); txn.ips.push(ip); }
        } else if (!dryRun) {
          ip = await a.ips.allocateNext(owner);
          txn.ips.push(ip);
        } else {
          ip = await dryRunIp(a.ips);
        }
      } catch (e) {
        if (!(e instanceof AllocationError)) throw e;
        const requested = spec['clusterIPs'] ?? (spec['clusterIP'] ? [spec['clusterIP']] : []);
        throw invalid([field.invalid('spec.clusterIPs', requested, ip ? `failed to allocate IP ${ip}: ${e.message}` : `failed to allocate a serviceIP: ${e.message}`)]);
      }
      spec['clusterIP'] = ip;
      spec['clusterIPs'] = [ip];
    }
    if (spec['ipFamilies'] === undefined) spec['ipFamilies'] = ['IPv4'];
    if (spec['ipFamilyPolicy'] === undefined) spec['ipFamilyPolicy'] = 'SingleStack';
  }

  await allocatePorts(a, txn, spec, oldSpec, dryRun, invalid);
}

/**
 * kube's dropTypeDependentFields: a type change clears the fields the new type does not use, when the caller
 * left them as they were (so `type: ClusterIP` alone turns a LoadBalancer back into a ClusterIP Service).
 */
function dropTypeDependentFields(spec: J, old: J): void {
  const type = typeOf(spec);
  const oldType = typeOf(old);
  if (type === oldType) return;
  const same = (k: string) => JSON.stringify(spec[k]) === JSON.stringify(old[k]);
  const dropIfSame = (...keys: string[]) => { for (const k of keys) if (spec[k] !== undefined && same(k)) delete spec[k]; };
  if (type === 'ExternalName') dropIfSame('clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy', 'internalTrafficPolicy');
  if (needsNodePorts(old) && !needsNodePorts(spec)) {
    const oldPorts = new Set<unknown>(ports(old).map((p) => p['nodePort']).filter((n) => typeof n === 'number'));
    for (const p of ports(spec)) if (oldPorts.has(p['nodePort'])) delete p['nodePort'];
  }
  if (oldType === 'LoadBalancer' && type !== 'LoadBalancer') dropIfSame('allocateLoadBalancerNodePorts', 'loadBalancerClass', 'healthCheckNodePort');
  const external = (t: string) => t === 'NodePort' || t === 'LoadBalancer';
  if (external(oldType) && !external(type)) dropIfSame('externalTrafficPolicy');
}

async function allocatePorts(a: Allocators, txn: Txn, spec: J, oldSpec: J | undefined, dryRun: boolean, invalid: (c: FieldError[]) => Error): Promise<void> {
  const oldHeld = new Set<number>();
  const oldByPort = new Map<string, number>();
  if (oldSpec && needsNodePorts(oldSpec)) {
    for (const p of ports(oldSpec)) {
      if (typeof p['nodePort'] === 'number' && p['nodePort'] > 0) {
        oldHeld.add(p['nodePort']);
        oldByPort.set(`${String(p['port'])}/${String(p['protocol'] ?? 'TCP')}`, p['nodePort']);
      }
    }
  }
  const keep = new Set<number>();
  if (needsNodePorts(spec)) {
    const taken = new Set<number>();
    for (const [i, p] of ports(spec).entries()) {
      // Updates that leave nodePort out keep the one the same port/protocol had.
      if (p['nodePort'] === undefined || p['nodePort'] === 0) {
        const prev = oldByPort.get(`${String(p['port'])}/${String(p['protocol'] ?? 'TCP')}`);
        if (prev !== undefined) p['nodePort'] = prev;
      }
      const want = p['nodePort'];
      try {
        if (typeof want === 'number' && want > 0) {
          keep.add(want);
          // One service may use a node port for several protocols; take it once.
          if (oldHeld.has(want) || taken.has(want)) continue;
          if (dryRun) { if (await a.ports.has(want)) throw new AllocationError('allocated', 'provided port is already allocated'); }
          else { await a.ports.allocate(want); txn.ports.push(want); }
          taken.add(want);
        } else if (!dryRun) {
          const got = await a.ports.allocateNext();
          txn.ports.push(got);
          taken.add(got);
          keep.add(got);
          p['nodePort'] = got;
        }
      } catch (e) {
        if (!(e instanceof AllocationError)) throw e;
        throw invalid([field.invalid(`spec.ports[${i}].nodePort`, want, e.message)]);
      }
    }
  } else {
    // ClusterIP/ExternalName services have no node ports (kube clears them on such a type change).
    for (const p of ports(spec)) if (oldSpec && p['nodePort'] !== undefined && oldHeld.has(p['nodePort'] as number)) delete p['nodePort'];
  }
  const oldHealth = oldSpec && typeof oldSpec['healthCheckNodePort'] === 'number' ? oldSpec['healthCheckNodePort'] : undefined;
  if (needsHealthPort(spec)) {
    if (spec['healthCheckNodePort'] === undefined && oldHealth !== undefined) spec['healthCheckNodePort'] = oldHealth;
    const want = spec['healthCheckNodePort'];
    try {
      if (typeof want === 'number' && want > 0) {
        if (want !== oldHealth) {
          if (dryRun) { if (await a.ports.has(want)) throw new AllocationError('allocated', 'provided port is already allocated'); }
          else { await a.ports.allocate(want); txn.ports.push(want); }
        }
      } else if (!dryRun) {
        const got = await a.ports.allocateNext();
        txn.ports.push(got);
        spec['healthCheckNodePort'] = got;
      }
    } catch (e) {
      if (!(e instanceof AllocationError)) throw e;
      throw invalid([field.invalid('spec.healthCheckNodePort', want, e.message)]);
    }
    if (typeof spec['healthCheckNodePort'] === 'number') keep.add(spec['healthCheckNodePort']);
  } else if (oldHealth !== undefined && spec['healthCheckNodePort'] === oldHealth) {
    delete spec['healthCheckNodePort'];
  }
  for (const p of oldHeld) if (!keep.has(p)) txn.freePorts.push(p);
  if (oldHealth !== undefined && !keep.has(oldHealth)) txn.freePorts.push(oldHealth);
}

/** A dry-run create shows an address that is free now, taking nothing (kube's dry-run allocator). */
async function dryRunIp(ips: IpAllocator): Promise<string> {
  return ips.peekFree();
}
