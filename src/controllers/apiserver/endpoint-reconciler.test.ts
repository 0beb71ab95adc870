import { test } from 'node:test';
import assert from 'node:assert/strict';
import { endpointSliceObject, endpointsMatch, endpointsObject, leaseAddresses, masterCountAddresses, readEndpoints } from './endpoint-reconciler.ts';

const eps = (ips: string[], port = 6443) => endpointsObject(undefined, ips, port);

void test('lease: the live replicas plus this one, deduplicated and sorted as strings (as kube)', () => {
  assert.deepEqual(leaseAddresses(['10.0.0.9', '10.0.0.10'], '10.0.0.2'), ['10.0.0.10', '10.0.0.2', '10.0.0.9']);
  assert.deepEqual(leaseAddresses(['10.0.0.2', '10.0.0.3'], '10.0.0.2'), ['10.0.0.2', '10.0.0.3']);
  // Leaving: this replica is not added back.
  assert.deepEqual(leaseAddresses(['10.0.0.3'], undefined), ['10.0.0.3']);
  assert.deepEqual(leaseAddresses([], undefined), []);
});

void test('master-count: own address always added; above the count, the ones after it (wrapping) are dropped', () => {
  assert.deepEqual(masterCountAddresses(readEndpoints(eps(['10.0.0.1'])), '10.0.0.2', 2), ['10.0.0.1', '10.0.0.2']);
  assert.deepEqual(masterCountAddresses(readEndpoints(eps(['10.0.0.1', '10.0.0.3'])), '10.0.0.2', 2), ['10.0.0.1', '10.0.0.2']);
  // Own address last: the one after it wraps around to the first.
  assert.deepEqual(masterCountAddresses(readEndpoints(eps(['10.0.0.1', '10.0.0.2'])), '10.0.0.3', 2), ['10.0.0.2', '10.0.0.3']);
  assert.deepEqual(masterCountAddresses(readEndpoints(eps(['10.0.0.1', '10.0.0.2'])), '10.0.0.3', 1), ['10.0.0.3']);
  // A malformed object (two subsets) is replaced by this replica alone.
  const odd = { ...eps(['10.0.0.1']), subsets: [{ addresses: [{ ip: '10.0.0.1' }] }, { addresses: [{ ip: '10.0.0.5' }] }] };
  assert.deepEqual(masterCountAddresses(readEndpoints(odd), '10.0.0.2', 3), ['10.0.0.2']);
  assert.deepEqual(masterCountAddresses(readEndpoints(undefined), '10.0.0.2', 3), ['10.0.0.2']);
});

void test('a list matches only with the same addresses in order, one https/TCP port and the same port number', () => {
  const cur = readEndpoints(eps(['10.0.0.1', '10.0.0.2']));
  assert.equal(endpointsMatch(cur, ['10.0.0.1', '10.0.0.2'], 6443), true);
  assert.equal(endpointsMatch(cur, ['10.0.0.2', '10.0.0.1'], 6443), false);
  assert.equal(endpointsMatch(cur, ['10.0.0.1'], 6443), false);
  // Another replica's port: rewritten to ours (kube assumes one port for all).
  assert.equal(endpointsMatch(cur, ['10.0.0.1', '10.0.0.2'], 443), false);
  const notReady = readEndpoints({ ...eps(['10.0.0.1']), subsets: [{ addresses: [{ ip: '10.0.0.1' }], notReadyAddresses: [{ ip: '10.0.0.7' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }] });
  assert.equal(endpointsMatch(notReady, ['10.0.0.1'], 6443), false);
});

void test('written objects: one subset, and a slice with one ready endpoint per address; existing metadata kept', () => {
  const e = endpointsObject({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'kubernetes', namespace: 'default', resourceVersion: '7', labels: { a: 'b' } } }, ['10.0.0.1'], 6443);
  assert.equal(e.metadata.resourceVersion, '7');
  assert.deepEqual(e['subsets'], [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }]);
  const s = endpointSliceObject(undefined, ['10.0.0.1', '10.0.0.2'], 6443);
  assert.equal(s['addressType'], 'IPv4');
  assert.deepEqual(s.metadata.labels, { 'kubernetes.io/service-name': 'kubernetes' });
  assert.deepEqual(s['endpoints'], [{ addresses: ['10.0.0.1'], conditions: { ready: true } }, { addresses: ['10.0.0.2'], conditions: { ready: true } }]);
  assert.equal(endpointSliceObject(undefined, ['fd00::1'], 6443)['addressType'], 'IPv6');
});
