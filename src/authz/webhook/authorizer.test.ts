import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webhookAuthorizer } from './authorizer.ts';
import { compileMatchConditions } from './match.ts';
import type { Attributes } from '../../request/authorizer.ts';
import { startWebhookServer } from '../../../test/support/webhook-server.ts';

const attrs = (user: string, a: Partial<Attributes> = {}): Attributes => ({
  user: { username: user, groups: ['g'] }, verb: 'get', isResourceRequest: true, path: '', apiGroup: '', apiVersion: 'v1', namespace: 'ns', resource: 'pods', subresource: '', name: 'p', ...a,
});

test('cache TTLs: allowed answers for authorizedTtl, the rest for unauthorizedTtl (by the clock)', async () => {
  let now = 1_000_000;
  const wh = await startWebhookServer({ handler: (r) => ({ body: { status: { allowed: r.body.spec.user === 'yes' } } }) });
  try {
    const a = webhookAuthorizer({
      name: 'w', connection: { url: wh.url, caPem: wh.ca.certPem }, version: 'v1', authorizedTtlMs: 10_000, unauthorizedTtlMs: 1_000,
      timeoutMs: 5_000, failurePolicy: 'NoOpinion', selectors: true, now: () => now,
    });
    const calls = (u: string) => wh.requests.filter((r) => r.body.spec.user === u).length;
    assert.equal((await a.authorize(attrs('yes'))).kind, 'allow');
    assert.equal((await a.authorize(attrs('no'))).kind, 'no-opinion');
    now += 5_000;
    await a.authorize(attrs('yes'));
    await a.authorize(attrs('no'));
    assert.equal(calls('yes'), 1, 'allowed answer still cached');
    assert.equal(calls('no'), 2, 'unauthorized answer expired');
    now += 6_000;
    await a.authorize(attrs('yes'));
    assert.equal(calls('yes'), 2);
    await a.authorize(attrs('yes', { name: 'other' }));
    assert.equal(calls('yes'), 3, 'the key is the whole spec');
  } finally {
    await wh.stop();
  }
});

test('replies: both allowed and denied is a deny with an error; malformed replies apply the failure policy', async () => {
  const wh = await startWebhookServer({
    handler: (r) => {
      switch (r.body.spec.user) {
        case 'both': return { body: { status: { allowed: true, denied: true, reason: 'r' } } };
        case 'wrong-version': return { body: { apiVersion: 'authorization.k8s.io/v1beta1', status: { allowed: true } } };
        case 'not-bool': return { body: { status: { allowed: 'yes' } } };
        default: return { body: '{' };
      }
    },
  });
  try {
    const mk = (failurePolicy: 'NoOpinion' | 'Deny') => webhookAuthorizer({
      name: 'w', connection: { url: wh.url, caPem: wh.ca.certPem }, version: 'v1', authorizedTtlMs: 0, unauthorizedTtlMs: 0, timeoutMs: 5_000, failurePolicy, selectors: true,
    });
    assert.deepEqual(await mk('NoOpinion').authorize(attrs('both')), { kind: 'deny', reason: 'r', error: 'webhook subject access review returned both allow and deny response' });
    for (const u of ['wrong-version', 'not-bool', 'garbage']) {
      const d = await mk('NoOpinion').authorize(attrs(u));
      assert.equal(d.kind, 'no-opinion', u);
      assert.ok(d.error, u);
      assert.equal((await mk('Deny').authorize(attrs(u))).kind, 'deny', u);
    }
  } finally {
    await wh.stop();
  }
});

test('match conditions gate the call; an evaluation error applies the failure policy without calling', async () => {
  const wh = await startWebhookServer({ handler: () => ({ body: { status: { allowed: true } } }) });
  try {
    const { compiled, errors } = compileMatchConditions([{ expression: "request.resourceAttributes.namespace == 'ns'" }, { expression: "'g' in request.groups" }], 'm');
    assert.deepEqual(errors, []);
    const a = webhookAuthorizer({
      name: 'w', connection: { url: wh.url, caPem: wh.ca.certPem }, version: 'v1', authorizedTtlMs: 0, unauthorizedTtlMs: 0, timeoutMs: 5_000,
      failurePolicy: 'Deny', matchConditions: compiled, selectors: true,
    });
    assert.equal((await a.authorize(attrs('u'))).kind, 'allow');
    assert.deepEqual(await a.authorize(attrs('u', { namespace: 'other' })), { kind: 'no-opinion' });
    const e = await a.authorize(attrs('u', { isResourceRequest: false, path: '/x' }));
    assert.equal(e.kind, 'deny');
    assert.match(e.error ?? '', /^cel evaluation error: expression 'request.resourceAttributes.namespace == 'ns'' resulted in error/);
    assert.equal(wh.requests.length, 1);
  } finally {
    await wh.stop();
  }
});
