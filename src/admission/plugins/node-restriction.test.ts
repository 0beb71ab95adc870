// NodeRestriction (kube's plugin/pkg/admission/noderestriction).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import { forbiddenNodeLabels, nodeRestrictionPlugin } from './node-restriction.ts';
import { pluginContext, refusal, request } from './testing/fake.ts';

const n1 = { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };

async function setup(gates: Record<string, boolean> = { ServiceAccountNodeAudienceRestriction: true }) {
  const ctx = pluginContext({ gates });
  const node = ctx.registry.add('', 'nodes', { metadata: { name: 'n1' } });
  ctx.registry.add('', 'pods', { metadata: { name: 'mine', namespace: 'ns', uid: 'pod-uid' }, spec: { nodeName: 'n1', containers: [],
    volumes: [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 't', audience: 'vault' } }] } }] } } as KObject);
  ctx.registry.add('', 'pods', { metadata: { name: 'theirs', namespace: 'ns' }, spec: { nodeName: 'n2', containers: [] } } as KObject);
  const plugin = nodeRestrictionPlugin(ctx);
  await plugin.ready!();
  return { plugin, nodeUid: node.metadata.uid! };
}

const mirror = (uid: string, spec: Record<string, unknown> = {}, owner: Record<string, unknown> = {}): KObject => ({
  metadata: { name: 'static', annotations: { 'kubernetes.io/config.mirror': 'h' }, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid, controller: true, ...owner }] as never },
  spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x' }], ...spec },
});

void test('mirror pods only, bound to and owned by the node, referencing nothing', async () => {
  const { plugin, nodeUid } = await setup();
  await plugin.admit!(request({ resource: 'pods', namespace: 'ns', object: mirror(nodeUid), user: n1 }));
  const cases: Array<[KObject, string]> = [
    [{ metadata: { name: 'static' }, spec: {} }, 'pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods'],
    [mirror(nodeUid, { nodeName: 'n2' }), 'node "n1" can only create pods with spec.nodeName set to itself'],
    [mirror(nodeUid, {}, { controller: false }), 'node "n1" can only create pods with a controller owner reference set to itself'],
    [mirror(nodeUid, {}, { blockOwnerDeletion: true }), 'node "n1" must not set blockOwnerDeletion on an owner reference'],
    [mirror('wrong'), `node n1 UID mismatch: expected wrong got ${nodeUid}`],
    [mirror(nodeUid, { serviceAccountName: 'x' }), 'node "n1" can not create pods that reference a service account'],
    [mirror(nodeUid, { imagePullSecrets: [{ name: 's' }] }), 'node "n1" can not create pods that reference secrets'],
    [mirror(nodeUid, { volumes: [{ name: 'v', configMap: { name: 'c' } }] }), 'node "n1" can not create pods that reference configmaps'],
    [mirror(nodeUid, { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }] }), 'node "n1" can not create pods that reference persistentvolumeclaims'],
  ];
  for (const [obj, why] of cases) {
    const e = await refusal(plugin.admit!(request({ resource: 'pods', namespace: 'ns', object: obj, user: n1 })));
    assert.equal(e.message, `pods "static" is forbidden: ${why}`);
  }
});

void test('pods: delete/evict/status only for its own; other operations and sub-resources refused', async () => {
  const { plugin } = await setup();
  const old = (name: string) => ({ metadata: { name, labels: { a: 'b' } }, spec: { nodeName: name === 'mine' ? 'n1' : 'n2' } });
  await plugin.admit!(request({ operation: 'DELETE', resource: 'pods', namespace: 'ns', name: 'mine', user: n1 }));
  assert.equal((await refusal(plugin.admit!(request({ operation: 'DELETE', resource: 'pods', namespace: 'ns', name: 'theirs', user: n1 })))).message,
    'pods "theirs" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself');
  assert.equal((await refusal(plugin.admit!(request({ operation: 'DELETE', resource: 'pods', namespace: 'ns', name: 'ghost', user: n1 })))).code, 404);
  assert.equal((await refusal(plugin.admit!(request({ operation: 'UPDATE', resource: 'pods', namespace: 'ns', name: 'mine', object: old('mine'), oldObject: old('mine'), user: n1 })))).message,
    'pods "mine" is forbidden: unexpected operation "UPDATE", node "n1" can only create and delete mirror pods');
  await plugin.admit!(request({ operation: 'UPDATE', resource: 'pods', subresource: 'status', namespace: 'ns', name: 'mine', object: old('mine'), oldObject: old('mine'), user: n1 }));
  assert.equal((await refusal(plugin.admit!(request({ operation: 'UPDATE', resource: 'pods', subresource: 'status', namespace: 'ns', name: 'mine', object: { ...old('mine'), metadata: { name: 'mine' } }, oldObject: old('mine'), user: n1 })))).message,
    'pods "mine" is forbidden: node "n1" cannot update labels through pod status');
  assert.equal((await refusal(plugin.admit!(request({ operation: 'UPDATE', resource: 'pods', subresource: 'status', namespace: 'ns', name: 'theirs', object: old('theirs'), oldObject: old('theirs'), user: n1 })))).message,
    'pods "theirs" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself');
  await plugin.admit!(request({ resource: 'pods', subresource: 'eviction', namespace: 'ns', name: 'mine', kind: 'Eviction', object: { metadata: { name: 'mine' } }, user: n1 }));
  assert.equal((await refusal(plugin.admit!(request({ resource: 'pods', subresource: 'eviction', namespace: 'ns', name: 'theirs', kind: 'Eviction', object: { metadata: { name: 'theirs' } }, user: n1 })))).message,
    'pods "theirs" is forbidden: node n1 can only evict pods with spec.nodeName set to itself');
  assert.equal((await refusal(plugin.admit!(request({ resource: 'pods', subresource: 'binding', namespace: 'ns', name: 'mine', kind: 'Binding', object: { metadata: { name: 'mine' } }, user: n1 })))).message,
    'pods "mine" is forbidden: unexpected pod subresource "binding", only \'status\' and \'eviction\' are allowed');
});

void test('nodes: only itself, no taint changes, kubelet labels only', async () => {
  const { plugin } = await setup();
  assert.deepEqual(forbiddenNodeLabels({ 'node-restriction.kubernetes.io/x': 'y', 'kubernetes.io/hostname': 'h', 'example.com/a': 'b', 'foo.k8s.io/b': 'c', 'sub.node.kubernetes.io/z': '1' }, undefined),
    ['foo.k8s.io/b', 'node-restriction.kubernetes.io/x']);
  await plugin.admit!(request({ resource: 'nodes', object: { metadata: { name: 'n1', labels: { 'kubernetes.io/hostname': 'n1', 'example.com/team': 'a' } } }, user: n1 }));
  assert.equal((await refusal(plugin.admit!(request({ resource: 'nodes', object: { metadata: { name: 'n2' } }, user: n1 })))).message,
    'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"');
  assert.equal((await refusal(plugin.admit!(request({ resource: 'nodes', object: { metadata: { name: 'n1', labels: { 'node-restriction.kubernetes.io/gpu': 'y' } } }, user: n1 })))).message,
    'nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: node-restriction.kubernetes.io/gpu');
  const node = (labels: Record<string, string>, taints?: unknown[]) => ({ metadata: { name: 'n1', labels }, spec: taints ? { taints } : {} });
  assert.equal((await refusal(plugin.admit!(request({ operation: 'UPDATE', resource: 'nodes', name: 'n1', object: node({}, [{ key: 'a', effect: 'NoSchedule' }]), oldObject: node({}), user: n1 })))).message,
    'nodes "n1" is forbidden: node "n1" is not allowed to modify taints');
  assert.equal((await refusal(plugin.admit!(request({ operation: 'UPDATE', resource: 'nodes', name: 'n1', object: node({}), oldObject: node({ 'node-role.kubernetes.io/master': '' }), user: n1 })))).message,
    'nodes "n1" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/master');
});

void test('leases, CSINodes, tokens, and users that are not nodes', async () => {
  const { plugin } = await setup();
  await plugin.admit!(request({ resource: 'leases', namespace: 'kube-node-lease', object: { metadata: { name: 'n1' } }, user: n1 }));
  assert.equal((await refusal(plugin.admit!(request({ resource: 'leases', namespace: 'default', object: { metadata: { name: 'n1' } }, user: n1 })))).message,
    'leases.coordination.k8s.io "n1" is forbidden: can only access leases in the "kube-node-lease" system namespace');
  assert.equal((await refusal(plugin.admit!(request({ operation: 'UPDATE', resource: 'csinodes', name: 'n2', object: { metadata: { name: 'n2' } }, user: n1 })))).message,
    'csinodes.storage.k8s.io "n2" is forbidden: can only access CSINode with the same name as the requesting node');
  const token = (ref: Record<string, unknown> | undefined, audiences?: string[]) => request({ resource: 'serviceaccounts', subresource: 'token', namespace: 'ns', name: 'default', kind: 'TokenRequest',
    object: { metadata: { name: 'default' }, spec: { ...(ref ? { boundObjectRef: ref } : {}), ...(audiences ? { audiences } : {}) } }, user: n1 });
  await plugin.admit!(token({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'pod-uid' }, ['vault']));
  assert.equal((await refusal(plugin.admit!(token(undefined)))).message, 'serviceaccounts "default" is forbidden: node requested token not bound to a pod');
  assert.equal((await refusal(plugin.admit!(token({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'pod-uid' }, ['api'])))).message,
    'serviceaccounts "default" is forbidden: audience "api" not found in pod spec volume');
  assert.equal((await refusal(plugin.admit!(token({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'other' })))).message,
    'serviceaccounts "default" is forbidden: the UID in the bound object reference (other) does not match the UID in record. The object might have been deleted and then recreated');
  await plugin.admit!(request({ operation: 'DELETE', resource: 'pods', namespace: 'ns', name: 'theirs', user: { username: 'alice', groups: [] } }));
  assert.equal((await refusal(plugin.admit!(request({ resource: 'nodes', object: { metadata: { name: 'x' } }, user: { username: 'system:node:', groups: ['system:nodes'] } })))).message,
    'nodes "x" is forbidden: could not determine node from user "system:node:"');
});
