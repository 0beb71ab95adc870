// ValidateResourceQuota / ValidateLimitRange (pkg/apis/core/validation/validation.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateLimitRange, validateResourceQuota, validateResourceQuotaUpdate } from './core-quota.ts';
import type { J } from './util.ts';

const rq = (spec: J, status: J = {}): J => ({ metadata: { name: 'q', namespace: 'd' }, spec, status });
const lr = (limits: J[]): J => ({ metadata: { name: 'l', namespace: 'd' }, spec: { limits } });

test('resourcequota: hard names and quantities, scopes', () => {
  assert.deepEqual(validateResourceQuota(rq({ hard: { pods: '10', 'requests.cpu': '2', 'count/deployments.apps': '3' } })).map(String), []);
  assert.deepEqual(validateResourceQuota(rq({ hard: { widgets: '1', pods: '1.5', memory: '-1' } })).map(String), [
    'spec.hard[widgets]: Invalid value: "widgets": must be a standard resource type or fully qualified',
    'spec.hard[widgets]: Invalid value: "widgets": must be a standard resource for quota',
    'spec.hard[pods]: Invalid value: "1500m": must be an integer',
    'spec.hard[memory]: Invalid value: "-1": must be greater than or equal to 0',
  ]);
  assert.deepEqual(validateResourceQuota(rq({ hard: { services: '1' }, scopes: ['BestEffort', 'NotBestEffort'] })).map(String), [
    'spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort"}: unsupported scope applied to resource',
    'spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort"}: unsupported scope applied to resource',
    'spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort"}: conflicting scopes',
  ]);
  assert.deepEqual(validateResourceQuota(rq({ hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In' }, { scopeName: 'Terminating', operator: 'In', values: ['x'] }] } })).map(String), [
    "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
    "spec.scopeSelector.matchExpressions.operator: Invalid value: \"In\": must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
  ]);
});

test('limitrange: types, Pod has no defaults, min <= default <= max, ratio', () => {
  assert.deepEqual(validateLimitRange(lr([{ type: 'Container', min: { cpu: '100m' }, default: { cpu: '500m' }, defaultRequest: { cpu: '200m' }, max: { cpu: '1' } }])).map(String), []);
  assert.deepEqual(validateLimitRange(lr([
    { type: 'Pod', default: { cpu: '1' } },
    { type: 'Container', min: { cpu: '2' }, max: { cpu: '1' }, maxLimitRequestRatio: { cpu: '500m' } },
    { type: 'Container' },
    { type: 'Thing' },
    { type: 'PersistentVolumeClaim' },
  ])).map(String), [
    "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
    'spec.limits[1].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1',
    'spec.limits[1].defaultRequest[cpu]: Invalid value: "1": min value 2 is greater than default request value 1',
    'spec.limits[1].default[cpu]: Invalid value: "2": min value 2 is greater than default value 1',
    'spec.limits[1].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1',
    'spec.limits[2].type: Duplicate value: "Container"',
    'spec.limits[3].type: Invalid value: "Thing": must be a standard limit type or fully qualified',
    'spec.limits[4].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
  ]);
  assert.deepEqual(validateLimitRange(lr([{ type: 'Container', min: { memory: '1Gi' }, max: { memory: '2Gi' }, maxLimitRequestRatio: { memory: '3' } }])).map(String), [
    'spec.limits[0].maxLimitRequestRatio[memory]: Invalid value: "3": ratio 3 is greater than max/min = 2.000000',
  ]);
});

test('limitrange: container defaults come from max and min before the ordering rules, as kube defaults them', () => {
  // default ← max (1) and defaultRequest ← default (1): min 2 is then above both.
  assert.deepEqual(validateLimitRange(lr([{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }])).map(String), [
    'spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1',
    'spec.limits[0].defaultRequest[cpu]: Invalid value: "1": min value 2 is greater than default request value 1',
    'spec.limits[0].default[cpu]: Invalid value: "2": min value 2 is greater than default value 1',
  ]);
});

test('resourcequota update: scopes are immutable', () => {
  assert.deepEqual(validateResourceQuotaUpdate(rq({ hard: { pods: '1' }, scopes: ['NotTerminating'] }), rq({ hard: { pods: '1' }, scopes: ['Terminating'] })).map(String), [
    'spec.scopes: Invalid value: []core.ResourceQuotaScope{"NotTerminating"}: field is immutable',
  ]);
  assert.deepEqual(validateResourceQuotaUpdate(rq({ hard: { pods: '2' } }), rq({ hard: { pods: '1' } })).map(String), []);
});
