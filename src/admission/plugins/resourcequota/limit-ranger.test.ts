import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../../machinery/objects.ts';
import { aggregate, applyDefaults, claimViolations, podViolations } from './limit-ranger.ts';

const lr = (limits: unknown[]) => ({ metadata: { name: 'lr', namespace: 'ns' }, spec: { limits } }) as unknown as KObject;
const pod = (containers: unknown[], initContainers?: unknown[]) =>
  ({ metadata: { name: 'p' }, spec: { containers, ...(initContainers ? { initContainers } : {}) } }) as Record<string, any>;

void test('defaults fill what containers and init containers leave out, and the annotation says what', () => {
  const range = lr([{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' } }]);
  const p = pod([{ name: 'web', resources: { limits: { cpu: '1' } } }, { name: 'full', resources: { requests: { cpu: '1m', memory: '1Mi' }, limits: { cpu: '1', memory: '1Gi' } } }], [{ name: 'init' }]);
  applyDefaults(range, p);
  assert.deepEqual(p['spec'].containers[0].resources, { limits: { cpu: '1', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
  assert.deepEqual(p['spec'].containers[1].resources, { requests: { cpu: '1m', memory: '1Mi' }, limits: { cpu: '1', memory: '1Gi' } });
  assert.deepEqual(p['spec'].initContainers[0].resources, { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
  assert.equal(p['metadata'].annotations['kubernetes.io/limit-ranger'],
    'LimitRanger plugin set: cpu, memory request for container web; memory limit for container web; '
    + 'cpu, memory request for init container init; cpu, memory limit for init container init');
  // Nothing to set: no annotation, no empty resource maps.
  const untouched = pod([{ name: 'a' }]);
  applyDefaults(lr([{ type: 'Pod', max: { cpu: '2' } }]), untouched);
  assert.deepEqual(untouched, pod([{ name: 'a' }]));
});

void test('Container and Pod bounds with kube\'s messages', () => {
  const range = lr([
    { type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' }, maxLimitRequestRatio: { cpu: '2' } },
    { type: 'Pod', max: { memory: '1Gi' } },
  ]);
  const p = pod([{ name: 'a', resources: { requests: { cpu: '1', memory: '600Mi' }, limits: { cpu: '4', memory: '600Mi' } } },
    { name: 'b', resources: { requests: { cpu: '500m', memory: '600Mi' }, limits: { cpu: '500m', memory: '600Mi' } } }]) as unknown as KObject;
  assert.deepEqual(podViolations(range, p), [
    'maximum cpu usage per Container is 2, but limit is 4',
    'cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000',
    'maximum memory usage per Pod is 1Gi, but limit is 1200Mi',
  ]);
  const missing = pod([{ name: 'a' }]) as unknown as KObject;
  assert.deepEqual(podViolations(range, missing), [
    'minimum memory usage per Container is 64Mi.  No request is specified',
    'maximum cpu usage per Container is 2.  No limit is specified',
    'cpu max limit to request ratio per Container is 2, but no request is specified or request is 0',
    'maximum memory usage per Pod is 1Gi.  No limit is specified',
  ]);
  const small = pod([{ name: 'a', resources: { requests: { memory: '32Mi' }, limits: { memory: '16Mi', cpu: '1' } } }]) as unknown as KObject;
  assert.deepEqual(podViolations(lr([{ type: 'Container', min: { memory: '64Mi' } }, { type: 'Pod', min: { memory: '100Mi' } }]), small), [
    'minimum memory usage per Container is 64Mi, but request is 32Mi',
    'minimum memory usage per Pod is 100Mi, but request is 32Mi',
  ]);
  assert.equal(aggregate(['x']), 'x');
  assert.equal(aggregate(['x', 'y', 'x']), '[x, y]');
});

void test('PersistentVolumeClaim bounds apply to the storage request', () => {
  const range = lr([{ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '2Gi' } }]);
  const claim = (storage?: string) => ({ metadata: { name: 'c' }, spec: { resources: storage ? { requests: { storage } } : {} } }) as unknown as KObject;
  assert.deepEqual(claimViolations(range, claim('5Gi')), ['maximum storage usage per PersistentVolumeClaim is 2Gi, but request is 5Gi']);
  assert.deepEqual(claimViolations(range, claim('500Mi')), ['minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi']);
  assert.deepEqual(claimViolations(range, claim()), [
    'minimum storage usage per PersistentVolumeClaim is 1Gi.  No request is specified',
    'maximum storage usage per PersistentVolumeClaim is 2Gi.  No request is specified',
  ]);
  assert.deepEqual(claimViolations(range, claim('1Gi')), []);
});
