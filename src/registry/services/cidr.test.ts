import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatIpv4, offsetIn, parseCidr, parseIpv4, parsePortRange } from './cidr.ts';

test('parses CIDRs and normalizes the network address', () => {
  const c = parseCidr('10.96.5.3/12');
  assert.equal(c.text, '10.96.0.0/12');
  assert.equal(c.size, 1 << 20);
  assert.equal(formatIpv4(c.base), '10.96.0.0');
  assert.equal(offsetIn(c, parseIpv4('10.111.255.255')!), c.size - 1);
  assert.equal(offsetIn(c, parseIpv4('10.112.0.0')!), undefined);
  assert.throws(() => parseCidr('10.96.0.0'), /invalid CIDR/);
  assert.throws(() => parseCidr('300.1.1.1/8'), /invalid CIDR/);
});

test('parses port ranges', () => {
  assert.deepEqual(parsePortRange('30000-32767'), { text: '30000-32767', base: 30000, size: 2768 });
  assert.throws(() => parsePortRange('5-1'));
  assert.equal(parseIpv4('1.2.3'), undefined);
});

test('the kubernetes Service address is the first of the range', async () => {
  const { firstServiceIP } = await import('./setup.ts');
  assert.equal(firstServiceIP(), '10.96.0.1');
  assert.equal(firstServiceIP('10.0.0.0/24'), '10.0.0.1');
});
