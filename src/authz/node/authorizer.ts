/**
 * kube's NodeAuthorizer (v1.33): only users `system:node:<name>` in group `system:nodes` get an opinion.
 * Secrets, configmaps, PVCs, PVs, resource claims, volume attachments and service-account tokens are allowed
 * when the graph links the object to the node; leases and CSINodes only under the node's own name; with
 * AuthorizeNodeWithSelectors a node reads only its own Node and lists/watches pods only with
 * `spec.nodeName=<self>`. Everything else is checked against the static node rules. Never denies.
 */
import type { UserInfo } from '../../machinery/objects.ts';
import type { Attributes, Authorizer, Decision, RulesResult } from '../../request/authorizer.ts';
import type { NodeGraph, VertexType } from './graph.ts';
import { nodeRules, rulesAllow, type NodeRuleGates } from './rules.ts';

const NODE_PREFIX = 'system:node:';
const NODES_GROUP = 'system:nodes';
const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** kube's NodeIdentity: undefined when not a node; '' when a node user without a name. */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.username.startsWith(NODE_PREFIX) || !user.groups.includes(NODES_GROUP)) return undefined;
  return user.username.slice(NODE_PREFIX.length);
}

export interface NodeAuthorizerOptions extends NodeRuleGates {
  readonly graph: NodeGraph;
  /** AuthorizeNodeWithSelectors (and AuthorizeWithSelectors) on. */
  readonly withSelectors: boolean;
}

const ALLOW: Decision = { kind: 'allow' };
const none = (reason?: string): Decision => ({ kind: 'no-opinion', ...(reason ? { reason } : {}) });

/** Synchronous: the graph is in memory. */
export type NodeAuthorizer = Omit<Authorizer, 'authorize' | 'rulesFor'> & { authorize(a: Attributes): Decision; rulesFor(user: UserInfo, namespace: string): RulesResult };

export function nodeAuthorizer(o: NodeAuthorizerOptions): NodeAuthorizer {
  const rules = nodeRules(o);
  const g = o.graph;

  const related = (node: string, type: VertexType, a: Attributes): Decision => {
    if (!a.name) return none('No Object name found');
    return g.hasPath(type, a.namespace, a.name, node) ? ALLOW : none(`no relationship found between node '${node}' and this object`);
  };
  const get = (node: string, type: VertexType, a: Attributes): Decision => {
    if (a.verb !== 'get') return none('can only get individual resources of this type');
    if (a.subresource) return none('cannot get subresource');
    return related(node, type, a);
  };
  const readNamespaced = (node: string, type: VertexType, a: Attributes): Decision => {
    if (!['get', 'list', 'watch'].includes(a.verb)) return none('can only read resources of this type');
    if (a.subresource) return none('cannot read subresource');
    if (!a.namespace) return none('can only read namespaced object of this type');
    return related(node, type, a);
  };
  const statusUpdate = (node: string, type: VertexType, a: Attributes): Decision => {
    if (a.verb !== 'update' && a.verb !== 'patch') return none('can only get/update/patch this type');
    return related(node, type, a);
  };
  const createToken = (node: string, a: Attributes): Decision => {
    if (a.verb !== 'create' || !a.name) return none('can only create tokens for individual service accounts');
    if (a.subresource !== 'token') return none('can only create token subresource of serviceaccount');
    return related(node, 'serviceaccount', a);
  };
  const lease = (node: string, a: Attributes): Decision => {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return none('can only get, create, update, patch, or delete a node lease');
    if (a.namespace !== NODE_LEASE_NAMESPACE) return none(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
    if (a.verb !== 'create' && a.name !== node) return none('can only access node lease with the same name as the requesting node');
    return ALLOW;
  };
  const csiNode = (node: string, a: Attributes): Decision => {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return none('can only get, create, update, patch, or delete a CSINode');
    if (a.subresource) return none('cannot authorize CSINode subresources');
    if (a.verb !== 'create' && a.name !== node) return none('can only access CSINode with the same name as the requesting node');
    return ALLOW;
  };
  const resourceSlice = (node: string, a: Attributes): Decision => {
    if (a.subresource) return none('cannot authorize ResourceSlice subresources');
    switch (a.verb) {
      case 'create': return ALLOW;
      case 'get': case 'update': case 'patch': case 'delete': return related(node, 'resourceslice', a);
      case 'watch': case 'list': case 'deletecollection':
        if (!o.withSelectors) return ALLOW;
        return (a.fieldSelectorRequirements ?? []).some((r) => r.field === 'spec.nodeName' && r.operator === '=' && r.value === node)
          ? ALLOW : none('can only list/watch/deletecollection resourceslices with nodeName field selector');
      default: return none('only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection');
    }
  };
  const nodeObject = (node: string, a: Attributes): Decision => {
    if (!a.subresource) {
      if (['create', 'update', 'patch'].includes(a.verb)) return ALLOW;
      if (['get', 'list', 'watch'].includes(a.verb)) {
        if (a.name === node) return ALLOW;
        return none(a.name ? `node '${node}' cannot read '${a.name}', only its own Node object` : `node '${node}' cannot read all nodes, only its own Node object`);
      }
    } else if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) {
      return ALLOW;
    }
    return none();
  };
  const pod = (node: string, a: Attributes): Decision => {
    if (!a.subresource) {
      if (a.verb === 'get') return get(node, 'pod', a);
      if (a.verb === 'list' || a.verb === 'watch') {
        if ((a.fieldSelectorRequirements ?? []).some((r) => r.field === 'spec.nodeName' && r.operator === '=' && r.value === node)) return ALLOW;
        if (a.name) return related(node, 'pod', a);
        return none('can only list/watch pods with spec.nodeName field selector');
      }
      if (a.verb === 'create' || a.verb === 'delete') return ALLOW;
    } else if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) {
      return ALLOW;
    } else if (a.subresource === 'eviction' && a.verb === 'create') {
      return ALLOW;
    }
    return none();
  };

  return {
    name: 'Node',
    authorize(a: Attributes): Decision {
      const node = nodeIdentity(a.user);
      if (node === undefined) return none();
      if (node === '') return none(`unknown node for user "${a.user.username}"`);
      if (a.isResourceRequest) {
        switch (`${a.apiGroup}/${a.resource}`) {
          case '/secrets': return readNamespaced(node, 'secret', a);
          case '/configmaps': return readNamespaced(node, 'configmap', a);
          case '/persistentvolumeclaims': return a.subresource === 'status' ? statusUpdate(node, 'pvc', a) : get(node, 'pvc', a);
          case '/persistentvolumes': return get(node, 'pv', a);
          case 'resource.k8s.io/resourceclaims': return get(node, 'resourceclaim', a);
          case 'storage.k8s.io/volumeattachments': return get(node, 'volumeattachment', a);
          case '/serviceaccounts': return createToken(node, a);
          case 'coordination.k8s.io/leases': return lease(node, a);
          case 'storage.k8s.io/csinodes': return csiNode(node, a);
          case 'resource.k8s.io/resourceslices': return resourceSlice(node, a);
          case '/nodes': if (o.withSelectors) return nodeObject(node, a); break;
          case '/pods': if (o.withSelectors) return pod(node, a); break;
        }
      }
      return rulesAllow(a, rules) ? ALLOW : none();
    },
    // kube: nodes do not have fully enumerated permissions; other users get nothing from this authorizer.
    rulesFor(user: UserInfo): RulesResult {
      if (nodeIdentity(user) !== undefined) {
        return { resourceRules: [], nonResourceRules: [], incomplete: true, errors: ['node authorizer does not support user rule resolution'] };
      }
      return { resourceRules: [], nonResourceRules: [], incomplete: false };
    },
  };
}
