/**
 * Test support for the registry's unit tests: a tiny catalog (configmaps, namespaces, a cluster-scoped
 * path-segment kind, deployments with status + scale, a graceful kind) over a MemoryStore, and helpers to
 * build contexts. The real catalog is src/api/catalog.ts.
 */
import assert from 'node:assert/strict';
import { StatusError } from '../../machinery/errors.ts';
import type { KObject } from '../../machinery/objects.ts';
import type { ResourceDef } from '../../api/types.ts';
import { MemoryStore } from '../../storage/memory/memory-store.ts';
import { AdmissionChain } from '../../admission/chain.ts';
import { namespaceLifecycle } from '../../admission/plugins/namespace-lifecycle.ts';
import type { ObjectEvent, ObjectWatchSink } from '../../storage/cacher/types.ts';
import type { OpContext } from '../rest.ts';
import { createRegistry, type CatalogLike, type Registry, type RegistryOptions } from '../registry.ts';
import type { RegistryStrategy } from '../strategy.ts';

export const configmaps: ResourceDef = {
  group: '', version: 'v1', resource: 'configmaps', singular: 'configmap', kind: 'ConfigMap', listKind: 'ConfigMapList',
  namespaced: true, verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  nameRule: 'dns1123-subdomain', storagePrefix: '/registry/configmaps/',
  strategy: { allowUnconditionalUpdate: true },
};

export const namespaces: ResourceDef = {
  group: '', version: 'v1', resource: 'namespaces', singular: 'namespace', kind: 'Namespace', listKind: 'NamespaceList',
  namespaced: false, verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }, { name: 'finalize', verbs: ['update'] }],
  nameRule: 'dns1123-label', storagePrefix: '/registry/namespaces/',
  selectableFields: { 'status.phase': (o) => (o['status'] as { phase?: string } | undefined)?.phase },
  strategy: { allowUnconditionalUpdate: true },
};

export const clusterroles: ResourceDef = {
  group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', singular: 'clusterrole', kind: 'ClusterRole',
  listKind: 'ClusterRoleList', namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  nameRule: 'path-segment', storagePrefix: '/registry/clusterroles/', strategy: { allowUnconditionalUpdate: true },
};

const deploymentStrategy: RegistryStrategy = { tracksGeneration: true, allowUnconditionalUpdate: true };
export const deployments: ResourceDef = {
  group: 'apps', version: 'v1', resource: 'deployments', singular: 'deployment', kind: 'Deployment', listKind: 'DeploymentList',
  namespaced: true, verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: [
    { name: 'status', verbs: ['get', 'patch', 'update'] },
    { name: 'scale', kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
  ],
  nameRule: 'dns1123-subdomain', storagePrefix: '/registry/deployments/', strategy: deploymentStrategy,
};

/** A pod-like kind with graceful deletion (30 s unless asked otherwise). */
export const pods: ResourceDef = {
  group: '', version: 'v1', resource: 'pods', singular: 'pod', kind: 'Pod', listKind: 'PodList', namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  nameRule: 'dns1123-subdomain', storagePrefix: '/registry/pods/',
  selectableFields: { 'spec.nodeName': (o) => (o['spec'] as { nodeName?: string } | undefined)?.nodeName },
  strategy: {
    allowUnconditionalUpdate: true,
    gracefulDeletePeriod: (_obj, requested) => requested ?? 30,
  },
};

export const testDefs: readonly ResourceDef[] = [configmaps, namespaces, clusterroles, deployments, pods];

export function testCatalog(defs: readonly ResourceDef[] = testDefs): CatalogLike {
  return {
    all: () => defs,
    lookup: (g, v, r) => defs.find((d) => d.group === g && d.version === v && d.resource === r),
  };
}

export interface TestEnv {
  readonly store: MemoryStore;
  readonly registry: Registry;
  close(): Promise<void>;
}

/**
 * A registry over a fresh MemoryStore with namespaces `default` (Active) and `gone` (Terminating), admitting
 * through NamespaceLifecycle (as every server does) unless `admission` is given.
 */
export async function testEnv(opts: Partial<Omit<RegistryOptions, 'store' | 'catalog'>> & { defs?: readonly ResourceDef[]; bare?: boolean } = {}): Promise<TestEnv> {
  const store = new MemoryStore();
  let chain: AdmissionChain | undefined;
  const registry = await createRegistry({ catalog: testCatalog(opts.defs), store, cache: opts.cache ?? false, admission: () => chain, ...opts });
  chain = new AdmissionChain([namespaceLifecycle({
    registry, authorizer: () => ({ name: 'none', authorize: () => ({ kind: 'no-opinion' }) }), featureEnabled: () => false,
    config: undefined, configDir: '.', log: () => {}, now: () => new Date(),
  })]);
  if (!opts.bare) {
    const ns = registry.lookup('', 'v1', 'namespaces')!;
    await ns.create(sys(''), { metadata: { name: 'default' } }, {});
    await ns.create(sys(''), { metadata: { name: 'gone' } }, {});
    await ns.delete(sys(''), 'gone', {});
  }
  return {
    store, registry,
    async close() {
      await registry.stop();
      await store.close();
    },
  };
}

/** A system caller's context (`system:apiserver`, `system:masters`). */
export function sys(namespace: string, extra: Partial<OpContext> = {}): OpContext {
  return {
    namespace, user: { username: 'system:apiserver', groups: ['system:masters'] }, dryRun: false, subresource: '',
    warnings: [], ...extra,
  };
}

export function cm(name: string, data: Record<string, string> = { a: 'b' }, meta: Partial<KObject['metadata']> = {}): KObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...meta }, data };
}

/** Collects watch events; `next(n)` waits for n more (bounded by the test's timeout). */
export class EventLog implements ObjectWatchSink {
  readonly events: ObjectEvent[] = [];
  closed: Error | undefined | null = null;
  private waiters: (() => void)[] = [];

  onEvent(e: ObjectEvent): boolean {
    this.events.push(e);
    this.wake();
    return true;
  }

  onClose(err?: Error): void {
    this.closed = err;
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Resolves when at least `count` events arrived or the watch closed. */
  async until(count: number): Promise<ObjectEvent[]> {
    while (this.events.length < count && this.closed === null) await new Promise<void>((r) => this.waiters.push(r));
    return this.events;
  }

  async untilClosed(): Promise<Error | undefined> {
    while (this.closed === null) await new Promise<void>((r) => this.waiters.push(r));
    return this.closed;
  }

  summary(): string[] {
    return this.events.map((e) => `${e.type} ${e.object?.object.metadata.name ?? ''}`.trim());
  }
}

/** Awaits a call that must fail with a StatusError and returns its Status body. */
export async function statusOf(p: Promise<unknown>): Promise<ReturnType<StatusError['toStatus']>> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof StatusError, `expected a StatusError, got ${String(e)}`);
    return e.toStatus();
  }
  assert.fail('expected the call to fail');
}
