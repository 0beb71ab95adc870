import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resolveOptions } from '../../controlplane/options.ts';
import { CompactSign } from 'jose';
import type { KObject } from '../../machinery/objects.ts';
import { serviceAccountConfig, DEFAULT_ISSUER } from './config.ts';
import { boundClaims, checkTimes, validateBound, TokenInvalidError } from './claims.ts';
import { legacyClaims, validateLegacy } from './legacy.ts';
import { jwtTokenAuthenticator, unverifiedClaims } from './authenticator.ts';
import { createIssuer, serviceAccountIssuer, sortedJson } from './issuer.ts';
import { keyId, parseSigningKey, type ServiceAccountKeys } from './keys.ts';
import { jwksDocument, openIdConfiguration, discoveryProblem } from './discovery.ts';
import type { ObjectGetter } from './getter.ts';

const obj = (name: string, uid: string, extra: Partial<KObject['metadata']> = {}, namespace = 'ns'): KObject => ({ metadata: { name, namespace, uid, ...extra } });

function getterOf(objects: Record<string, KObject>): ObjectGetter {
  return { get: (resource, namespace, name) => Promise.resolve(objects[`${resource}/${resource === 'nodes' ? '' : namespace}/${name}`]) };
}

function keysOf(pair: { privateKey: import('node:crypto').KeyObject }): ServiceAccountKeys {
  const signing = parseSigningKey(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string)!;
  return { signing, verifying: [{ key: signing.key, kid: signing.kid, alg: signing.alg }] };
}

void test('config: kube\'s defaults and option checks', () => {
  const c = serviceAccountConfig({});
  assert.deepEqual(c, { issuers: [DEFAULT_ISSUER], apiAudiences: [DEFAULT_ISSUER], lookup: true, maxExpirationSeconds: 0, extendExpiration: true });
  assert.deepEqual(serviceAccountConfig({ serviceAccounts: { issuers: ['https://a', 'https://b'] } }).apiAudiences, ['https://a', 'https://b']);
  assert.deepEqual(serviceAccountConfig({ serviceAccounts: { issuers: ['https://a'] }, apiAudiences: ['api'] }).apiAudiences, ['api']);
  assert.throws(() => serviceAccountConfig({ serviceAccounts: { issuers: ['https://[x'] } }), /contained a ':' but was not a valid URL/);
  assert.throws(() => serviceAccountConfig({ serviceAccounts: { maxTokenExpirationMs: 60_000 } }), /between 1 hour and 2\^32 seconds/);
  assert.throws(() => serviceAccountConfig({ serviceAccounts: { jwksUri: 'http://x/jwks' } }), /requires https scheme/);
  assert.equal(serviceAccountConfig({ serviceAccounts: { maxTokenExpirationMs: 7_200_000 } }).maxExpirationSeconds, 7200);
});

void test('bound claims as kube writes them; the payload is key-sorted at every level', () => {
  const now = new Date('2026-01-02T03:04:05Z');
  const c = boundClaims({
    serviceAccount: obj('sa', 'u-sa'), pod: obj('p', 'u-p'), node: { name: 'n1' }, expirationSeconds: 600, warnAfterSeconds: 60, audiences: ['a'], now,
  });
  const t = now.getTime() / 1000;
  assert.deepEqual({ ...c, jti: 'x' }, {
    sub: 'system:serviceaccount:ns:sa', aud: ['a'], iat: t, nbf: t, exp: t + 600, jti: 'x',
    'kubernetes.io': { namespace: 'ns', serviceaccount: { name: 'sa', uid: 'u-sa' }, pod: { name: 'p', uid: 'u-p' }, node: { name: 'n1' }, warnafter: t + 60 },
  });
  assert.equal(JSON.stringify(sortedJson({ b: 1, a: { d: 1, c: [{ f: 1, e: 2 }] } })), '{"a":{"c":[{"e":2,"f":1}],"d":1},"b":1}');
});

void test('time checks allow go-jose\'s one-minute leeway and no more', () => {
  const now = 1_000_000;
  assert.doesNotThrow(() => checkTimes({ exp: now - 60, nbf: now + 60, iat: now + 60 }, now));
  assert.throws(() => checkTimes({ exp: now - 61 }, now), /service account token has expired/);
  assert.throws(() => checkTimes({ nbf: now + 61 }, now), /service account token is not valid yet/);
  assert.throws(() => checkTimes({ iat: now + 61 }, now), /service account token is issued in the future/);
  assert.throws(() => checkTimes({ exp: 'soon' }, now), TokenInvalidError);
});

void test('bound validation: account uid, bound objects and their deletion grace, extras', async () => {
  const now = new Date();
  const t = Math.floor(now.getTime() / 1000);
  const claims = (k8s: Record<string, unknown>) => ({ iat: t, nbf: t, exp: t + 600, jti: 'j1', 'kubernetes.io': { namespace: 'ns', serviceaccount: { name: 'sa', uid: 'u-sa' }, ...k8s } });
  const recently = new Date(now.getTime() - 30_000).toISOString();
  const longAgo = new Date(now.getTime() - 120_000).toISOString();
  const g = getterOf({
    'serviceaccounts/ns/sa': obj('sa', 'u-sa'),
    'pods/ns/p': obj('p', 'u-p', { deletionTimestamp: recently }),
    'pods/ns/old': obj('old', 'u-old', { deletionTimestamp: longAgo }),
    'secrets/ns/s': obj('s', 'u-s'),
    'nodes//n': obj('n', 'u-n', {}, ''),
  });
  const u = await validateBound(claims({ pod: { name: 'p', uid: 'u-p' }, node: { name: 'gone-node', uid: 'x' } }), g, now);
  assert.deepEqual(u, {
    username: 'system:serviceaccount:ns:sa', uid: 'u-sa', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'],
    extra: {
      'authentication.kubernetes.io/credential-id': ['JTI=j1'], 'authentication.kubernetes.io/node-name': ['gone-node'], 'authentication.kubernetes.io/node-uid': ['x'],
      'authentication.kubernetes.io/pod-name': ['p'], 'authentication.kubernetes.io/pod-uid': ['u-p'],
    },
  });
  await assert.rejects(validateBound(claims({ pod: { name: 'old', uid: 'u-old' } }), g, now), /service account token has been invalidated/);
  await assert.rejects(validateBound(claims({ pod: { name: 'p', uid: 'other' } }), g, now), /pod UID \(u-p\) does not match service account pod ref claim \(other\)/);
  await assert.rejects(validateBound(claims({ secret: { name: 'missing', uid: 'x' } }), g, now), /service account token has been invalidated/);
  await assert.rejects(validateBound(claims({ secret: { name: 's', uid: 'x' } }), g, now), /secret UID \(u-s\) does not match/);
  assert.equal((await validateBound(claims({ node: { name: 'n', uid: 'u-n' } }), g, now)).extra?.['authentication.kubernetes.io/node-uid']?.[0], 'u-n');
  await assert.rejects(validateBound(claims({ node: { name: 'n', uid: 'old' } }), g, now), /node UID \(u-n\) does not match/);
  await assert.rejects(validateBound({ ...claims({}), 'kubernetes.io': { namespace: 'ns', serviceaccount: { name: 'sa', uid: 'other' } } }, g, now), /service account UID \(u-sa\) does not match claim \(other\)/);
  await assert.rejects(validateBound({ ...claims({}), 'kubernetes.io': 'x' }, g, now), /malformed/);
});

void test('legacy validation: claim presence, sub consistency, and lookups only when asked', async () => {
  const sa = obj('sa', 'u-sa');
  const c = legacyClaims(sa, 'tok');
  const token = 'the.token.value';
  const secret = { ...obj('tok', 'u-tok'), data: { token: Buffer.from(token).toString('base64') } };
  const marked: string[] = [];
  const v = { lookup: true, getter: getterOf({ 'serviceaccounts/ns/sa': sa, 'secrets/ns/tok': secret }), markUsed: (s: KObject, d: string) => { marked.push(`${s.metadata.name}@${d}`); return Promise.resolve(); } };
  assert.equal((await validateLegacy(c, token, v)).username, 'system:serviceaccount:ns:sa');
  assert.equal(marked.length, 1);
  await assert.rejects(validateLegacy(c, 'another', v), /Token does not match server's copy/);
  await assert.rejects(validateLegacy({ ...c, sub: 'system:serviceaccount:other:sa' }, token, v), /sub claim is invalid/);
  await assert.rejects(validateLegacy({ ...c, 'kubernetes.io/serviceaccount/secret.name': '' }, token, v), /secretName claim is missing/);
  await assert.rejects(validateLegacy(c, token, { ...v, getter: getterOf({ 'serviceaccounts/ns/sa': sa }) }), /Token has been invalidated/);
  await assert.rejects(validateLegacy(c, token, { ...v, getter: getterOf({ 'serviceaccounts/ns/sa': obj('sa', 'new'), 'secrets/ns/tok': secret }) }), /ServiceAccount UID \(new\) does not match claim \(u-sa\)/);
  const invalidated = { ...secret, metadata: { ...secret.metadata, labels: { 'kubernetes.io/legacy-token-invalid-since': '2026-01-01' } } };
  await assert.rejects(validateLegacy(c, token, { ...v, getter: getterOf({ 'serviceaccounts/ns/sa': sa, 'secrets/ns/tok': invalidated }) }), /has been marked invalid/);
  // lookup off: nothing is read.
  assert.equal((await validateLegacy(c, 'anything', { lookup: false, getter: getterOf({}) })).uid, 'u-sa');
});

void test('the JWT authenticator: not ours → undefined without verifying; ours verifies (RS256 and ES256), checks audiences', async () => {
  const ec = keysOf(generateKeyPairSync('ec', { namedCurve: 'prime256v1' }));
  const issuer = createIssuer(serviceAccountConfig({}), ec);
  const seen: string[] = [];
  const auth = jwtTokenAuthenticator({
    name: 'sa', issuers: [DEFAULT_ISSUER], keys: ec.verifying, implicitAudiences: [DEFAULT_ISSUER], log: (l) => seen.push(l),
    validate: (claims) => Promise.resolve({ username: String(claims.sub), groups: [] }),
  });
  const good = await issuer.signBound({ sub: 'me', aud: [DEFAULT_ISSUER] });
  assert.equal(JSON.parse(Buffer.from(good.split('.')[0]!, 'base64url').toString()).alg, 'ES256');
  assert.equal((await auth.authenticateToken(good))?.username, 'me');
  assert.equal(await auth.authenticateToken('abcdef.0123456789abcdef'), undefined);
  assert.equal(await auth.authenticateToken('{"iss":"x"}.a.b'), undefined);
  const foreign = await new CompactSign(new TextEncoder().encode(JSON.stringify({ iss: 'https://other' }))).setProtectedHeader({ alg: 'ES256' }).sign(ec.signing.privateKey);
  assert.equal(await auth.authenticateToken(foreign), undefined);
  assert.deepEqual(seen, [], 'tokens of other issuers are not ours: nothing to log');
  assert.equal(await auth.authenticateToken(await issuer.signBound({ sub: 'me', aud: ['elsewhere'] })), undefined);
  assert.match(seen.at(-1)!, /token audiences \["elsewhere"\] is invalid for the target audiences/);
  // A token without aud (legacy) gets the API audiences.
  assert.equal((await auth.authenticateToken(await issuer.signBound({ sub: 'legacy' })))?.username, 'legacy');
  const otherKey = keysOf(generateKeyPairSync('rsa', { modulusLength: 2048 }));
  assert.equal(await auth.authenticateToken(await createIssuer(serviceAccountConfig({}), otherKey).signBound({ sub: 'x', aud: [DEFAULT_ISSUER] })), undefined);
  assert.match(seen.at(-1)!, /could not be verified/);
  assert.deepEqual(unverifiedClaims('a.' + Buffer.from('[1]').toString('base64url') + '.c'), undefined);
});

void test('discovery documents: kube\'s fields, algorithms from the keys, JWK field order; https issuers only', () => {
  const ec = keysOf(generateKeyPairSync('ec', { namedCurve: 'prime256v1' }));
  const rsa = keysOf(generateKeyPairSync('rsa', { modulusLength: 2048 }));
  const keys = [...rsa.verifying, ...ec.verifying];
  assert.deepEqual(openIdConfiguration({ issuer: 'https://i', jwksUri: 'https://i/jwks', keys }), {
    issuer: 'https://i', jwks_uri: 'https://i/jwks', response_types_supported: ['id_token'], subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['ES256', 'RS256'],
  });
  const doc = jwksDocument(keys);
  assert.deepEqual(Object.keys(doc.keys[0]!), ['use', 'kty', 'kid', 'alg', 'n', 'e']);
  assert.deepEqual(Object.keys(doc.keys[1]!), ['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']);
  assert.equal(doc.keys[1]!.crv, 'P-256');
  assert.equal(discoveryProblem('https://kubernetes.default.svc'), undefined);
  assert.match(discoveryProblem('kubernetes/serviceaccount')!, /not a URL/);
  assert.match(discoveryProblem('http://x')!, /https scheme/);
  assert.match(discoveryProblem('https://x?a=b')!, /query/);
});

void test('without key files, a usable --tls-private-key-file also verifies (kube\'s fallback); the issuer is shared per options object', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-sa-tls-'));
  try {
    const tls = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const keyFile = path.join(dir, 'tls.key');
    writeFileSync(keyFile, tls.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
    const o = resolveOptions({ tlsCertFile: path.join(dir, 'tls.crt'), tlsPrivateKeyFile: keyFile, certDir: dir });
    const a = await serviceAccountIssuer(o);
    assert.equal(a, await serviceAccountIssuer(o));
    assert.deepEqual(a.keys.verifying.map((k) => k.kid), [keyId(tls.publicKey), a.keys.signing.kid]);
    assert.equal(a.keys.signing.alg, 'RS256');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
