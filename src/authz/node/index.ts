/**
 * `--authorization-mode=Node`: kube's node authorizer over a graph kept current by informers on pods,
 * persistent volumes, volume attachments and (when served) resource slices. The server reports ready once
 * every informer has listed (onReady); informers stop with the server (onStop).
 */
import { registerAuthorizationMode, type AuthorizerDeps } from '../modes.ts';
import type { Authorizer } from '../../request/authorizer.ts';
import type { KObject } from '../../machinery/objects.ts';
import type { RestRegistry, RestStorage } from '../../registry/rest.ts';
import { Informer } from '../../client/informer.ts';
import { FeatureGates } from '../../features/gates.ts';
import { NodeGraph } from './graph.ts';
import { nodeAuthorizer } from './authorizer.ts';

export { NodeGraph } from './graph.ts';
export { nodeAuthorizer, nodeIdentity } from './authorizer.ts';

function gate(gates: FeatureGates, name: string): boolean {
  try {
    return gates.enabled(name);
  } catch {
    return false;
  }
}

function firstServed(registry: RestRegistry, group: string, resource: string, versions: string[]): RestStorage | undefined {
  for (const v of versions) {
    const s = registry.lookup(group, v, resource);
    if (s) return s;
  }
  return undefined;
}

/** Feeds the graph from the registry; returns the informers (started) and a promise for their first lists. */
export function populateGraph(graph: NodeGraph, registry: RestRegistry, log?: (line: string) => void): { informers: Informer[]; synced: Promise<void> } {
  const informers: Informer[] = [];
  const watch = (storage: RestStorage | undefined, set: (o: KObject) => void, del: (o: KObject) => void): void => {
    if (!storage) return;
    const inf = new Informer({ storage, log });
    inf.addHandler({ onAdd: set, onUpdate: (_old, o) => set(o), onDelete: del });
    informers.push(inf);
  };
  watch(registry.lookup('', 'v1', 'pods'), (o) => graph.setPod(o), (o) => graph.deletePod(o));
  watch(registry.lookup('', 'v1', 'persistentvolumes'), (o) => graph.setPv(o), (o) => graph.deletePv(o));
  watch(registry.lookup('storage.k8s.io', 'v1', 'volumeattachments'), (o) => graph.setNodeBound('volumeattachment', o), (o) => graph.deleteNodeBound('volumeattachment', o));
  watch(firstServed(registry, 'resource.k8s.io', 'resourceslices', ['v1', 'v1beta2', 'v1beta1', 'v1alpha3']),
    (o) => graph.setNodeBound('resourceslice', o), (o) => graph.deleteNodeBound('resourceslice', o));
  const synced = Promise.all(informers.map((i) => i.start())).then(() => undefined);
  return { informers, synced };
}

export function nodeModeAuthorizer(deps: AuthorizerDeps): Authorizer {
  if (!deps.registry) throw new Error('Node authorization needs the registry');
  const gates = FeatureGates.create(deps.options?.featureGates ?? {});
  const graph = new NodeGraph();
  const { informers, synced } = populateGraph(graph, deps.registry, deps.log);
  // Surfaced through ready(); until then requests needing the graph see no relationship (no opinion).
  synced.catch((e: unknown) => deps.log?.(`node authorizer: initial list failed: ${(e as Error).message}`));
  deps.onReady?.(() => synced);
  deps.onStop?.(async () => {
    for (const i of informers) i.stop();
    await synced.catch(() => undefined);
  });
  return nodeAuthorizer({
    graph,
    withSelectors: gate(gates, 'AuthorizeNodeWithSelectors') && gate(gates, 'AuthorizeWithSelectors'),
    dynamicResourceAllocation: gate(gates, 'DynamicResourceAllocation'),
    clusterTrustBundle: gate(gates, 'ClusterTrustBundle'),
  });
}

registerAuthorizationMode('Node', nodeModeAuthorizer);
