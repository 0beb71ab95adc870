import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAuthorizer } from './modes.ts';

const admin = { username: 'admin', groups: ['system:masters', 'system:authenticated'] };

void test('rulesFor: AlwaysAllow lists * rules (kube alwaysAllowAuthorizer.RulesFor); the masters bypass lists none', async () => {
  const a = await buildAuthorizer(['AlwaysAllow']);
  assert.deepEqual(await a.rulesFor!(admin, 'default'), {
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
  });
});

void test('rulesFor: AlwaysDeny lists nothing and is complete; modes concatenate in order', async () => {
  const d = await buildAuthorizer(['AlwaysDeny']);
  assert.deepEqual(await d.rulesFor!(admin, 'default'), { resourceRules: [], nonResourceRules: [], incomplete: false });
  const both = await buildAuthorizer(['AlwaysDeny', 'AlwaysAllow']);
  const r = await both.rulesFor!({ username: 'x', groups: [] }, 'ns');
  assert.equal(r.resourceRules.length, 1);
  assert.equal(r.nonResourceRules.length, 1);
});
