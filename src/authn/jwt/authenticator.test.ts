import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startOidcProvider, type TestOidcProvider } from '../../../test/support/oidc-provider.ts';
import { createCa } from '../../controlplane/certs.ts';
import { IssuerAuthenticator, untrustedIssuer, type JwtResult } from './authenticator.ts';
import { oidcFlagsToJwtAuthenticator, type JwtAuthenticatorConfig } from './config.ts';
import { validateJwtAuthenticator } from './validate.ts';

function authenticatorFor(idp: TestOidcProvider, patch: (c: JwtAuthenticatorConfig) => void = () => {}, opts: { algs?: string[]; caPem?: string; now?: () => number } = {}): IssuerAuthenticator {
  const config = oidcFlagsToJwtAuthenticator({ issuerUrl: idp.url, clientId: idp.audience, usernameClaim: 'sub', usernamePrefix: '-' }, opts.caPem ?? idp.caPem);
  patch(config);
  const v = validateJwtAuthenticator(config, '', new Set());
  assert.deepEqual(v.errors.map(String), []);
  return new IssuerAuthenticator({ config, mappers: v.mappers, signingAlgs: opts.algs, retryMs: 20, now: opts.now });
}

/** Waits (bounded) until discovery finished. */
async function ready(a: IssuerAuthenticator): Promise<void> {
  a.start();
  assert.equal(await a.waitReady(AbortSignal.timeout(10_000)), true, a.healthError());
}

const user = (r: JwtResult | undefined): unknown => (r && 'user' in r ? r.user : r);
const errorOf = (r: JwtResult | undefined): string => (r && 'error' in r ? r.error : `not an error: ${JSON.stringify(r)}`);

void test('untrustedIssuer: compact JWTs only; google legacy issuer coalesced', () => {
  const enc = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');
  assert.equal(untrustedIssuer(`${enc({ alg: 'RS256' })}.${enc({ iss: 'https://a' })}.sig`), 'https://a');
  assert.equal(untrustedIssuer(`x.${enc({ iss: 'accounts.google.com' })}.y`), 'https://accounts.google.com');
  assert.equal(untrustedIssuer('{"iss":"https://a"}'), undefined);
  assert.equal(untrustedIssuer('a.b'), undefined);
  assert.equal(untrustedIssuer('a.!!!.c'), undefined);
});

void test('a valid ID token maps to a user; other issuers are not ours', async () => {
  const idp = await startOidcProvider();
  const a = authenticatorFor(idp);
  try {
    await ready(a);
    assert.deepEqual(user(await a.authenticate(await idp.token({ sub: 'jane', jti: 'j-1' }))),
      { username: 'jane', groups: [], extra: { 'authentication.kubernetes.io/credential-id': ['JTI=j-1'] } });
    assert.equal(await a.authenticate(await idp.token({ iss: 'https://elsewhere.example' })), undefined);
    assert.equal(await a.authenticate('not-a-jwt'), undefined);
    // the key set was fetched once and then served from the cache
    await a.authenticate(await idp.token());
    assert.equal(idp.jwksFetches, 1);
  } finally {
    a.stop();
    await idp.stop();
  }
});

void test('security: expiry, not-before, audience, issuer, algorithm and signature are enforced', async () => {
  const idp = await startOidcProvider();
  const a = authenticatorFor(idp);
  try {
    await ready(a);
    const now = Math.floor(Date.now() / 1000);
    assert.match(errorOf(await a.authenticate(await idp.token({ exp: now - 10 }))), /token is expired/);
    assert.match(errorOf(await a.authenticate(await idp.token({ exp: undefined }))), /token is expired/);
    // nbf: 5 minutes of leeway as go-oidc
    assert.equal((user(await a.authenticate(await idp.token({ nbf: now + 60 }))) as { username: string }).username, 'subject-1');
    assert.match(errorOf(await a.authenticate(await idp.token({ nbf: now + 3600 }))), /before the nbf/);
    assert.match(errorOf(await a.authenticate(await idp.token({ aud: 'someone-else' }))), /expected audience in \["keelson"\] got \["someone-else"\]/);
    assert.equal((user(await a.authenticate(await idp.token({ aud: ['x', 'keelson'] }))) as { username: string }).username, 'subject-1');
    // signed by a key the provider does not publish (forged)
    const rogue = await idp.newKey();
    assert.match(errorOf(await a.authenticate(await idp.token({}, { key: rogue }))), /failed to verify signature/);
    // same kid as the real key, other key material
    const impostor = { ...rogue, kid: idp.keys[0]!.kid };
    assert.match(errorOf(await a.authenticate(await idp.token({}, { key: impostor }))), /failed to verify signature/);
    // alg none: unsigned token with our issuer
    const enc = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');
    const none = `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ iss: idp.url, aud: 'keelson', sub: 'root', exp: now + 600 })}.`;
    assert.match(errorOf(await a.authenticate(none)), /unsupported algorithm/);
    // HS256 with the public key as secret (algorithm confusion) is refused by the allow-list
    const hs = `${enc({ alg: 'HS256', kid: idp.keys[0]!.kid })}.${enc({ iss: idp.url, aud: 'keelson', sub: 'root', exp: now + 600 })}.AAAA`;
    assert.match(errorOf(await a.authenticate(hs)), /unsupported algorithm/);
    // tampered payload keeps the header and signature of a good token
    const good = (await idp.token({ sub: 'jane' })).split('.');
    const tampered = `${good[0]}.${enc({ iss: idp.url, aud: 'keelson', sub: 'admin', exp: now + 600 })}.${good[2]}`;
    assert.match(errorOf(await a.authenticate(tampered)), /failed to verify signature/);
  } finally {
    a.stop();
    await idp.stop();
  }
});

void test('ES256 only when allowed; key rotation is picked up by refetching the key set', async () => {
  const idp = await startOidcProvider();
  const rsOnly = authenticatorFor(idp);
  const both = authenticatorFor(idp, () => {}, { algs: ['RS256', 'ES256'] });
  try {
    await ready(rsOnly);
    await ready(both);
    const ec = await idp.newKey({ alg: 'ES256', publish: true });
    const t = await idp.token({ sub: 'ec-user' }, { key: ec });
    assert.match(errorOf(await rsOnly.authenticate(t)), /unsupported algorithm/);
    assert.equal((user(await both.authenticate(t)) as { username: string }).username, 'ec-user');
    // rotation: a new key appears after the set was cached
    await both.authenticate(await idp.token());
    const fetches = idp.jwksFetches;
    const rotated = await idp.newKey({ publish: true });
    assert.equal((user(await both.authenticate(await idp.token({ sub: 'rotated' }, { key: rotated }))) as { username: string }).username, 'rotated');
    assert.equal(idp.jwksFetches, fetches + 1);
  } finally {
    rsOnly.stop();
    both.stop();
    await idp.stop();
  }
});

void test('provider TLS: an untrusted CA or a mismatched discovered issuer keeps the authenticator uninitialized', async () => {
  const idp = await startOidcProvider();
  const otherCa = await createCa('not-the-provider-ca');
  const untrusted = authenticatorFor(idp, () => {}, { caPem: otherCa.certPem });
  try {
    untrusted.start();
    assert.equal(await untrusted.waitReady(AbortSignal.timeout(300)), false);
    assert.match(untrusted.healthError()!, /not initialized/);
    assert.equal(errorOf(await untrusted.authenticate(await idp.token())), 'oidc: authenticator not initialized');
  } finally {
    untrusted.stop();
  }
  idp.discoveredIssuer = 'https://evil.example';
  const mismatched = authenticatorFor(idp);
  try {
    mismatched.start();
    assert.equal(await mismatched.waitReady(AbortSignal.timeout(300)), false);
    assert.match(mismatched.healthError()!, /issuer did not match the issuer returned by provider/);
  } finally {
    mismatched.stop();
    await idp.stop();
  }
});

void test('a provider that is down at start is retried until it answers', async () => {
  const idp = await startOidcProvider();
  idp.down = true;
  const a = authenticatorFor(idp);
  try {
    a.start();
    await sleep(50);
    assert.ok(a.healthError());
    idp.down = false;
    assert.equal(await a.waitReady(AbortSignal.timeout(10_000)), true);
    assert.equal((user(await a.authenticate(await idp.token())) as { username: string }).username, 'subject-1');
  } finally {
    a.stop();
    await idp.stop();
  }
});

void test('discoveryURL: discovery from another URL, the discovered issuer must still be the configured one', async () => {
  const idp = await startOidcProvider();
  const alt = idp.url.replace(/\/oidc$/, '/alt/discovery');
  const a = authenticatorFor(idp, (c) => { c.issuer.discoveryURL = alt; });
  try {
    await ready(a);
    assert.equal((user(await a.authenticate(await idp.token())) as { username: string }).username, 'subject-1');
  } finally {
    a.stop();
    await idp.stop();
  }
});

void test('claims: username prefix rules, email_verified, groups string or list with prefix, required claims, uid', async () => {
  const idp = await startOidcProvider();
  const flags = (extra: Record<string, unknown>): IssuerAuthenticator => {
    const config = oidcFlagsToJwtAuthenticator({ issuerUrl: idp.url, clientId: 'keelson', ...extra }, idp.caPem);
    const v = validateJwtAuthenticator(config, '', new Set());
    return new IssuerAuthenticator({ config, mappers: v.mappers, retryMs: 20 });
  };
  const sub = flags({ usernameClaim: 'sub' });
  const email = flags({ usernameClaim: 'email', groupsClaim: 'groups', groupsPrefix: 'oidc:', requiredClaims: { tenant: 'blue' } });
  const custom = authenticatorFor(idp, (c) => { c.claimMappings.uid = { claim: 'oid' }; c.claimMappings.username.prefix = 'corp:'; });
  try {
    for (const a of [sub, email, custom]) await ready(a);
    // legacy default prefix: issuer URL + '#' for claims other than email
    assert.equal((user(await sub.authenticate(await idp.token({ sub: 'jane' }))) as { username: string }).username, `${idp.url}#jane`);
    const ok = await email.authenticate(await idp.token({ email: 'jane@example.com', email_verified: true, groups: ['dev', 'ops'], tenant: 'blue' }));
    assert.deepEqual(user(ok), { username: 'jane@example.com', groups: ['oidc:dev', 'oidc:ops'] });
    assert.deepEqual(user(await email.authenticate(await idp.token({ email: 'j@x', groups: 'solo', tenant: 'blue' }))), { username: 'j@x', groups: ['oidc:solo'] });
    assert.equal(errorOf(await email.authenticate(await idp.token({ email: 'j@x', email_verified: false, tenant: 'blue' }))), 'oidc: email not verified');
    assert.equal(errorOf(await email.authenticate(await idp.token({ email: 'j@x' }))), 'oidc: required claim tenant not present in ID token');
    assert.equal(errorOf(await email.authenticate(await idp.token({ email: 'j@x', tenant: 'red' }))), 'oidc: required claim tenant value does not match. Got = red, want = blue');
    assert.match(errorOf(await email.authenticate(await idp.token({ tenant: 'blue' }))), /parse username claims "email": claim not present/);
    assert.match(errorOf(await email.authenticate(await idp.token({ email: 'j@x', groups: [1, 2], tenant: 'blue' }))), /parse groups claim "groups"/);
    assert.deepEqual(user(await custom.authenticate(await idp.token({ sub: 'jane', oid: 'u-42' }))), { username: 'corp:jane', uid: 'u-42', groups: [] });
  } finally {
    for (const a of [sub, email, custom]) a.stop();
    await idp.stop();
  }
});

void test('CEL: username/groups/uid/extra expressions, claim and user validation rules', async () => {
  const idp = await startOidcProvider();
  const a = authenticatorFor(idp, (c) => {
    c.claimMappings.username = { expression: "'oidc:' + claims.sub" };
    c.claimMappings.groups = { expression: "has(claims.roles) ? claims.roles : []" };
    c.claimMappings.uid = { expression: 'claims.sub' };
    c.claimMappings.extra = [{ key: 'example.com/tenant', valueExpression: "has(claims.tenant) ? claims.tenant : ''" }];
    c.claimValidationRules = [{ expression: "claims.sub != 'blocked'", message: 'blocked user' }];
    c.userValidationRules = [{ expression: "!user.username.startsWith('oidc:system')", message: 'no system users' }];
  });
  try {
    await ready(a);
    assert.deepEqual(user(await a.authenticate(await idp.token({ sub: 'jane', roles: ['dev', ''], tenant: 'blue' }))),
      { username: 'oidc:jane', uid: 'jane', groups: ['dev'], extra: { 'example.com/tenant': ['blue'] } });
    // '' and missing are "absent": no groups, no extra key
    assert.deepEqual(user(await a.authenticate(await idp.token({ sub: 'bob' }))), { username: 'oidc:bob', uid: 'bob', groups: [] });
    assert.equal(errorOf(await a.authenticate(await idp.token({ sub: 'blocked' }))),
      "oidc: error evaluating claim validation expression: validation expression 'claims.sub != 'blocked'' failed: blocked user");
    assert.equal(errorOf(await a.authenticate(await idp.token({ sub: 'system:admin' }))),
      "oidc: error evaluating user info validation rule: validation expression '!user.username.startsWith('oidc:system')' failed: no system users");
    // a mapping that fails at runtime (wrong type) refuses the token
    assert.match(errorOf(await a.authenticate(await idp.token({ sub: 'x', roles: 5 }))), /group claim expression/);
  } finally {
    a.stop();
    await idp.stop();
  }
  const idp2 = await startOidcProvider({ ca: idp.ca });
  const b = authenticatorFor(idp2, (c) => { c.claimMappings.username = { expression: "has(claims.name) ? claims.name : ''" }; });
  try {
    await ready(b);
    assert.equal(errorOf(await b.authenticate(await idp2.token({}))), 'oidc: empty username via CEL expression is not allowed');
    assert.equal(errorOf(await b.authenticate(await idp2.token({ name: 5 }))).startsWith('oidc: error evaluating username claim expression'), true);
  } finally {
    b.stop();
    await idp2.stop();
  }
});

void test('distributed claims: groups fetched from the claim source (with its access token) and verified', async () => {
  const idp = await startOidcProvider();
  const other = await startOidcProvider({ ca: idp.ca });
  const a = authenticatorFor(idp, (c) => { c.claimMappings.groups = { claim: 'groups', prefix: '' }; });
  const distributed = (p: TestOidcProvider, token = p.distributedToken): Record<string, unknown> => ({
    _claim_names: { groups: 'src1' }, _claim_sources: { src1: { endpoint: `${p.url}/distributed`, access_token: token } },
  });
  try {
    await ready(a);
    idp.distributedClaims = { groups: ['from-source'] };
    assert.deepEqual(user(await a.authenticate(await idp.token({ sub: 'jane', ...distributed(idp) }))), { username: 'jane', groups: ['from-source'] });
    // a claim in the token itself wins; no source is asked
    idp.distributedClaims = undefined;
    assert.deepEqual(user(await a.authenticate(await idp.token({ sub: 'jane', groups: ['inline'], ...distributed(idp) }))), { username: 'jane', groups: ['inline'] });
    assert.match(errorOf(await a.authenticate(await idp.token({ sub: 'jane', ...distributed(idp) }))), /could not expand distributed claims: while getting distributed claim "groups": 404/);
    idp.distributedClaims = { groups: ['x'] };
    assert.match(errorOf(await a.authenticate(await idp.token({ sub: 'jane', ...distributed(idp, 'wrong') }))), /401/);
    assert.match(errorOf(await a.authenticate(await idp.token({ sub: 'jane', _claim_names: { groups: 'nope' }, _claim_sources: {} }))), /missing in _claims_sources/);
    // a source JWT from another issuer: verified with that issuer's keys once its discovery finished (kube: lazily)
    other.distributedClaims = { groups: ['elsewhere'], aud: idp.audience };
    const t = await idp.token({ sub: 'jane', ...distributed(other) });
    assert.match(errorOf(await a.authenticate(t)), /verifier not initialized for issuer/);
    let r: JwtResult | undefined;
    for (let i = 0; i < 200; i++) {
      r = await a.authenticate(t);
      if (r && 'user' in r) break;
      await sleep(25);
    }
    assert.deepEqual(user(r), { username: 'jane', groups: ['elsewhere'] });
    // a source JWT for another audience is refused
    other.distributedClaims = { groups: ['elsewhere'], aud: 'not-us' };
    assert.match(errorOf(await a.authenticate(t)), /verify distributed claim token: .*expected audience/);
  } finally {
    a.stop();
    await idp.stop();
    await other.stop();
  }
});

void test('malformed tokens with our issuer are refused, never thrown', async () => {
  const idp = await startOidcProvider();
  const a = authenticatorFor(idp);
  try {
    await ready(a);
    const enc = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');
    const exp = Math.floor(Date.now() / 1000) + 600;
    const payloads: unknown[] = [
      { iss: idp.url, aud: 5, exp }, { iss: idp.url, aud: 'keelson', exp: 'soon' }, { iss: idp.url, aud: ['keelson', 1], exp },
      { iss: idp.url, aud: 'keelson', exp, nbf: 'x' },
    ];
    for (const p of payloads) {
      const r = await a.authenticate(`${enc({ alg: 'RS256' })}.${enc(p)}.c2ln`);
      assert.ok(r && 'error' in r, JSON.stringify(p));
    }
    for (const header of ['!!!', enc('string'), enc({ alg: 'RS256', crit: ['x'] }), enc({ alg: 'RS256', kid: 7 })]) {
      const r = await a.authenticate(`${header}.${enc({ iss: idp.url, aud: 'keelson', exp, sub: 'x' })}.c2ln`);
      assert.ok(r && 'error' in r, header);
    }
    // a username claim of the wrong type
    assert.match(errorOf(await a.authenticate(await idp.token({ sub: 42 }))), /parse username claims "sub"/);
  } finally {
    a.stop();
    await idp.stop();
  }
});
