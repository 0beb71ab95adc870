import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errors } from '../../machinery/errors.ts';
import { isExemptAdmissionConfiguration, labelSelectorMatches, matchResources, requestScopedDeps, ruleMatches, selectorIsEmpty, type MatchAttributes, type MatchDeps } from './matching.ts';

function attrs(over: Partial<MatchAttributes> = {}): MatchAttributes {
  return {
    operation: 'CREATE', kind: { group: 'apps', version: 'v1', kind: 'Deployment' }, resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    subresource: '', name: 'web', namespace: 'ns1', object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web' } } }, oldObject: undefined,
    ...over,
  };
}

const deps: MatchDeps = {
  async namespaceLabels(name) {
    if (name === 'ns1') return { env: 'prod' };
    throw errors.notFound({ kind: 'namespaces', name });
  },
  equivalents: (r) => (r.resource === 'horizontalpodautoscalers'
    ? [{ group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' }, { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' }]
    : [r]),
  kindFor: (r) => ({ group: r.group, version: r.version, kind: 'HorizontalPodAutoscaler' }),
};

void test('ruleMatches: operations, groups, versions, resources with sub-resource wildcards, scope', () => {
  const rule = { operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] };
  assert.equal(ruleMatches(rule, attrs()), true);
  assert.equal(ruleMatches({ ...rule, operations: ['UPDATE'] }, attrs()), false);
  assert.equal(ruleMatches({ ...rule, operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }, attrs()), true);
  assert.equal(ruleMatches(rule, attrs({ subresource: 'scale' })), false, 'a plain resource does not match its sub-resources');
  assert.equal(ruleMatches({ ...rule, resources: ['deployments/*'] }, attrs({ subresource: 'scale' })), true);
  assert.equal(ruleMatches({ ...rule, resources: ['*/scale'] }, attrs({ subresource: 'scale' })), true);
  assert.equal(ruleMatches({ ...rule, resources: ['*/status'] }, attrs({ subresource: 'scale' })), false);
  assert.equal(ruleMatches({ ...rule, scope: 'Cluster' }, attrs()), false);
  assert.equal(ruleMatches({ ...rule, scope: 'Namespaced' }, attrs()), true);
  const ns = attrs({ kind: { group: '', version: 'v1', kind: 'Namespace' }, resource: { group: '', version: 'v1', resource: 'namespaces' }, namespace: '' });
  assert.equal(ruleMatches({ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'], scope: 'Cluster' }, ns), true);
  assert.equal(ruleMatches({ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'], scope: 'Namespaced' }, ns), false);
});

void test('labelSelectorMatches: matchLabels and the four operators', () => {
  assert.equal(labelSelectorMatches({ matchLabels: { a: '1' } }, { a: '1', b: '2' }), true);
  assert.equal(labelSelectorMatches({ matchExpressions: [{ key: 'a', operator: 'In', values: ['1', '2'] }] }, { a: '2' }), true);
  assert.equal(labelSelectorMatches({ matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['1'] }] }, {}), true);
  assert.equal(labelSelectorMatches({ matchExpressions: [{ key: 'a', operator: 'Exists' }] }, {}), false);
  assert.equal(labelSelectorMatches({ matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] }, {}), true);
  assert.equal(labelSelectorMatches({}, undefined), true);
});

void test('matchResources: selectors, exclusions, resourceNames, matchPolicy Equivalent', async () => {
  const rules = [{ operations: ['*'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }];
  assert.equal((await matchResources({ resourceRules: rules }, attrs(), deps)).matches, true);
  assert.equal((await matchResources({ resourceRules: rules, namespaceSelector: { matchLabels: { env: 'dev' } } }, attrs(), deps)).matches, false);
  assert.equal((await matchResources({ resourceRules: rules, objectSelector: { matchLabels: { app: 'web' } } }, attrs(), deps)).matches, true);
  assert.equal((await matchResources({ resourceRules: rules, excludeResourceRules: rules }, attrs(), deps)).matches, false);
  assert.equal((await matchResources({ resourceRules: [{ ...rules[0]!, resourceNames: ['other'] }] }, attrs(), deps)).matches, false);
  assert.equal((await matchResources({}, attrs(), deps)).matches, true, 'no rules: everything');
  // A namespace that does not exist is only an error when the rules match.
  await assert.rejects(async () => matchResources({ resourceRules: rules, namespaceSelector: { matchLabels: { env: 'prod' } } }, attrs({ namespace: 'gone' }), deps), { code: 404 });
  assert.equal((await matchResources({ resourceRules: [{ ...rules[0]!, apiGroups: ['batch'] }], namespaceSelector: { matchLabels: { env: 'prod' } } }, attrs({ namespace: 'gone' }), deps)).matches, false);

  const hpa = attrs({ kind: { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' }, resource: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' } });
  const v1Only = [{ operations: ['*'], apiGroups: ['autoscaling'], apiVersions: ['v1'], resources: ['horizontalpodautoscalers'] }];
  const eq = await matchResources({ resourceRules: v1Only }, hpa, deps);
  assert.deepEqual(eq, { matches: true, resource: { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' }, kind: { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' } });
  assert.equal((await matchResources({ resourceRules: v1Only, matchPolicy: 'Exact' }, hpa, deps)).matches, false);
});

void test('admission configuration kinds are exempt', () => {
  assert.equal(isExemptAdmissionConfiguration({ kind: { group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingAdmissionPolicyBinding' } }), true);
  assert.equal(isExemptAdmissionConfiguration({ kind: { group: 'apps', version: 'v1', kind: 'Deployment' } }), false);
});

void test('requestScopedDeps: equivalents and kinds are looked up once per request; selectorIsEmpty', async () => {
  let equivalentCalls = 0;
  let kindCalls = 0;
  const scoped = requestScopedDeps({
    ...deps,
    equivalents: (r, s) => { equivalentCalls++; return deps.equivalents(r, s); },
    kindFor: (r, s) => { kindCalls++; return deps.kindFor(r, s); },
  });
  const hpa = attrs({ kind: { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' }, resource: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' } });
  const v1Rule = { resourceRules: [{ apiGroups: ['autoscaling'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['horizontalpodautoscalers'] }] };
  for (let i = 0; i < 5; i++) {
    const m = await matchResources(v1Rule, hpa, scoped);
    assert.equal(m.matches, true);
    assert.deepEqual(m.resource, { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' });
  }
  assert.equal(equivalentCalls, 1);
  assert.equal(kindCalls, 1);
  assert.equal(selectorIsEmpty(undefined), true);
  assert.equal(selectorIsEmpty({ matchLabels: {} }), true);
  assert.equal(selectorIsEmpty({ matchLabels: { a: 'b' } }), false);
  assert.equal(selectorIsEmpty({ matchExpressions: [{ key: 'a', operator: 'Exists' }] }), false);
});
