// validateAffinity / ValidateNodeSelectorRequirement / validatePodAffinityTerm / validateTopologySpreadConstraints
// (pkg/apis/core/validation/validation.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateAffinity, validateTopologySpreadConstraints } from './core-affinity.ts';

test('node affinity', () => {
  const a = { nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [
      { key: 'zone', operator: 'In' }, { key: 'gpu', operator: 'Gt', values: ['1', '2'] }, { key: 'x', operator: 'Near', values: ['a'] },
    ], matchFields: [{ key: 'metadata.uid', operator: 'In', values: ['a'] }] }] },
    preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: {} }],
  } };
  assert.deepEqual(validateAffinity(a, 'spec.affinity').map(String), [
    "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'",
    'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[2].operator: Invalid value: "Near": not a valid selector operator',
    'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key: Invalid value: "metadata.uid": not a valid field selector key',
    'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100',
  ]);
  assert.deepEqual(validateAffinity({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } }, 'a').map(String), [
    'a.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term',
  ]);
});

test('pod anti-affinity: topologyKey required', () => {
  const errs = validateAffinity({ podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { a: 'b' } } }] } }, 'spec.affinity').map(String);
  assert.equal(errs[0], 'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty');
  assert.equal(errs[1], 'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": name part must be non-empty');
});

test('topology spread constraints', () => {
  const c = [
    { maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: {} },
    { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', minDomains: 2 },
    { maxSkew: 1, topologyKey: '', whenUnsatisfiable: 'Maybe', minDomains: 0 },
  ];
  assert.deepEqual(validateTopologySpreadConstraints(c, 'spec.topologySpreadConstraints').map(String), [
    'spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero',
    'spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"',
    'spec.topologySpreadConstraints[2].topologyKey: Required value: can not be empty',
    'spec.topologySpreadConstraints[2].whenUnsatisfiable: Unsupported value: "Maybe": supported values: "DoNotSchedule", "ScheduleAnyway"',
    'spec.topologySpreadConstraints[2].minDomains: Invalid value: 0: must be greater than zero',
    'spec.topologySpreadConstraints[2].minDomains: Invalid value: 0: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not Maybe',
  ]);
});
