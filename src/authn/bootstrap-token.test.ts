import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../machinery/objects.ts';
import { bootstrapGroups, bootstrapTokenAuthenticator, bootstrapTokenExpired } from './bootstrap-token.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');
function secret(data: Record<string, string>, o: { type?: string; name?: string; deletionTimestamp?: string } = {}): KObject {
  const d = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)]));
  return { metadata: { name: o.name ?? 'bootstrap-token-abcdef', namespace: 'kube-system', ...(o.deletionTimestamp ? { deletionTimestamp: o.deletionTimestamp } : {}) }, type: o.type ?? 'bootstrap.kubernetes.io/token', data: d };
}
const valid = { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true' };

void test('expiration: RFC 3339 in the past expires; unparsable counts as expired; absent never expires', () => {
  const now = new Date('2026-06-01T00:00:00Z');
  assert.equal(bootstrapTokenExpired(secret({ expiration: '2026-05-31T23:59:59Z' }), now), true);
  assert.equal(bootstrapTokenExpired(secret({ expiration: '2026-06-01T02:00:00+02:00' }), now), false);
  assert.equal(bootstrapTokenExpired(secret({ expiration: '2026-06-01T01:00:00+02:00' }), now), true);
  assert.equal(bootstrapTokenExpired(secret({ expiration: '2026-07-01' }), now), true);
  assert.equal(bootstrapTokenExpired(secret({}), now), false);
});

void test('groups: system:bootstrappers plus valid extra groups, sorted and deduplicated; an invalid one fails', () => {
  assert.deepEqual(bootstrapGroups(secret({})), ['system:bootstrappers']);
  assert.deepEqual(bootstrapGroups(secret({ 'auth-extra-groups': 'system:bootstrappers:z,system:bootstrappers:a:b,system:bootstrappers:z' })),
    ['system:bootstrappers', 'system:bootstrappers:a:b', 'system:bootstrappers:z']);
  assert.throws(() => bootstrapGroups(secret({ 'auth-extra-groups': 'system:bootstrappers:' })), /is invalid/);
  assert.throws(() => bootstrapGroups(secret({ 'auth-extra-groups': 'system:masters' })), /is invalid/);
});

void test('the authenticator accepts only matching, unexpired, authentication-enabled tokens of the right type', async () => {
  const store = new Map<string, KObject>();
  const logs: string[] = [];
  const a = bootstrapTokenAuthenticator({ getSecret: (n) => Promise.resolve(store.get(n)), log: (l) => logs.push(l), now: () => new Date('2026-06-01T00:00:00Z') });
  store.set('bootstrap-token-abcdef', secret(valid));
  assert.deepEqual(await a.authenticateToken('abcdef.0123456789abcdef'), { username: 'system:bootstrap:abcdef', groups: ['system:bootstrappers'] });
  for (const t of ['abcdef.0123456789abcdeF', 'abcdef.0123456789abcde', 'abcdef:0123456789abcdef', 'abcdef.0123456789abcdee', 'zzzzzz.0123456789abcdef']) {
    assert.equal(await a.authenticateToken(t), undefined, t);
  }
  const refused: Array<[KObject, RegExp]> = [
    [secret(valid, { type: 'Opaque' }), /has invalid type/],
    [secret({ ...valid, 'token-id': 'other1' }), /invalid value for key token-id/],
    [secret({ ...valid, 'usage-bootstrap-authentication': 'yes' }), /not marked usage-bootstrap-authentication=true/],
    [secret({ ...valid, expiration: '2026-01-01T00:00:00Z' }), /has expired/],
    [secret({ ...valid, 'auth-extra-groups': 'admins' }), /auth-extra-groups/],
    [secret(valid, { deletionTimestamp: '2026-05-01T00:00:00Z' }), /deleted and awaiting removal/],
  ];
  for (const [s, why] of refused) {
    store.set('bootstrap-token-abcdef', s);
    assert.equal(await a.authenticateToken('abcdef.0123456789abcdef'), undefined);
    assert.match(logs.at(-1)!, why);
  }
});
