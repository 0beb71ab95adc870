import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenWebhookAuthenticator } from './authenticator.ts';
import { startWebhookServer } from '../../../test/support/webhook-server.ts';

test('TTL cache by the clock; audiences are part of the key; unreachable webhook → not authenticated', async () => {
  let now = 0;
  const wh = await startWebhookServer({
    handler: (r) => ({ body: { apiVersion: r.body.apiVersion, kind: 'TokenReview', status: r.body.spec.token === 'ok' ? { authenticated: true, user: { username: 'u' } } : { authenticated: false } } }),
  });
  try {
    const mk = (apiAudiences: string[]) => tokenWebhookAuthenticator({ connection: { url: wh.url, caPem: wh.ca.certPem }, version: 'v1', cacheTtlMs: 1000, apiAudiences, timeoutMs: 5000, now: () => now });
    const a = mk([]);
    assert.deepEqual(await a.authenticateToken('ok'), { username: 'u', groups: [] });
    assert.equal(await a.authenticateToken('bad'), undefined);
    now = 999;
    await a.authenticateToken('ok');
    await a.authenticateToken('bad');
    assert.equal(wh.requests.length, 2);
    now = 1000;
    await a.authenticateToken('ok');
    assert.equal(wh.requests.length, 3);
    const withAud = mk(['api']);
    assert.deepEqual(await withAud.authenticateToken('ok'), { username: 'u', groups: [] }, 'no status.audiences: valid for the API audiences');
    assert.deepEqual(wh.requests.at(-1)!.body.spec, { token: 'ok', audiences: ['api'] });
  } finally {
    await wh.stop();
  }
  const dead = tokenWebhookAuthenticator({ connection: { url: wh.url, caPem: wh.ca.certPem }, version: 'v1', cacheTtlMs: 1000, apiAudiences: [], timeoutMs: 2000 });
  assert.equal(await dead.authenticateToken('ok'), undefined);
});
