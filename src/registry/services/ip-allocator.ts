/**
 * ClusterIP allocation from `--service-cluster-ip-range` as kube-apiserver 1.33 does it by default
 * (MultiCIDRServiceAllocator is GA): every allocated address is an `IPAddress` object (networking.k8s.io/v1)
 * named after the address, whose parentRef names the Service. Creating that object is the guarded storage
 * write: a second create of the same name fails with AlreadyExists, so two Services never share an address.
 *
 * Invariants: the network and broadcast addresses are never handed out; the first address (the `kubernetes`
 * Service's) is only taken when asked for by name; dynamic allocation prefers the upper part of the range so
 * static requests in the lower band rarely collide (kube's offset scheme).
 */
import type { KObject } from '../../machinery/objects.ts';
import type { OpContext, RestStorage } from '../rest.ts';
import { StatusError } from '../../machinery/errors.ts';
import { formatIpv4, offsetIn, parseIpv4, type Ipv4Cidr } from './cidr.ts';
import { ipErrors } from './errors.ts';

export interface ServiceRef { readonly namespace: string; readonly name: string }

export const SYSTEM_CTX: OpContext = {
  namespace: '', user: { username: 'system:apiserver', groups: ['system:masters'] }, dryRun: false, subresource: '', warnings: [],
};

export class IpAllocator {
  constructor(private readonly opts: { cidr: Ipv4Cidr; ipAddresses: () => RestStorage | undefined; random?: () => number }) {}

  get rangeText(): string { return this.opts.cidr.text; }

  private storage(): RestStorage {
    const s = this.opts.ipAddresses();
    if (!s) throw new Error('the networking.k8s.io/v1 ipaddresses resource is not served');
    return s;
  }

  /** Offset of a valid, allocatable address, or an error as kube words it. */
  private check(ip: string): number {
    const n = parseIpv4(ip);
    const off = n === undefined ? undefined : offsetIn(this.opts.cidr, n);
    if (off === undefined || off === 0 || (this.opts.cidr.size > 2 && off === this.opts.cidr.size - 1)) throw ipErrors.range(ip, this.opts.cidr.text);
    return off;
  }

  /** Whether `ip` is taken (no write; dry-run). Throws when it is outside the range. */
  async has(ip: string): Promise<boolean> {
    this.check(ip);
    try {
      await this.storage().get(SYSTEM_CTX, ip, {});
      return true;
    } catch (e) {
      if (e instanceof StatusError && e.code === 404) return false;
      throw e;
    }
  }

  /** Take `ip` for the Service. */
  async allocate(ip: string, owner: ServiceRef): Promise<void> {
    this.check(ip);
    if (!(await this.tryCreate(ip, owner))) throw ipErrors.allocated();
  }

  /** Take a free address: a random start in the dynamic (upper) band, then the whole range. */
  async allocateNext(owner: ServiceRef): Promise<string> {
    return this.scan((ip) => this.tryCreate(ip, owner));
  }

  /** A free address right now, taking nothing (dry runs). */
  async peekFree(): Promise<string> {
    return this.scan(async (ip) => !(await this.has(ip)));
  }

  private async scan(take: (ip: string) => Promise<boolean>): Promise<string> {
    const { cidr } = this.opts;
    const first = 1;
    const last = cidr.size > 2 ? cidr.size - 2 : cidr.size - 1;
    const count = last - first + 1;
    if (count <= 0) throw ipErrors.full();
    // kube: min(max(16, size/16), 256) low addresses are kept for static assignment when possible.
    const reserved = Math.min(Math.max(16, Math.floor(count / 16)), 256);
    const dynStart = count > reserved ? first + reserved : first;
    const dynCount = last - dynStart + 1;
    const rnd = this.opts.random ?? Math.random;
    const tried = new Set<number>();
    // Random probes first (cheap when the range is sparse), then a full scan so a nearly full range still works.
    for (let i = 0; i < 32 && tried.size < dynCount; i++) {
      const off = dynStart + Math.floor(rnd() * dynCount);
      if (off === 1 || tried.has(off)) continue;
      tried.add(off);
      const ip = formatIpv4(cidr.base + off);
      if (await take(ip)) return ip;
    }
    const taken = new Set((await this.storage().list(SYSTEM_CTX, {})).items.map((i) => (i.object as KObject).metadata.name));
    for (const lo of [dynStart, first + 1]) {
      for (let off = lo; off <= last; off++) {
        const ip = formatIpv4(cidr.base + off);
        if (off === 1 || taken.has(ip) || tried.has(off)) continue;
        tried.add(off);
        if (await take(ip)) return ip;
      }
    }
    throw ipErrors.full();
  }

  async release(ip: string): Promise<void> {
    try {
      await this.storage().delete(SYSTEM_CTX, ip, {});
    } catch (e) {
      if (!(e instanceof StatusError && e.code === 404)) throw e;
    }
  }

  /** Repair: every address a Service holds has its IPAddress (created when missing). */
  async ensure(ip: string, owner: ServiceRef): Promise<void> {
    if (parseIpv4(ip) === undefined) return;
    await this.tryCreate(ip, owner);
  }

  /**
   * The default ServiceCIDR `kubernetes` naming the flag's range, as kube 1.33's default-servicecidr
   * controller keeps it (created when missing; an existing one is left alone).
   */
  async ensureDefaultServiceCidr(serviceCidrs: RestStorage | undefined): Promise<void> {
    if (!serviceCidrs) return;
    try {
      await serviceCidrs.create(SYSTEM_CTX, {
        apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name: 'kubernetes' }, spec: { cidrs: [this.opts.cidr.text] },
      }, {});
    } catch (e) {
      if (!(e instanceof StatusError && e.code === 409)) throw e;
    }
  }

  /** Point the IPAddress at its Service once the store has generated the Service's name. */
  async reparent(ip: string, owner: ServiceRef): Promise<void> {
    await this.storage().guaranteedUpdate(SYSTEM_CTX, ip, (cur) => {
      if (!cur) throw new Error(`IPAddress ${ip} vanished`);
      const next = structuredClone(cur);
      next['spec'] = { parentRef: { group: '', resource: 'services', namespace: owner.namespace, name: owner.name } };
      return next;
    }, {});
  }

  /**
   * Repair: delete IPAddresses this allocator made whose Service does not hold them (a crash between the
   * allocation and the Service write leaks one), if created before `olderThanMs`.
   */
  async dropOrphans(services: readonly KObject[], olderThanMs: number): Promise<void> {
    const held = new Set<string>();
    for (const s of services) {
      const spec = (s['spec'] ?? {}) as Record<string, unknown>;
      const ips = Array.isArray(spec['clusterIPs']) ? spec['clusterIPs'] : [spec['clusterIP']];
      for (const ip of ips) if (typeof ip === 'string') held.add(`${s.metadata.namespace ?? ''}/${s.metadata.name ?? ''}/${ip}`);
    }
    for (const item of (await this.storage().list(SYSTEM_CTX, {})).items) {
      const o = item.object as KObject;
      const ip = o.metadata.name ?? '';
      const ref = ((o['spec'] ?? {}) as { parentRef?: { resource?: string; namespace?: string; name?: string } }).parentRef;
      if (o.metadata.labels?.['ipaddress.kubernetes.io/managed-by'] !== 'ipallocator.k8s.io' || ref?.resource !== 'services') continue;
      const n = parseIpv4(ip);
      if (n === undefined || offsetIn(this.opts.cidr, n) === undefined) continue;
      if (held.has(`${ref.namespace ?? ''}/${ref.name ?? ''}/${ip}`)) continue;
      if (Date.parse(o.metadata.creationTimestamp ?? '') >= olderThanMs) continue;
      await this.release(ip);
    }
  }

  private async tryCreate(ip: string, owner: ServiceRef): Promise<boolean> {
    const obj: KObject = {
      apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress',
      metadata: { name: ip, labels: { 'ipaddress.kubernetes.io/ip-family': 'IPv4', 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' } },
      spec: { parentRef: { group: '', resource: 'services', namespace: owner.namespace, name: owner.name } },
    };
    try {
      await this.storage().create(SYSTEM_CTX, obj, {});
      return true;
    } catch (e) {
      if (e instanceof StatusError && e.code === 409) return false;
      throw e;
    }
  }
}
