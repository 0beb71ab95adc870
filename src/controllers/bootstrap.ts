/**
 * What kube-apiserver itself ensures at start: the system namespaces, and (when an address is given) the
 * `kubernetes` Service in `default`.
 */
import type { KObject } from '../machinery/objects.ts';
import type { RestRegistry, RestStorage } from '../registry/rest.ts';
import { isAlreadyExists, isNotFound } from '../machinery/errors.ts';
import { systemContext, type Logger } from '../registry/system-context.ts';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

/** First address of the default service CIDR 10.96.0.0/12: what kube gives the `kubernetes` Service. */
export const KUBERNETES_SERVICE_IP = '10.96.0.1';

export interface ApiServerEndpoint {
  /** Address clients reach this server at (the advertise address). */
  host: string;
  port: number;
  /** ClusterIP of the `kubernetes` Service: the first address of --service-cluster-ip-range (default 10.96.0.1). */
  serviceIP?: string;
}

/** Creates each system namespace that is missing. Idempotent; safe to run on every start. */
export async function ensureSystemNamespaces(registry: RestRegistry): Promise<void> {
  const ns = registry.lookup('', 'v1', 'namespaces');
  if (!ns) throw new Error('namespaces are not served');
  for (const name of SYSTEM_NAMESPACES) {
    await ensureObject(ns, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
}

/**
 * kube-apiserver's scheduling/bootstrap-system-priority-classes hook: the two system PriorityClasses pods of
 * critical components name (the Priority admission plugin resolves them like any other class).
 */
export async function ensureSystemPriorityClasses(registry: RestRegistry): Promise<void> {
  const pcs = registry.lookup('scheduling.k8s.io', 'v1', 'priorityclasses');
  if (!pcs) return;
  const classes: Array<[string, number, string]> = [
    ['system-node-critical', 2000001000, 'Used for system critical pods that must not be moved from their current node.'],
    ['system-cluster-critical', 2000000000, 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.'],
  ];
  for (const [name, value, description] of classes) {
    await ensureObject(pcs, '', { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, description });
  }
}

/**
 * Creates `obj` unless an object of that name exists (existing objects are left alone). Replicas starting at
 * once race here: AlreadyExists is success, and any other refusal (the Service's ClusterIP "already
 * allocated" by the replica whose create is still in flight) is looked at again a few times before it counts.
 */
async function ensureObject(storage: RestStorage, namespace: string, obj: KObject, attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await storage.get(systemContext({ namespace }), obj.metadata.name ?? '', {});
      return;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    try {
      await storage.create(systemContext({ namespace }), structuredClone(obj), {});
      return;
    } catch (err) {
      if (isAlreadyExists(err)) return;
      if (attempt >= attempts) throw err;
    }
    await new Promise((r) => setTimeout(r, 100 * attempt));
  }
}

/**
 * The `kubernetes` Service (ClusterIP 10.96.0.1, port 443 → our port). Its Endpoints and EndpointSlice belong to the
 * endpoint reconciler (./apiserver/endpoint-reconciler.ts), which keeps them at the live replicas. Skipped when
 * Services are not served; failures are logged, not fatal (clients do not need it to talk to us).
 */
export async function ensureKubernetesService(registry: RestRegistry, endpoint: ApiServerEndpoint, log?: Logger): Promise<void> {
  const labels = { component: 'apiserver', provider: 'kubernetes' };
  const serviceIP = endpoint.serviceIP ?? KUBERNETES_SERVICE_IP;
  const port = { name: 'https', port: 443, protocol: 'TCP', targetPort: endpoint.port };
  const steps: Array<[string, string, string, KObject]> = [
    ['', 'v1', 'services', {
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'kubernetes', namespace: 'default', labels },
      spec: {
        type: 'ClusterIP', clusterIP: serviceIP, clusterIPs: [serviceIP], ports: [port],
        sessionAffinity: 'None', ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', internalTrafficPolicy: 'Cluster',
      },
    }],
  ];
  for (const [group, version, resource, obj] of steps) {
    const storage = registry.lookup(group, version, resource);
    if (!storage) continue;
    try {
      await ensureObject(storage, 'default', obj);
    } catch (err) {
      log?.(`bootstrap: could not create ${resource}/kubernetes: ${(err as Error)?.message ?? String(err)}`);
    }
  }
}
