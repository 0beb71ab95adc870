import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AdmissionAttributes, GroupVersionResource } from '../../registry/admission.ts';
import { StatusError } from '../../machinery/errors.ts';
import {
  isExemptAdmissionConfiguration, MatchConditions, matchInvocation, namespaceSelectorMatches, objectSelectorMatches, ParsedSelector,
  requestNamespace, ruleMatches, ruleRequest, type EquivalentResources, type MatchCriteria, type NamespaceLabels,
} from './index.ts';

function attrs(over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  const gvk = { group: '', version: 'v1', kind: 'ConfigMap' };
  const gvr = { group: '', version: 'v1', resource: 'configmaps' };
  return {
    operation: 'CREATE', kind: gvk, resource: gvr, subresource: '', requestKind: gvk, requestResource: gvr, requestSubResource: '',
    name: 'x', namespace: 'default', object: { metadata: { name: 'x', labels: { app: 'a' } } }, oldObject: undefined, options: undefined,
    dryRun: false, user: { username: 'alice', groups: ['dev'] }, warnings: [], auditAnnotations: {},
    reinvocation: { requested: false, running: false }, ...over,
  };
}

const nsLabels = (labels: Record<string, Record<string, string>>): NamespaceLabels => ({
  labels: async (n: string) => {
    if (!labels[n]) throw new StatusError(404, 'NotFound', `namespaces "${n}" not found`);
    return labels[n];
  },
}) as unknown as NamespaceLabels;

/** autoscaling v1 and v2 HPAs share storage; nothing else has an equivalent. */
const HPA1 = { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' };
const HPA2 = { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' };
const same = (a: GroupVersionResource, b: GroupVersionResource) => a.group === b.group && a.version === b.version && a.resource === b.resource;
const equivalents = {
  equivalentsFor: (r: GroupVersionResource) => (same(r, HPA1) || same(r, HPA2) ? [HPA1, HPA2] : [r]),
  kindFor: (r: GroupVersionResource) => ({ group: r.group, version: r.version, kind: 'HorizontalPodAutoscaler' }),
} as unknown as EquivalentResources;

const rule = (o: Record<string, unknown> = {}) => ({ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], ...o });

void test('rules: operations, groups, versions, resources with * and */status, scope', () => {
  const req = ruleRequest(attrs());
  assert.ok(ruleMatches(rule(), req));
  assert.ok(ruleMatches(rule({ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }), req));
  assert.ok(!ruleMatches(rule({ operations: ['UPDATE'] }), req));
  assert.ok(!ruleMatches(rule({ apiGroups: ['apps'] }), req));
  assert.ok(!ruleMatches(rule({ apiVersions: ['v2'] }), req));
  assert.ok(!ruleMatches(rule({ resources: ['secrets'] }), req));
  assert.ok(!ruleMatches(rule({ resources: ['configmaps/status'] }), req), 'a sub-resource rule does not match the main resource');
  const status = ruleRequest(attrs({ operation: 'UPDATE', subresource: 'status', resource: { group: '', version: 'v1', resource: 'pods' } }));
  assert.ok(ruleMatches(rule({ operations: ['UPDATE'], resources: ['*/status'] }), status));
  assert.ok(ruleMatches(rule({ operations: ['UPDATE'], resources: ['pods/*'] }), status));
  assert.ok(!ruleMatches(rule({ operations: ['UPDATE'], resources: ['*'] }), status), '`*` is main resources only');
  assert.ok(ruleMatches(rule({ operations: ['UPDATE'], resources: ['*/*'] }), status));
  assert.ok(ruleMatches(rule({ scope: 'Namespaced' }), req));
  assert.ok(!ruleMatches(rule({ scope: 'Cluster' }), req));
  const nsUpdate = attrs({ operation: 'UPDATE', namespace: '', name: 'team', resource: { group: '', version: 'v1', resource: 'namespaces' } });
  assert.equal(requestNamespace(nsUpdate), 'team', 'a Namespace request carries its own name as namespace');
  assert.ok(ruleMatches(rule({ operations: ['UPDATE'], resources: ['namespaces'], scope: 'Cluster' }), ruleRequest(nsUpdate)));
  assert.ok(!ruleMatches(rule({ operations: ['UPDATE'], resources: ['namespaces'], scope: 'Namespaced' }), ruleRequest(nsUpdate)));
});

void test('selectors: labels, expressions, the object or its old version, namespaces looked up', async () => {
  const sel = ParsedSelector.parse({ matchLabels: { app: 'a' }, matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] });
  assert.ok(objectSelectorMatches(sel, attrs()));
  assert.ok(!objectSelectorMatches(sel, attrs({ object: { metadata: { labels: { app: 'b' } } } })));
  assert.ok(objectSelectorMatches(sel, attrs({ object: { metadata: { labels: {} } }, oldObject: { metadata: { labels: { app: 'a' } } } })));
  assert.ok(!objectSelectorMatches(sel, attrs({ object: { kind: 'DeleteOptions' } as never })), 'no metadata never matches a non-empty selector');
  assert.throws(() => ParsedSelector.parse({ matchExpressions: [{ key: 'k', operator: 'Near' }] }), { message: '"Near" is not a valid label selector operator' });

  const env = ParsedSelector.parse({ matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] });
  const labels = nsLabels({ default: { env: 'prod' }, dev: { env: 'dev' } });
  assert.equal(await namespaceSelectorMatches(env, attrs(), labels), true);
  assert.equal(await namespaceSelectorMatches(env, attrs({ namespace: 'dev' }), labels), false);
  await assert.rejects(namespaceSelectorMatches(env, attrs({ namespace: 'ghost' }), labels), { code: 404 });
  const cluster = attrs({ namespace: '', resource: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' } });
  assert.equal(await namespaceSelectorMatches(env, cluster, labels), true, 'cluster-scoped objects pass');
  const nsCreate = attrs({ namespace: '', name: 'n', resource: { group: '', version: 'v1', resource: 'namespaces' }, object: { metadata: { labels: { env: 'prod' } } } });
  assert.equal(await namespaceSelectorMatches(env, nsCreate, labels), true, 'a Namespace write is matched on its own new labels');
});

void test('matchInvocation: Exact and Equivalent policies, selector errors only when a rule matched', async () => {
  const deps = { namespaces: nsLabels({ default: {} }), equivalents };
  const crit = (o: Partial<MatchCriteria> = {}): MatchCriteria => ({
    rules: [rule()], matchPolicy: 'Equivalent', namespaceSelector: ParsedSelector.everything, objectSelector: ParsedSelector.everything, ...o,
  });
  assert.deepEqual((await matchInvocation(crit(), attrs(), deps))?.resource, { group: '', version: 'v1', resource: 'configmaps' });
  const hpa = attrs({
    resource: HPA2, requestResource: HPA2, kind: { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' },
  });
  const v1Rule = [rule({ apiGroups: ['autoscaling'], apiVersions: ['v1'], resources: ['horizontalpodautoscalers'] })];
  assert.equal(await matchInvocation(crit({ rules: v1Rule, matchPolicy: 'Exact' }), hpa, deps), undefined);
  const inv = await matchInvocation(crit({ rules: v1Rule }), hpa, deps);
  assert.deepEqual(inv?.resource, HPA1, 'Equivalent: invoked in the version the rule names');
  assert.equal(inv?.kind.version, 'v1');
  const missing = attrs({ namespace: 'ghost' });
  const sel = ParsedSelector.parse({ matchLabels: { a: 'b' } });
  await assert.rejects(matchInvocation(crit({ namespaceSelector: sel }), missing, deps), { code: 404 });
  assert.equal(await matchInvocation(crit({ namespaceSelector: sel, rules: [rule({ resources: ['secrets'] })] }), missing, deps), undefined);
  await assert.rejects(matchInvocation(crit({ objectSelector: new Error('bad selector') }), attrs(), deps), { code: 500, message: 'Internal error occurred: bad selector' });
});

void test('match conditions: false skips, errors follow the failure policy, compile errors are errors', async () => {
  const input = { attrs: attrs(), resource: attrs().resource, kind: attrs().kind, object: attrs().object, oldObject: undefined };
  const mc = MatchConditions.compile([
    { name: 'is-alice', expression: "request.userInfo.username == 'alice'" },
    { name: 'labelled', expression: "has(object.metadata.labels) && object.metadata.labels.app == 'a'" },
  ]);
  assert.deepEqual(await mc.match(input, 'Fail'), { matches: true });
  const bob = { ...input, attrs: attrs({ user: { username: 'bob', groups: [] } }) };
  assert.deepEqual(await mc.match(bob, 'Fail'), { matches: false, failedConditionName: 'is-alice' });
  const erring = MatchConditions.compile([{ name: 'e', expression: 'object.metadata.missing == 1' }]);
  const failed = await erring.match(input, 'Fail');
  assert.equal(failed.matches, false);
  assert.match(failed.error ?? '', /^expression 'object.metadata.missing == 1' resulted in error: /);
  assert.deepEqual(await erring.match(input, 'Ignore'), { matches: false });
  const both = MatchConditions.compile([{ name: 'e', expression: 'object.metadata.missing == 1' }, { name: 'f', expression: 'false' }]);
  assert.deepEqual(await both.match(input, 'Fail'), { matches: false, failedConditionName: 'f' }, 'a false condition wins over errors');
  const bad = MatchConditions.compile([{ name: 'b', expression: '1 +' }]);
  assert.match((await bad.match(input, 'Fail')).error ?? '', /^compilation error: /);
  assert.ok(MatchConditions.compile([]).empty);
});

void test('the admission configuration kinds are exempt', () => {
  assert.ok(isExemptAdmissionConfiguration({ group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingWebhookConfiguration' }));
  assert.ok(!isExemptAdmissionConfiguration({ group: '', version: 'v1', kind: 'ConfigMap' }));
});
