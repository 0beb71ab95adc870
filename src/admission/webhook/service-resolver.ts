/**
 * Where traffic for a webhook's Service goes. kube-apiserver dials `<svc>.<ns>.svc` through its service
 * resolver: by default the Service's ClusterIP (routed by kube-proxy), with `--enable-aggregator-routing` an
 * address of the Service's Endpoints. Keelson has no kube-proxy, so a ClusterIP could not be reached: it
 * resolves like aggregator routing — the Endpoints (a random ready address on the port named as the Service
 * port), and EndpointSlices labelled `kubernetes.io/service-name` when the Service has no Endpoints object (no
 * endpoints controller mirrors them here) — and an ExternalName Service to its external name, as kube's default
 * resolver does. Reads come from the watch cache. Errors are worded as kube's resolvers (listers) word them.
 */
import type { KObject } from '../../machinery/objects.ts';
import type { RestRegistry, RestStorage } from '../../registry/rest.ts';
import { systemContext } from '../../registry/system-context.ts';
import type { ServiceResolver } from './transport.ts';

type J = Record<string, unknown>;
const arr = (v: unknown): J[] => (Array.isArray(v) ? (v as J[]) : []);

interface ServicePort { name?: string; port?: number }

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

export class EndpointServiceResolver implements ServiceResolver {
  constructor(private readonly registry: RestRegistry) {}

  async #get(storage: RestStorage | undefined, namespace: string, name: string): Promise<KObject | undefined> {
    if (!storage) return undefined;
    try {
      return (await storage.get(systemContext({ namespace }), name, { resourceVersion: '0' })).object;
    } catch (e) {
      if ((e as { code?: number }).code === 404) return undefined;
      throw e;
    }
  }

  async resolve(namespace: string, name: string, port: number): Promise<{ host: string; port: number }> {
    const svc = await this.#get(this.registry.lookup('', 'v1', 'services'), namespace, name);
    if (!svc) throw new Error(`service ${JSON.stringify(name)} not found`);
    const spec = (svc['spec'] ?? {}) as J;
    const type = typeof spec['type'] === 'string' ? spec['type'] : 'ClusterIP';
    if (type === 'ExternalName') return { host: String(spec['externalName'] ?? ''), port };
    if (type !== 'ClusterIP' && type !== 'NodePort' && type !== 'LoadBalancer') throw new Error(`unsupported service type ${JSON.stringify(type)}`);
    const svcPort = arr(spec['ports']).find((p) => (p as ServicePort).port === port) as ServicePort | undefined;
    if (!svcPort) throw new Error(`no service port ${port} found for service ${JSON.stringify(name)}`);
    const portName = svcPort.name ?? '';
    const eps = await this.#get(this.registry.lookup('', 'v1', 'endpoints'), namespace, name);
    if (eps) return fromEndpoints(eps, portName, name);
    const slices = await this.#slices(namespace, name);
    if (slices === undefined) throw new Error(`endpoints ${JSON.stringify(name)} not found`);
    return fromSlices(slices, portName, name);
  }

  async #slices(namespace: string, name: string): Promise<KObject[] | undefined> {
    const storage = this.registry.lookup('discovery.k8s.io', 'v1', 'endpointslices');
    if (!storage) return undefined;
    const list = await storage.list(systemContext({ namespace }), { resourceVersion: '0', labelSelector: `kubernetes.io/service-name=${name}` });
    return list.items.length ? list.items.map((c) => c.object) : undefined;
  }
}

function noEndpoints(name: string): Error {
  return new Error(`no endpoints available for service ${JSON.stringify(name)}`);
}

function fromEndpoints(eps: KObject, portName: string, name: string): { host: string; port: number } {
  const subsets = arr(eps['subsets']);
  if (!subsets.length) throw noEndpoints(name);
  const start = Math.floor(Math.random() * subsets.length);
  for (let i = 0; i < subsets.length; i++) {
    const ss = subsets[(start + i) % subsets.length]!;
    const addresses = arr(ss['addresses']);
    if (!addresses.length) continue;
    const p = arr(ss['ports']).find((x) => ((x['name'] as string | undefined) ?? '') === portName);
    if (p) return { host: String(pick(addresses)['ip'] ?? ''), port: Number(p['port']) };
  }
  throw noEndpoints(name);
}

function fromSlices(slices: readonly KObject[], portName: string, name: string): { host: string; port: number } {
  const candidates: { host: string; port: number }[] = [];
  for (const s of slices) {
    const p = arr(s['ports']).find((x) => ((x['name'] as string | undefined) ?? '') === portName);
    if (!p || typeof p['port'] !== 'number') continue;
    for (const ep of arr(s['endpoints'])) {
      const ready = ((ep['conditions'] ?? {}) as J)['ready'];
      const addr = (ep['addresses'] as string[] | undefined)?.[0];
      if (ready !== false && addr) candidates.push({ host: addr, port: p['port'] });
    }
  }
  if (!candidates.length) throw noEndpoints(name);
  return pick(candidates);
}
