/**
 * The node authorizer's graph (kube's plugin/pkg/auth/authorizer/node/graph.go): vertices are objects, edges
 * point toward the node that may read them:
 *
 *   secret/configmap/pvc/serviceaccount/resourceclaim → pod → node
 *   pv → pvc;  secret → pv;  volumeattachment → node;  resourceslice → node
 *
 * Every source object (pod, pv, volume attachment, resource slice) owns the edges it contributed; updating
 * or deleting it replaces them. Edges are reference counted, so two pods sharing a secret keep its edge
 * until both are gone. A vertex exists while some edge touches it. Unscheduled pods contribute nothing.
 */
import type { KObject } from '../../machinery/objects.ts';
import { podConfigMapNames, podPvcNames, podResourceClaimNames, podSecretNames, pvSecretRefs } from './refs.ts';

export type VertexType = 'configmap' | 'node' | 'pod' | 'pvc' | 'pv' | 'resourceclaim' | 'resourceslice' | 'secret' | 'serviceaccount' | 'volumeattachment';

export const vertexKey = (type: VertexType, namespace: string, name: string): string => `${type}/${namespace}/${name}`;

type Edge = readonly [from: string, to: string];

export class NodeGraph {
  /** from → (to → count) */
  private readonly out = new Map<string, Map<string, number>>();
  /** Vertices and how many edge ends touch them. */
  private readonly degree = new Map<string, number>();
  /** Source object key → the edges it contributed. */
  private readonly owned = new Map<string, Edge[]>();

  hasVertex(type: VertexType, namespace: string, name: string): boolean {
    return this.degree.has(vertexKey(type, namespace, name));
  }

  /** Replaces the edges `owner` contributed (an empty list removes them). */
  setOwned(owner: string, edges: Edge[]): void {
    for (const e of this.owned.get(owner) ?? []) this.removeEdge(e);
    if (edges.length) this.owned.set(owner, edges);
    else this.owned.delete(owner);
    for (const e of edges) this.addEdge(e);
  }

  private bump(v: string, d: number): void {
    const n = (this.degree.get(v) ?? 0) + d;
    if (n > 0) this.degree.set(v, n);
    else this.degree.delete(v);
  }

  private addEdge([from, to]: Edge): void {
    let m = this.out.get(from);
    if (!m) this.out.set(from, (m = new Map()));
    m.set(to, (m.get(to) ?? 0) + 1);
    this.bump(from, 1);
    this.bump(to, 1);
  }

  private removeEdge([from, to]: Edge): void {
    const m = this.out.get(from);
    const n = m?.get(to);
    if (!m || !n) return;
    if (n > 1) m.set(to, n - 1);
    else m.delete(to);
    if (!m.size) this.out.delete(from);
    this.bump(from, -1);
    this.bump(to, -1);
  }

  /** Is there a directed path from the object to the node? Edges into other nodes are not followed. */
  hasPath(startType: VertexType, namespace: string, name: string, nodeName: string): boolean {
    const target = vertexKey('node', '', nodeName);
    const start = vertexKey(startType, namespace, name);
    if (!this.degree.has(target) || !this.degree.has(start)) return false;
    const seen = new Set<string>([start]);
    const stack = [start];
    while (stack.length) {
      const v = stack.pop()!;
      for (const to of this.out.get(v)?.keys() ?? []) {
        if (to === target) return true;
        if (seen.has(to) || to.startsWith('node/')) continue;
        seen.add(to);
        stack.push(to);
      }
    }
    return false;
  }

  // ---- populators (kube's graph_populator) ----

  setPod(pod: KObject): void {
    const ns = pod.metadata.namespace ?? '';
    const name = pod.metadata.name ?? '';
    const owner = `pod/${ns}/${name}`;
    const p = pod as KObject & { spec?: { nodeName?: string; serviceAccountName?: string } };
    const nodeName = p.spec?.nodeName;
    if (!nodeName) {
      this.setOwned(owner, []);
      return;
    }
    const podV = vertexKey('pod', ns, name);
    const edges: Edge[] = [[podV, vertexKey('node', '', nodeName)]];
    if (p.spec?.serviceAccountName) edges.push([vertexKey('serviceaccount', ns, p.spec.serviceAccountName), podV]);
    for (const s of podSecretNames(pod)) edges.push([vertexKey('secret', ns, s), podV]);
    for (const c of podConfigMapNames(pod)) edges.push([vertexKey('configmap', ns, c), podV]);
    for (const c of podPvcNames(pod)) edges.push([vertexKey('pvc', ns, c), podV]);
    for (const c of podResourceClaimNames(pod)) edges.push([vertexKey('resourceclaim', ns, c), podV]);
    this.setOwned(owner, edges);
  }

  deletePod(pod: KObject): void {
    this.setOwned(`pod/${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`, []);
  }

  setPv(pv: KObject): void {
    const name = pv.metadata.name ?? '';
    const pvV = vertexKey('pv', '', name);
    const claim = (pv as { spec?: { claimRef?: { namespace?: string; name?: string } } }).spec?.claimRef;
    const edges: Edge[] = [];
    if (claim?.name) {
      edges.push([pvV, vertexKey('pvc', claim.namespace ?? '', claim.name)]);
      for (const s of pvSecretRefs(pv)) edges.push([vertexKey('secret', s.namespace, s.name), pvV]);
    }
    this.setOwned(`pv//${name}`, edges);
  }

  deletePv(pv: KObject): void {
    this.setOwned(`pv//${pv.metadata.name ?? ''}`, []);
  }

  /** volumeattachment → node, resourceslice → node (spec.nodeName). */
  setNodeBound(type: 'volumeattachment' | 'resourceslice', obj: KObject): void {
    const name = obj.metadata.name ?? '';
    const nodeName = (obj as { spec?: { nodeName?: string } }).spec?.nodeName;
    this.setOwned(`${type}//${name}`, nodeName ? [[vertexKey(type, '', name), vertexKey('node', '', nodeName)]] : []);
  }

  deleteNodeBound(type: 'volumeattachment' | 'resourceslice', obj: KObject): void {
    this.setOwned(`${type}//${obj.metadata.name ?? ''}`, []);
  }
}
