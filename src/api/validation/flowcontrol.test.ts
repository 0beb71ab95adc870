// FlowSchema / PriorityLevelConfiguration (pkg/apis/flowcontrol/validation/validation.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateFlowSchema, validatePriorityLevelConfiguration } from './flowcontrol.ts';
import type { J } from './util.ts';

const fs = (name: string, spec: J): J => ({ metadata: { name }, spec });
const plc = (name: string, spec: J): J => ({ metadata: { name }, spec });
const rule = { subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }] };

test('flowschema: precedence, priority level reference, subjects and rules', () => {
  assert.deepEqual(validateFlowSchema(fs('mine', { matchingPrecedence: 500, priorityLevelConfiguration: { name: 'global-default' }, distinguisherMethod: { type: 'ByUser' }, rules: [rule] })).map(String), []);
  assert.deepEqual(validateFlowSchema(fs('mine', {
    matchingPrecedence: 1, distinguisherMethod: { type: 'ByPod' },
    rules: [
      { subjects: [{ kind: 'User', group: { name: 'g' } }, { kind: 'Robot' }], nonResourceRules: [{ verbs: ['get', 'fly'], nonResourceURLs: ['/a*', 'b'] }] },
      { subjects: [{ kind: 'ServiceAccount', serviceAccount: { name: 'x' } }], resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['Bad'] }] },
    ],
  })).map(String), [
    "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
    'spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByPod"}: supported values: "ByNamespace", "ByUser"',
    'spec.priorityLevelConfiguration.name: Required value: must reference a priority level',
    "spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User'",
    "spec.rules[0].subjects[0].group: Forbidden: group is forbidden when subject kind is not 'Group'",
    'spec.rules[0].subjects[1].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"',
    'spec.rules[0].nonResourceRules[0].verbs: Unsupported value: []string{"get", "fly"}: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"',
    'spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "/a*": wildcard can only do suffix matching',
    'spec.rules[0].nonResourceRules[0].nonResourceURLs[1]: Invalid value: "b": must start with slash',
    'spec.rules[1].subjects[0].serviceAccount.namespace: Required value: must specify namespace for service account',
    `spec.rules[1].resourceRules[0].namespaces[0]: Invalid value: "Bad": each member of this list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
  ]);
});

test('prioritylevelconfiguration: type, limited shares, limit response, queuing', () => {
  assert.deepEqual(validatePriorityLevelConfiguration(plc('mine', { type: 'Limited', limited: { nominalConcurrencyShares: 10, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } } } })).map(String), []);
  assert.deepEqual(validatePriorityLevelConfiguration(plc('exempt', { type: 'Exempt' })).map(String), []);
  assert.deepEqual(validatePriorityLevelConfiguration(plc('mine', { type: 'Exempt' })).map(String), ["spec.type: Invalid value: \"Exempt\": type must be 'Exempt' if and only if name is 'exempt'"]);
  assert.deepEqual(validatePriorityLevelConfiguration(plc('mine', { type: 'Limited', limited: { lendablePercent: 101, limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 5, queueLengthLimit: 0 } } } })).map(String), [
    'spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: 0: must be positive',
    'spec.limited.limitResponse.queuing.handSize: Invalid value: 5: should not be greater than queues (4)',
    'spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive',
  ]);
  assert.deepEqual(validatePriorityLevelConfiguration(plc('mine', { type: 'Limited', limited: { limitResponse: { type: 'Drop' } } })).map(String), [
    'spec.limited.limitResponse.type: Unsupported value: "Drop": supported values: "Queue", "Reject"',
  ]);
});
