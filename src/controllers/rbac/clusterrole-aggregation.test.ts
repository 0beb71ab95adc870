import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import { aggregateRules, selectorMatches } from './clusterrole-aggregation.ts';

const role = (name: string, labels: Record<string, string>, rules: unknown[], selectors?: unknown[]): KObject => ({
  kind: 'ClusterRole', metadata: { name, labels }, rules, ...(selectors ? { aggregationRule: { clusterRoleSelectors: selectors } } : {}),
});
const r = (verb: string, resource: string) => ({ verbs: [verb], apiGroups: [''], resources: [resource] });

void test('selectors: matchLabels and every matchExpressions operator; empty matches all; bad operators throw', () => {
  const labels = { a: '1', b: '2' };
  assert.ok(selectorMatches({}, labels));
  assert.ok(selectorMatches({ matchLabels: { a: '1' } }, labels));
  assert.ok(!selectorMatches({ matchLabels: { a: '2' } }, labels));
  assert.ok(selectorMatches({ matchExpressions: [{ key: 'a', operator: 'In', values: ['0', '1'] }] }, labels));
  assert.ok(!selectorMatches({ matchExpressions: [{ key: 'c', operator: 'In', values: ['1'] }] }, labels));
  assert.ok(selectorMatches({ matchExpressions: [{ key: 'c', operator: 'NotIn', values: ['1'] }] }, labels));
  assert.ok(!selectorMatches({ matchExpressions: [{ key: 'b', operator: 'NotIn', values: ['2'] }] }, labels));
  assert.ok(selectorMatches({ matchExpressions: [{ key: 'b', operator: 'Exists' }] }, labels));
  assert.ok(!selectorMatches({ matchExpressions: [{ key: 'b', operator: 'DoesNotExist' }] }, labels));
  assert.throws(() => selectorMatches({ matchExpressions: [{ key: 'b', operator: 'Gt', values: ['1'] }] }, labels), /not a valid label selector operator/);
});

void test('aggregation: selectors in order, matching roles by name, identical rules once, the role itself skipped', () => {
  const agg = role('agg', { x: 'true' }, [r('stale', 'old')], [{ matchLabels: { x: 'true' } }, { matchLabels: { y: 'true' } }]);
  const all = [
    agg,
    role('zeta', { x: 'true' }, [r('get', 'z'), r('get', 'shared')]),
    role('alpha', { x: 'true' }, [r('get', 'a'), r('get', 'shared')]),
    role('beta', { y: 'true' }, [r('get', 'b'), r('get', 'a')]),
    role('other', {}, [r('get', 'nope')]),
  ];
  assert.deepEqual(aggregateRules(agg, all), [r('get', 'a'), r('get', 'shared'), r('get', 'z'), r('get', 'b')]);
  // No selectors, or nothing matching: no rules.
  assert.deepEqual(aggregateRules(role('e', {}, [], []), all), []);
  // A rule that differs in any field is another rule (kube compares whole rules, not coverage).
  const names = role('n', {}, [{ ...r('get', 'a'), resourceNames: ['one'] }]);
  const agg2 = role('agg2', {}, [], [{}]);
  assert.deepEqual(aggregateRules(agg2, [agg2, role('a', {}, [r('get', 'a')]), names]), [r('get', 'a'), { ...r('get', 'a'), resourceNames: ['one'] }]);
});
