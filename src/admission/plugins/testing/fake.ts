/**
 * Unit-test support for the built-in plugins: a registry of in-memory objects (enough for listers: get, list,
 * an idle watch, create), a plugin context over it, and admission attributes for a request.
 */
import { StatusError, errors } from '../../../machinery/errors.ts';
import type { KObject, UserInfo } from '../../../machinery/objects.ts';
import type { RestRegistry, RestStorage } from '../../../registry/rest.ts';
import type { Attributes, Decision } from '../../../request/authorizer.ts';
import type { AdmissionAttributes, AdmissionOperation, PluginContext } from '../../types.ts';

export interface FakeRegistry extends RestRegistry {
  /** `group/resource` → objects. */
  readonly objects: Map<string, KObject[]>;
  add(group: string, resource: string, obj: KObject): KObject;
  /** Creates made through the registry (`group/resource`). */
  readonly created: Array<{ resource: string; object: KObject }>;
}

export function fakeRegistry(): FakeRegistry {
  const objects = new Map<string, KObject[]>();
  const created: Array<{ resource: string; object: KObject }> = [];
  const storages = new Map<string, RestStorage>();
  let uid = 0;
  const all = (key: string) => {
    if (!objects.has(key)) objects.set(key, []);
    return objects.get(key)!;
  };
  const storageFor = (group: string, resource: string): RestStorage => {
    const key = `${group}/${resource}`;
    let s = storages.get(key);
    if (s) return s;
    const cached = (o: KObject) => ({ key: o.metadata.name, object: o });
    s = {
      def: { group, version: 'v1', resource } as RestStorage['def'],
      async get(ctx, name) {
        const o = all(key).find((x) => x.metadata.name === name && (x.metadata.namespace ?? '') === (ctx.namespace ?? ''));
        if (!o) throw errors.notFound({ kind: resource, name });
        return cached(o) as never;
      },
      async list() {
        return { items: all(key).map(cached), resourceVersion: '1' } as never;
      },
      async watch() {
        return { dispose() {} } as never;
      },
      async create(ctx, obj) {
        const o = structuredClone(obj);
        if (ctx.namespace) o.metadata.namespace = ctx.namespace;
        if (all(key).some((x) => x.metadata.name === o.metadata.name && (x.metadata.namespace ?? '') === (o.metadata.namespace ?? ''))) {
          throw errors.alreadyExists({ kind: resource, name: o.metadata.name ?? '' });
        }
        all(key).push(o);
        created.push({ resource: key, object: o });
        return o;
      },
      update: () => Promise.reject(new StatusError(405, 'MethodNotAllowed', 'not in the fake')),
      guaranteedUpdate: () => Promise.reject(new StatusError(405, 'MethodNotAllowed', 'not in the fake')),
      delete: () => Promise.reject(new StatusError(405, 'MethodNotAllowed', 'not in the fake')),
      deleteCollection: () => Promise.reject(new StatusError(405, 'MethodNotAllowed', 'not in the fake')),
    };
    storages.set(key, s);
    return s;
  };
  return {
    objects,
    created,
    lookup: (group, _version, resource) => storageFor(group, resource),
    add(group, resource, obj) {
      const o = structuredClone(obj);
      o.metadata.uid ??= `uid-${++uid}`;
      o.metadata.creationTimestamp ??= '2025-01-01T00:00:00Z';
      all(`${group}/${resource}`).push(o);
      return o;
    },
  };
}

export interface ContextOptions {
  readonly registry?: FakeRegistry;
  readonly config?: unknown;
  readonly gates?: Record<string, boolean>;
  /** Decides authorization requests (default: deny everything). */
  readonly authorize?: (a: Attributes) => Decision | Promise<Decision>;
  readonly options?: PluginContext['options'];
  readonly lookupKind?: PluginContext['lookupKind'];
  readonly now?: () => Date;
}

export function pluginContext(o: ContextOptions = {}): PluginContext & { registry: FakeRegistry; asked: Attributes[] } {
  const asked: Attributes[] = [];
  const registry = o.registry ?? fakeRegistry();
  return {
    registry,
    asked,
    authorizer: () => ({
      name: 'fake',
      authorize: (a) => {
        asked.push(a);
        return o.authorize ? o.authorize(a) : { kind: 'no-opinion', reason: '' };
      },
    }),
    featureEnabled: (g) => o.gates?.[g] ?? false,
    config: o.config,
    configDir: '.',
    log: () => {},
    now: o.now ?? (() => new Date()),
    ...(o.options ? { options: o.options } : {}),
    ...(o.lookupKind ? { lookupKind: o.lookupKind } : {}),
  };
}

const KINDS: Record<string, [string, string]> = {
  pods: ['', 'Pod'], nodes: ['', 'Node'], persistentvolumeclaims: ['', 'PersistentVolumeClaim'], persistentvolumes: ['', 'PersistentVolume'],
  services: ['', 'Service'], events: ['', 'Event'], serviceaccounts: ['', 'ServiceAccount'], namespaces: ['', 'Namespace'], configmaps: ['', 'ConfigMap'],
  priorityclasses: ['scheduling.k8s.io', 'PriorityClass'], certificatesigningrequests: ['certificates.k8s.io', 'CertificateSigningRequest'],
  clustertrustbundles: ['certificates.k8s.io', 'ClusterTrustBundle'], ingresses: ['networking.k8s.io', 'Ingress'],
  leases: ['coordination.k8s.io', 'Lease'], csinodes: ['storage.k8s.io', 'CSINode'], resourceslices: ['resource.k8s.io', 'ResourceSlice'],
};

export interface RequestOptions {
  readonly operation?: AdmissionOperation;
  readonly resource: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly object?: KObject;
  readonly oldObject?: KObject;
  readonly user?: UserInfo;
  readonly dryRun?: boolean;
  /** The kind when it is not the resource's own (sub-resources: Binding, Eviction, TokenRequest). */
  readonly kind?: string;
}

export function request(o: RequestOptions): AdmissionAttributes {
  const [group, kind] = KINDS[o.resource] ?? ['', 'Unknown'];
  const version = group === 'certificates.k8s.io' && o.resource === 'clustertrustbundles' ? 'v1beta1' : 'v1';
  const gvk = { group, version, kind: o.kind ?? kind };
  const gvr = { group, version, resource: o.resource };
  return {
    operation: o.operation ?? 'CREATE', kind: gvk, resource: gvr, subresource: o.subresource ?? '', requestKind: gvk, requestResource: gvr,
    requestSubResource: o.subresource ?? '', name: o.name ?? o.object?.metadata.name ?? '', namespace: o.namespace ?? '',
    object: o.object ? structuredClone(o.object) : undefined, oldObject: o.oldObject, options: undefined, dryRun: o.dryRun ?? false,
    user: o.user ?? { username: 'admin', groups: ['system:masters'] }, warnings: [], auditAnnotations: {}, reinvocation: { requested: false, running: false },
  };
}

/** Runs the plugin's two phases as the chain does (validate on the admitted object). */
export async function admitAndValidate(plugin: { admit?(a: AdmissionAttributes): unknown; validate?(a: AdmissionAttributes): unknown }, a: AdmissionAttributes): Promise<AdmissionAttributes> {
  await plugin.admit?.(a);
  await plugin.validate?.(a);
  return a;
}

/** The StatusError a call (or a promise) fails with, asserting that it does. */
export async function refusal(p: unknown): Promise<StatusError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}
