import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { base32NoPad, identityLeaseName, isExpiredLease, microTime } from './identity-lease.ts';

void test('base32 without padding, lower case (RFC 4648 vectors)', () => {
  const cases: Array<[string, string]> = [['', ''], ['f', 'my'], ['fo', 'mzxq'], ['foo', 'mzxw6'], ['foob', 'mzxw6yq'], ['fooba', 'mzxw6ytb'], ['foobar', 'mzxw6ytboi']];
  for (const [input, want] of cases) assert.equal(base32NoPad(Buffer.from(input)), want, input);
});

void test('identity lease name: kube\'s hash of (hostname, "kube-apiserver"), plus the instance when given', () => {
  // sha256 over 00 05 "node1" 00 0e "kube-apiserver", first 16 bytes in base32: the name kube-apiserver gives host node1.
  const name = identityLeaseName('node1');
  const input = Buffer.concat([Buffer.from([0, 5]), Buffer.from('node1'), Buffer.from([0, 14]), Buffer.from('kube-apiserver')]);
  assert.equal(name, `apiserver-${base32NoPad(createHash('sha256').update(input).digest().subarray(0, 16))}`);
  assert.match(name, /^apiserver-[a-z2-7]{26}$/);
  assert.equal(name, identityLeaseName('node1'));
  assert.notEqual(identityLeaseName('node1', '127.0.0.2:6443'), identityLeaseName('node1', '127.0.0.3:6443'));
  assert.notEqual(identityLeaseName('node1', '127.0.0.2:6443'), name);
  assert.notEqual(identityLeaseName('node2'), name);
});

void test('expired = renewTime + leaseDurationSeconds before now; leases never renewed are kept', () => {
  const now = new Date('2026-01-01T12:00:00Z');
  const lease = (renewTime: string | undefined, leaseDurationSeconds: number | undefined) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'x' }, spec: { renewTime, leaseDurationSeconds } });
  assert.equal(isExpiredLease(lease('2026-01-01T10:59:59.000000Z', 3600), now), true);
  assert.equal(isExpiredLease(lease('2026-01-01T11:00:00.000000Z', 3600), now), false);
  assert.equal(isExpiredLease(lease('2026-01-01T11:30:00.000000Z', 3600), now), false);
  assert.equal(isExpiredLease(lease(undefined, 3600), now), false);
  assert.equal(isExpiredLease(lease('2026-01-01T10:00:00.000000Z', undefined), now), false);
});

void test('MicroTime has six fractional digits', () => {
  assert.equal(microTime(new Date('2026-01-01T12:00:00.123Z')), '2026-01-01T12:00:00.123000Z');
});
