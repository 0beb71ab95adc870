// ValidateNode / ValidateNodeUpdate / validateNodeTaints (pkg/apis/core/validation/validation.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateNode, validateNodeUpdate, validateNodeUpdateRules } from './core-node.ts';
import type { J } from './util.ts';

const node = (spec: J, status: J = {}): J => ({ metadata: { name: 'n1' }, spec, status });

test('node: taints validated under metadata.taints, unique by key and effect', () => {
  assert.deepEqual(validateNode(node({})).map(String), []);
  assert.deepEqual(validateNode(node({ taints: [
    { key: 'a', effect: 'NoSchedule' },
    { key: 'bad key', value: 'x', effect: 'Sometimes' },
    { key: 'a', value: 'v', effect: 'NoSchedule' },
    { key: 'c' },
  ] })).map(String), [
    `metadata.taints[1].key: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    'metadata.taints[1].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    'metadata.taints[2]: Duplicate value: core.Taint{Key:"a", Value:"v", Effect:"NoSchedule", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair',
    'metadata.taints[3].effect: Required value',
  ]);
});

test('node: podCIDRs valid and one per family; status quantities', () => {
  assert.deepEqual(validateNode(node({ podCIDRs: ['10.0.0.0/24', 'fd00::/64'] })).map(String), []);
  assert.deepEqual(validateNode(node({ podCIDRs: ['10.0.0.0/24', '10.1.0.0/24', 'nope'] }, { capacity: { cpu: '-1' } })).map(String), [
    'status.capacity.cpu: Invalid value: "-1": must be greater than or equal to 0',
    'spec.podCIDRs[2]: Invalid value: "nope": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    'spec.podCIDRs: Invalid value: []string{"10.0.0.0/24", "10.1.0.0/24", "nope"}: may specify no more than one CIDR for each IP family',
  ]);
});

test('node update: podCIDRs and providerID set once; duplicate addresses', () => {
  assert.deepEqual(validateNodeUpdate(node({ podCIDRs: ['10.0.0.0/24'], providerID: 'aws://x' }), node({})).map(String), []);
  assert.deepEqual(validateNodeUpdate(
    node({ podCIDRs: ['10.0.1.0/24'], providerID: 'aws://y' }, { addresses: [{ type: 'InternalIP', address: '1.2.3.4' }, { type: 'InternalIP', address: '1.2.3.4' }] }),
    node({ podCIDRs: ['10.0.0.0/24'], providerID: 'aws://x' }),
  ).map(String), [
    'status.addresses[1]: Duplicate value: core.NodeAddress{Type:"InternalIP", Address:"1.2.3.4"}',
    'spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
    'spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
  ]);
});

test('node status writes run only the update rules (a bad taint is reported once, a providerID change still refused)', () => {
  assert.deepEqual(validateNodeUpdateRules(node({ providerID: 'b', taints: [{ key: 'k', effect: 'NoSchedule' }, { key: 'k', effect: 'NoSchedule' }] }), node({ providerID: 'a' })).map(String), [
    'spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
    'metadata.taints[1]: Duplicate value: core.Taint{Key:"k", Value:"", Effect:"NoSchedule", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair',
  ]);
});
