// ValidateEndpoints / validateEndpointAddress / validateEndpointPort / ValidateEndpointIP (pkg/apis/core/validation).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateEndpointIP, validateEndpoints } from './core-endpoints.ts';

test('endpoints: subsets need addresses; IPs valid and not special; ports named when several', () => {
  assert.deepEqual(validateEndpoints({ subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }] }).map(String), []);
  assert.deepEqual(validateEndpoints({ subsets: [
    { ports: [{ port: 80, protocol: 'TCP' }] },
    { addresses: [{ ip: '127.0.0.1' }, { ip: 'x', hostname: 'A_b' }], ports: [{ port: 0, protocol: 'TCP' }, { name: 'b', port: 1, protocol: 'ICMP' }] },
  ] }).map(String), [
    'subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`',
    'subsets[1].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    'subsets[1].addresses[1].ip: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    `subsets[1].addresses[1].hostname: Invalid value: "A_b": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    'subsets[1].addresses[1].ip: Invalid value: "x": must be a valid IP address',
    'subsets[1].ports[0].name: Required value',
    'subsets[1].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
    'subsets[1].ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
  ]);
});

test('endpoint IPs: unspecified, link-local, multicast, IPv6 forms', () => {
  assert.deepEqual(validateEndpointIP('0.0.0.0', 'ip').map(String), ['ip: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)']);
  assert.deepEqual(validateEndpointIP('::', 'ip').map(String), ['ip: Invalid value: "::": may not be unspecified (::)']);
  assert.deepEqual(validateEndpointIP('::1', 'ip').map(String), ['ip: Invalid value: "::1": may not be in the loopback range (127.0.0.0/8, ::1/128)']);
  assert.deepEqual(validateEndpointIP('fe80::1', 'ip').map(String), ['ip: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)']);
  assert.deepEqual(validateEndpointIP('224.0.0.5', 'ip').map(String), ['ip: Invalid value: "224.0.0.5": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)']);
  assert.deepEqual(validateEndpointIP('::ffff:127.0.0.1', 'ip').map(String), ['ip: Invalid value: "::ffff:127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)']);
  assert.deepEqual(validateEndpointIP('2001:db8::1', 'ip').map(String), []);
});
