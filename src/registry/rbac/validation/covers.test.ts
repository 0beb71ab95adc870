import { test } from 'node:test';
import assert from 'node:assert/strict';
import { breakdownRule, compactRules, compactString, covers, escalationMessage } from './covers.ts';
import { goQuote, goQuoteList } from '../../../machinery/go-quote.ts';

void test('breakdownRule: one rule per group × resource × verb × name, and per url × verb', () => {
  const parts = breakdownRule({ apiGroups: ['', 'apps'], resources: ['a', 'b'], verbs: ['get', 'list'], resourceNames: ['x', 'y'] });
  assert.equal(parts.length, 16);
  assert.deepEqual(breakdownRule({ nonResourceURLs: ['/a', '/b'], verbs: ['get'] }).map(compactString), ['{NonResourceURLs:["/a"], Verbs:["get"]}', '{NonResourceURLs:["/b"], Verbs:["get"]}']);
});

void test('covers: wildcards, sub-resources, names and urls as kube', () => {
  const all = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }];
  assert.equal(covers(all, [{ apiGroups: ['x'], resources: ['y'], verbs: ['z'], resourceNames: ['n'] }]).covered, true);
  // Resource wildcards do not cover non-resource URLs.
  assert.equal(covers(all, [{ nonResourceURLs: ['/x'], verbs: ['get'] }]).covered, false);
  assert.equal(covers([{ nonResourceURLs: ['/x*'], verbs: ['get'] }], [{ nonResourceURLs: ['/x/y'], verbs: ['get'] }]).covered, true);
  assert.equal(covers([{ nonResourceURLs: ['/x'], verbs: ['get'] }], [{ nonResourceURLs: ['/x*'], verbs: ['get'] }]).covered, false);
  // */sub covers any resource's sub; a plain resource does not cover its sub-resources.
  assert.equal(covers([{ apiGroups: [''], resources: ['*/status'], verbs: ['get'] }], [{ apiGroups: [''], resources: ['pods/status'], verbs: ['get'] }]).covered, true);
  assert.equal(covers([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }], [{ apiGroups: [''], resources: ['pods/status'], verbs: ['get'] }]).covered, false);
  // An owner limited to names covers those names only, never the unrestricted rule.
  const named = [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['a'] }];
  assert.equal(covers(named, [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['a'] }]).covered, true);
  assert.equal(covers(named, [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]).covered, false);
  assert.equal(covers(named, [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['a', 'b'] }]).missing.length, 1);
  // Several owner rules together cover one servant rule split across them.
  const split = [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }, { apiGroups: [''], resources: ['pods'], verbs: ['list'] }];
  assert.equal(covers(split, [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]).covered, true);
  assert.equal(covers([], []).covered, true);
});

void test('compactRules merges verbs of simple rules for the same group, resource and name', () => {
  const { missing } = covers([], [{ apiGroups: [''], resources: ['secrets', 'pods'], verbs: ['get', 'list'] }, { nonResourceURLs: ['/x'], verbs: ['get'] }]);
  const lines = compactRules(missing).map(compactString).sort();
  assert.deepEqual(lines, [
    '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}',
    '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}',
    '{NonResourceURLs:["/x"], Verbs:["get"]}',
  ]);
  const named = covers([], [{ apiGroups: [''], resources: ['s'], verbs: ['get'], resourceNames: ['a', 'b'] }]).missing;
  assert.deepEqual(compactRules(named).map(compactString).sort(), ['{APIGroups:[""], Resources:["s"], ResourceNames:["a"], Verbs:["get"]}', '{APIGroups:[""], Resources:["s"], ResourceNames:["b"], Verbs:["get"]}']);
});

void test('escalationMessage: kube\'s wording, groups as Go %q, sorted lines, resolution errors', () => {
  const { missing } = covers([], [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }, { apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] }]);
  assert.equal(
    escalationMessage({ username: 'bob', groups: ['dev', 'system:authenticated'] }, missing),
    'user "bob" (groups=["dev" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
      '{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}\n{APIGroups:["apps"], Resources:["deployments"], Verbs:["create"]}',
  );
  assert.match(escalationMessage({ username: 'b', groups: [] }, missing, ['e1', 'e2']), /\(groups=\[\]\) .*; resolution errors: \[\[e1, e2\]\]$/s);
  assert.match(escalationMessage({ username: 'b', groups: [] }, missing, ['e1']), /; resolution errors: \[e1\]$/);
});

void test('Go %q formatting', () => {
  assert.equal(goQuote('a"b\\c\n'), '"a\\"b\\\\c\\n"');
  assert.equal(goQuote('\x01'), '"\\x01"');
  assert.equal(goQuoteList([]), '[]');
  assert.equal(goQuoteList(['a', '']), '["a" ""]');
});
