import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeGraph } from './graph.ts';
import { nodeAuthorizer, nodeIdentity } from './authorizer.ts';
import type { Attributes } from '../../request/authorizer.ts';

const node = (name: string) => ({ username: `system:node:${name}`, groups: ['system:nodes', 'system:authenticated'] });
const attrs = (a: Partial<Attributes>): Attributes => ({
  user: node('n1'), verb: 'get', isResourceRequest: true, path: '', apiGroup: '', apiVersion: 'v1', namespace: '', resource: '', subresource: '', name: '', ...a,
});
const gates = { dynamicResourceAllocation: false, clusterTrustBundle: false };

test('nodeIdentity: prefix and group both required', () => {
  assert.equal(nodeIdentity(node('a')), 'a');
  assert.equal(nodeIdentity({ username: 'system:node:a', groups: [] }), undefined);
  assert.equal(nodeIdentity({ username: 'a', groups: ['system:nodes'] }), undefined);
  assert.equal(nodeIdentity({ username: 'system:node:', groups: ['system:nodes'] }), '');
});

test('without AuthorizeNodeWithSelectors, nodes and pods fall back to the static rules', () => {
  const a = nodeAuthorizer({ graph: new NodeGraph(), withSelectors: false, ...gates });
  assert.equal(a.authorize(attrs({ verb: 'list', resource: 'pods' })).kind, 'allow');
  assert.equal(a.authorize(attrs({ verb: 'get', resource: 'nodes', name: 'other' })).kind, 'allow');
  assert.equal(a.authorize(attrs({ verb: 'deletecollection', resource: 'pods' })).kind, 'no-opinion');
  const b = nodeAuthorizer({ graph: new NodeGraph(), withSelectors: true, ...gates });
  assert.equal(b.authorize(attrs({ verb: 'list', resource: 'pods' })).kind, 'no-opinion');
  assert.equal(b.authorize(attrs({ verb: 'list', resource: 'pods', fieldSelectorRequirements: [{ field: 'spec.nodeName', operator: '=', value: 'n1' }] })).kind, 'allow');
  assert.equal(b.authorize(attrs({ verb: 'list', resource: 'pods', fieldSelectorRequirements: [{ field: 'spec.nodeName', operator: '!=', value: 'n1' }] })).kind, 'no-opinion');
});

test('static rules: subresources, groups, non-resource requests; resource claims only with DRA', () => {
  const a = nodeAuthorizer({ graph: new NodeGraph(), withSelectors: true, ...gates });
  assert.equal(a.authorize(attrs({ verb: 'create', resource: 'pods', subresource: 'eviction', namespace: 'x', name: 'p' })).kind, 'allow');
  assert.equal(a.authorize(attrs({ verb: 'create', apiGroup: 'certificates.k8s.io', resource: 'certificatesigningrequests' })).kind, 'allow');
  assert.equal(a.authorize(attrs({ verb: 'get', apiGroup: 'node.k8s.io', resource: 'runtimeclasses', name: 'r' })).kind, 'allow');
  assert.equal(a.authorize(attrs({ isResourceRequest: false, path: '/healthz', resource: '' })).kind, 'no-opinion');
  assert.deepEqual(a.authorize(attrs({ verb: 'list', resource: 'persistentvolumes' })), { kind: 'no-opinion', reason: 'can only get individual resources of this type' });
  assert.deepEqual(a.authorize(attrs({ verb: 'create', resource: 'serviceaccounts', subresource: 'token', namespace: 'ns', name: 'sa' })),
    { kind: 'no-opinion', reason: "no relationship found between node 'n1' and this object" });
  assert.equal(a.authorize(attrs({ verb: 'update', apiGroup: 'storage.k8s.io', resource: 'csinodes', name: 'n1' })).kind, 'allow');
  assert.equal(a.authorize(attrs({ verb: 'list', apiGroup: 'resource.k8s.io', resource: 'resourceslices', fieldSelectorRequirements: [{ field: 'spec.nodeName', operator: '=', value: 'n1' }] })).kind, 'allow');
  assert.equal(a.authorize(attrs({ user: { username: 'bob', groups: [] }, verb: 'list', resource: 'services' })).kind, 'no-opinion');
  assert.deepEqual(a.rulesFor(node('n1'), 'x'), { resourceRules: [], nonResourceRules: [], incomplete: true, errors: ['node authorizer does not support user rule resolution'] });
  assert.deepEqual(a.rulesFor({ username: 'bob', groups: [] }, 'x'), { resourceRules: [], nonResourceRules: [], incomplete: false });
});
