import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeGraph } from './graph.ts';
import type { KObject } from '../../machinery/objects.ts';

const pod = (name: string, node: string | undefined, spec: Record<string, unknown> = {}): KObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' }, spec: { nodeName: node, containers: [], ...spec } }) as KObject;

test('shared references stay until the last pod using them is gone; other nodes are not traversed', () => {
  const g = new NodeGraph();
  const vols = { volumes: [{ name: 'v', secret: { secretName: 's' } }, { name: 'e', ephemeral: {} }], imagePullSecrets: [{ name: 'pull' }] };
  g.setPod(pod('a', 'n1', vols));
  g.setPod(pod('b', 'n1', vols));
  g.setPod(pod('c', 'n2', {}));
  assert.ok(g.hasPath('secret', 'ns', 's', 'n1'));
  assert.ok(g.hasPath('secret', 'ns', 'pull', 'n1'));
  assert.ok(g.hasPath('pvc', 'ns', 'a-e', 'n1'), 'generic ephemeral volume claim');
  assert.ok(!g.hasPath('secret', 'ns', 's', 'n2'));
  g.deletePod(pod('a', 'n1'));
  assert.ok(g.hasPath('secret', 'ns', 's', 'n1'), 'still used by b');
  g.setPod(pod('b', undefined, vols));
  assert.ok(!g.hasPath('secret', 'ns', 's', 'n1'), 'b unscheduled: no edges');
  assert.ok(!g.hasVertex('secret', 'ns', 's'));
  assert.ok(g.hasVertex('node', '', 'n2'));
});

test('pv → pvc → pod → node, and the pv\'s kubelet-visible secrets', () => {
  const g = new NodeGraph();
  g.setPod(pod('a', 'n1', { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'claim' } }] }));
  g.setPv({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv' }, spec: {
    claimRef: { namespace: 'ns', name: 'claim' },
    csi: { nodeStageSecretRef: { namespace: 'x', name: 'stage' }, controllerPublishSecretRef: { namespace: 'x', name: 'ctrl' } },
  } } as KObject);
  assert.ok(g.hasPath('pv', '', 'pv', 'n1'));
  assert.ok(g.hasPath('secret', 'x', 'stage', 'n1'));
  assert.ok(!g.hasPath('secret', 'x', 'ctrl', 'n1'));
  g.setNodeBound('volumeattachment', { apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: 'va' }, spec: { nodeName: 'n1' } } as KObject);
  assert.ok(g.hasPath('volumeattachment', '', 'va', 'n1'));
});
