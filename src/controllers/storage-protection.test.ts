// Which pods hold a claim for the pvc-protection controller (kube's podUsesPVC).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../machinery/objects.ts';
import { claimsOf, podHoldsClaim } from './storage-protection.ts';

const pod = (spec: Record<string, unknown>, phase?: string): KObject => ({ metadata: { name: 'p', namespace: 'ns' }, spec, ...(phase ? { status: { phase } } : {}) });

void test('claims a pod names: persistentVolumeClaim volumes and generic ephemeral volumes', () => {
  assert.deepEqual(claimsOf(pod({ volumes: [{ name: 'a', persistentVolumeClaim: { claimName: 'data' } }, { name: 'scratch', ephemeral: { volumeClaimTemplate: {} } }, { name: 'e', emptyDir: {} }] })), ['data', 'p-scratch']);
});

void test('only a scheduled pod that has not finished holds its claim', () => {
  const volumes = [{ name: 'a', persistentVolumeClaim: { claimName: 'data' } }];
  assert.equal(podHoldsClaim(pod({ volumes }), 'data'), false, 'unscheduled');
  assert.equal(podHoldsClaim(pod({ nodeName: 'n', volumes }), 'data'), true);
  assert.equal(podHoldsClaim(pod({ nodeName: 'n', volumes }, 'Running'), 'other'), false);
  assert.equal(podHoldsClaim(pod({ nodeName: 'n', volumes }, 'Succeeded'), 'data'), false);
  assert.equal(podHoldsClaim(pod({ nodeName: 'n', volumes }, 'Failed'), 'data'), false);
});
