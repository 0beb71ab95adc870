// ValidateEndpointSlice / ValidateEndpointSliceUpdate (pkg/apis/discovery/validation/validation.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateEndpointSlice, validateEndpointSliceUpdate } from './discovery.ts';
import type { J } from './util.ts';

const slice = (o: J): J => ({ metadata: { name: 's', namespace: 'd' }, addressType: 'IPv4', ...o });

test('endpointslice: addresses by type, ports unique with protocol, addressType enum', () => {
  assert.deepEqual(validateEndpointSlice(slice({ endpoints: [{ addresses: ['10.0.0.1'] }], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] })).map(String), []);
  assert.deepEqual(validateEndpointSlice(slice({
    endpoints: [{ addresses: [] }, { addresses: ['fd00::1', '127.0.0.1'], hostname: 'X' }],
    ports: [{ name: 'a', protocol: 'TCP' }, { name: 'a', protocol: 'ICMP' }, { name: 'b' }, { port: 1 }, {}],
  })).map(String), [
    'endpoints[0].addresses: Required value: must contain at least 1 address',
    'endpoints[1].addresses[0]: Invalid value: "fd00::1": must be a valid IPv4 address',
    'endpoints[1].addresses[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    `endpoints[1].hostname: Invalid value: "X": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    'ports[1].name: Duplicate value: "a"',
    'ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
    'ports[4].name: Duplicate value: ""',
  ]);
  assert.deepEqual(validateEndpointSlice(slice({ addressType: 'IP' })).map(String), ['addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"']);
  assert.deepEqual(validateEndpointSlice(slice({ addressType: 'FQDN', endpoints: [{ addresses: ['example.com', 'single'] }] })).map(String), [
    'endpoints[0].addresses[1]: Invalid value: "single": should be a domain with at least two segments separated by dots',
  ]);
});

test('endpointslice update: addressType is immutable', () => {
  assert.deepEqual(validateEndpointSliceUpdate(slice({ addressType: 'IPv6' }), slice({})).map(String), ['addressType: Invalid value: "IPv6": field is immutable']);
});
