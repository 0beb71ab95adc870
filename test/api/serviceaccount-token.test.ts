/**
 * Bound service account tokens end to end: TokenRequest (`serviceaccounts/<name>/token`) shapes and kube's
 * errors, authenticating with the token (SelfSubjectReview, TokenReview), revocation when the account or the
 * bound pod/secret goes away, forged/expired/foreign tokens refused with 401 and nothing written, and the
 * issuer discovery documents.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPrivateKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import { CompactSign, compactVerify, importJWK } from 'jose';
import { startTestServer, type TestServer } from '../support/server.ts';
import { assertStatus } from './helpers.ts';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const NS = 'sa-tokens';
let srv: TestServer;

before(async () => {
  srv = await startTestServer({ authorizationMode: ['AlwaysAllow'] });
  assert.equal((await srv.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } } })).status, 201);
});
after(async () => {
  await srv?.stop();
});

function decode(token: string): { header: any; claims: any } {
  const [h, p] = token.split('.');
  return { header: JSON.parse(Buffer.from(h!, 'base64url').toString()), claims: JSON.parse(Buffer.from(p!, 'base64url').toString()) };
}

async function createSa(name: string): Promise<any> {
  const r = await srv.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } } });
  assert.equal(r.status, 201, r.text);
  return r.json();
}

async function requestToken(sa: string, spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return srv.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts/${sa}/token`, {
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec, ...extra },
  });
}

async function tokenFor(sa: string, spec: Record<string, unknown> = {}): Promise<string> {
  const r = await requestToken(sa, spec);
  assert.equal(r.status, 201, r.text);
  return r.json().status.token as string;
}

async function whoami(token: string) {
  return srv.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
    user: { token }, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
  });
}

async function createPod(name: string, sa: string, nodeName?: string): Promise<any> {
  const r = await srv.request('POST', `/api/v1/namespaces/${NS}/pods`, {
    body: { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { serviceAccountName: sa, ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'busybox' }] } },
  });
  assert.equal(r.status, 201, r.text);
  return r.json();
}

/** The server's generated signing key (the harness gives every server a data dir, which is its cert dir). */
function serverKey() {
  return createPrivateKey(readFileSync(path.join(srv.dataDir, 'sa.key'), 'utf8'));
}

async function forge(claims: Record<string, unknown>, o: { key?: ReturnType<typeof createPrivateKey>; alg?: string } = {}): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims))).setProtectedHeader({ alg: o.alg ?? 'RS256' }).sign(o.key ?? serverKey());
}

void test('TokenRequest answers 201 with the request, defaults and a signed token carrying kube\'s claims', async () => {
  const sa = await createSa('robot');
  const before = Math.floor(Date.now() / 1000);
  const r = await requestToken('robot');
  assert.equal(r.status, 201, r.text);
  const tr = r.json();
  assert.equal(tr.kind, 'TokenRequest');
  assert.equal(tr.apiVersion, 'authentication.k8s.io/v1');
  assert.equal(tr.metadata.name, 'robot');
  assert.equal(tr.metadata.namespace, NS);
  assert.match(tr.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.deepEqual(tr.spec, { audiences: [ISSUER], expirationSeconds: 3600, boundObjectRef: null });
  const expTs = Date.parse(tr.status.expirationTimestamp) / 1000;
  assert.ok(Math.abs(expTs - (before + 3600)) <= 2, tr.status.expirationTimestamp);

  const { header, claims } = decode(tr.status.token);
  assert.equal(header.alg, 'RS256');
  assert.match(header.kid, /^[A-Za-z0-9_-]{43}$/);
  assert.deepEqual(Object.keys(claims), ['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
  assert.equal(claims.iss, ISSUER);
  assert.equal(claims.sub, `system:serviceaccount:${NS}:robot`);
  assert.deepEqual(claims.aud, [ISSUER]);
  assert.equal(claims.exp - claims.iat, 3600);
  assert.equal(claims.nbf, claims.iat);
  assert.match(claims.jti, /^[0-9a-f-]{36}$/);
  assert.deepEqual(claims['kubernetes.io'], { namespace: NS, serviceaccount: { name: 'robot', uid: sa.metadata.uid } });
});

void test('the token authenticates as the service account, with kube\'s groups, uid and credential id', async () => {
  const sa = await createSa('whoami');
  const token = await tokenFor('whoami');
  const r = await whoami(token);
  assert.equal(r.status, 201, r.text);
  const { jti } = decode(token).claims;
  assert.deepEqual(r.json().status.userInfo, {
    username: `system:serviceaccount:${NS}:whoami`,
    uid: sa.metadata.uid,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${NS}`, 'system:authenticated'],
    extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${jti}`] },
  });
  // TokenReview sees the same user and reports the API audience.
  const tr = await srv.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } } });
  assert.equal(tr.status, 201, tr.text);
  const st = tr.json().status;
  assert.equal(st.authenticated, true);
  assert.equal(st.user.username, `system:serviceaccount:${NS}:whoami`);
  assert.deepEqual(st.audiences, [ISSUER]);
});

void test('TokenRequest errors: missing account 404, short expiry 422, name mismatch 422, bad binding 400/404/409', async () => {
  assertStatus(await requestToken('nobody'), 404, 'NotFound', 'serviceaccounts "nobody" not found');
  await createSa('errs');
  assertStatus(await requestToken('errs', { expirationSeconds: 60 }), 422, 'Invalid',
    'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes');
  assertStatus(await requestToken('errs', { expirationSeconds: 2 ** 32 + 1 }), 422, 'Invalid',
    `TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: ${2 ** 32 + 1}: may not specify a duration larger than 2^32 seconds`);
  assertStatus(await requestToken('errs', {}, { metadata: { name: 'other' } }), 422, 'Invalid',
    'TokenRequest.authentication.k8s.io "errs" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified');
  assertStatus(await requestToken('errs', { boundObjectRef: { apiVersion: 'v1', kind: 'ConfigMap', name: 'x' } }), 400, 'BadRequest',
    'cannot bind token to object of type /v1, Kind=ConfigMap');
  assertStatus(await requestToken('errs', { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'ghost' } }), 404, 'NotFound', 'pods "ghost" not found');
  await createSa('someone-else'); // the ServiceAccount admission plugin wants the pod's account to exist
  await createPod('other-sa-pod', 'someone-else');
  assertStatus(await requestToken('errs', { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'other-sa-pod' } }), 400, 'BadRequest',
    'cannot bind token for serviceaccount "errs" to pod running with different serviceaccount name.');
  const pod = await createPod('errs-pod', 'errs');
  const wrong = randomUUID();
  const s = assertStatus(await requestToken('errs', { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'errs-pod', uid: wrong } }), 409, 'Conflict',
    `Operation cannot be fulfilled on Pod "errs-pod": the UID in the bound object reference (${wrong}) does not match the UID in record. The object might have been deleted and then recreated`);
  assert.deepEqual(s.details, { name: 'errs-pod', kind: 'Pod' });
  // The right uid works.
  assert.equal((await requestToken('errs', { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'errs-pod', uid: pod.metadata.uid } })).status, 201);
});

void test('pod-bound tokens carry pod and node claims and extras, and die with the pod', async () => {
  const node = await srv.request('POST', '/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-a' } } });
  assert.equal(node.status, 201, node.text);
  const nodeUid = node.json().metadata.uid;
  await createSa('podbound');
  const pod = await createPod('bound-pod', 'podbound', 'node-a');
  const token = await tokenFor('podbound', { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'bound-pod' } });
  const { claims } = decode(token);
  assert.deepEqual(claims['kubernetes.io'].pod, { name: 'bound-pod', uid: pod.metadata.uid });
  assert.deepEqual(claims['kubernetes.io'].node, { name: 'node-a', uid: nodeUid });
  const r = await whoami(token);
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json().status.userInfo.extra, {
    'authentication.kubernetes.io/credential-id': [`JTI=${claims.jti}`],
    'authentication.kubernetes.io/node-name': ['node-a'],
    'authentication.kubernetes.io/node-uid': [nodeUid],
    'authentication.kubernetes.io/pod-name': ['bound-pod'],
    'authentication.kubernetes.io/pod-uid': [pod.metadata.uid],
  });
  const del = await srv.request('DELETE', `/api/v1/namespaces/${NS}/pods/bound-pod?gracePeriodSeconds=0`);
  assert.equal(del.status, 200, del.text);
  assertStatus(await whoami(token), 401, 'Unauthorized', 'Unauthorized');
});

void test('secret-bound and node-bound tokens are revoked when the object goes away', async () => {
  await createSa('secbound');
  const sec = await srv.request('POST', `/api/v1/namespaces/${NS}/secrets`, { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'anchor' } } });
  assert.equal(sec.status, 201, sec.text);
  const token = await tokenFor('secbound', { boundObjectRef: { apiVersion: 'v1', kind: 'Secret', name: 'anchor' } });
  assert.deepEqual(decode(token).claims['kubernetes.io'].secret, { name: 'anchor', uid: sec.json().metadata.uid });
  assert.equal((await whoami(token)).status, 201);
  assert.equal((await srv.request('DELETE', `/api/v1/namespaces/${NS}/secrets/anchor`)).status, 200);
  assertStatus(await whoami(token), 401, 'Unauthorized');

  const node = await srv.request('POST', '/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-b' } } });
  assert.equal(node.status, 201, node.text);
  const nodeToken = await tokenFor('secbound', { boundObjectRef: { apiVersion: 'v1', kind: 'Node', name: 'node-b' } });
  const who = await whoami(nodeToken);
  assert.equal(who.status, 201, who.text);
  assert.deepEqual(who.json().status.userInfo.extra['authentication.kubernetes.io/node-name'], ['node-b']);
  assert.equal((await srv.request('DELETE', '/api/v1/nodes/node-b')).status, 200);
  assertStatus(await whoami(nodeToken), 401, 'Unauthorized');
});

void test('deleting the service account revokes its tokens, and a re-created one (new uid) does not revive them', async () => {
  await createSa('shortlived');
  const token = await tokenFor('shortlived');
  assert.equal((await whoami(token)).status, 201);
  assert.equal((await srv.request('DELETE', `/api/v1/namespaces/${NS}/serviceaccounts/shortlived`)).status, 200);
  assertStatus(await whoami(token), 401, 'Unauthorized');
  await createSa('shortlived');
  assertStatus(await whoami(token), 401, 'Unauthorized');
});

void test('expired, not-yet-valid, wrong-audience, foreign-issuer, unsigned and forged tokens are 401 and write nothing', async () => {
  const sa = await createSa('target');
  const now = Math.floor(Date.now() / 1000);
  const base = {
    iss: ISSUER, sub: `system:serviceaccount:${NS}:target`, aud: [ISSUER], iat: now, nbf: now, exp: now + 3600, jti: randomUUID(),
    'kubernetes.io': { namespace: NS, serviceaccount: { name: 'target', uid: sa.metadata.uid } },
  };
  // The control: a token we sign ourselves with the server's key and kube's claims is accepted.
  assert.equal((await whoami(await forge(base))).status, 201);
  // A genuine token whose signature the tampering case reuses.
  await createSa('tamper-src');
  const genuine = await tokenFor('tamper-src');
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const pubAsSecret = readFileSync(path.join(srv.dataDir, 'sa.pub'));
  const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify(base)).toString('base64url')}.`;
  const hsKey = await importJWK({ kty: 'oct', k: pubAsSecret.toString('base64url') }, 'HS256');
  const cases: Record<string, string> = {
    expired: await forge({ ...base, iat: now - 7200, nbf: now - 7200, exp: now - 3600 }),
    'not yet valid': await forge({ ...base, nbf: now + 3600, exp: now + 7200 }),
    'issued in the future': await forge({ ...base, iat: now + 3600 }),
    'wrong audience': await forge({ ...base, aud: ['https://elsewhere.example'] }),
    'unknown issuer': await forge({ ...base, iss: 'https://evil.example' }),
    'alg none': unsigned,
    'HS256 keyed with the public key': await new CompactSign(new TextEncoder().encode(JSON.stringify(base))).setProtectedHeader({ alg: 'HS256' }).sign(hsKey),
    'another key': await forge(base, { key: other }),
    'wrong service account uid': await forge({ ...base, 'kubernetes.io': { namespace: NS, serviceaccount: { name: 'target', uid: randomUUID() } } }),
    'tampered payload': (() => {
      const [h, , s] = genuine.split('.');
      return `${h}.${Buffer.from(JSON.stringify({ ...base, sub: `system:serviceaccount:${NS}:admin` })).toString('base64url')}.${s}`;
    })(),
  };
  for (const [name, token] of Object.entries(cases)) {
    const r = await srv.request('POST', `/api/v1/namespaces/${NS}/configmaps`, { user: { token }, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `forged-${name.replace(/[^a-z0-9]+/g, '-')}` } } });
    assertStatus(r, 401, 'Unauthorized', 'Unauthorized');
  }
  const list = await srv.request('GET', `/api/v1/namespaces/${NS}/configmaps`);
  assert.deepEqual(list.json().items.map((c: any) => c.metadata.name).filter((n: string) => n.startsWith('forged-')), []);
});
void test('issuer discovery: openid-configuration and JWKS as kube serves them; the JWKS verifies issued tokens', async () => {
  const cfg = await srv.request('GET', '/.well-known/openid-configuration');
  assert.equal(cfg.status, 200, cfg.text);
  assert.equal(cfg.headers['content-type'], 'application/json');
  assert.equal(cfg.headers['cache-control'], 'public, max-age=3600');
  assert.deepEqual(cfg.json(), {
    issuer: ISSUER,
    jwks_uri: `https://127.0.0.1:${srv.port}/openid/v1/jwks`,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
  });
  const jwks = await srv.request('GET', '/openid/v1/jwks');
  assert.equal(jwks.status, 200, jwks.text);
  assert.equal(jwks.headers['content-type'], 'application/jwk-set+json');
  assert.equal(jwks.headers['cache-control'], 'public, max-age=3600');
  const { keys } = jwks.json();
  assert.equal(keys.length, 1);
  assert.deepEqual(Object.keys(keys[0]), ['use', 'kty', 'kid', 'alg', 'n', 'e']);
  assert.equal(keys[0].use, 'sig');
  await createSa('verifiable');
  const token = await tokenFor('verifiable');
  assert.equal(decode(token).header.kid, keys[0].kid);
  const r = await compactVerify(token, await importJWK(keys[0], 'RS256'));
  assert.equal(JSON.parse(new TextDecoder().decode(r.payload)).sub, `system:serviceaccount:${NS}:verifiable`);
});

void test('--service-account-max-token-expiration shortens requests with a warning; custom audiences are kept', async () => {
  const capped = await startTestServer({ authorizationMode: ['AlwaysAllow'], serviceAccounts: { maxTokenExpirationMs: 2 * 3600_000 } });
  try {
    const r = await capped.request('POST', '/api/v1/namespaces/default/serviceaccounts/default/token', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 36000, audiences: ['vault'] } },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json().spec.expirationSeconds, 7200);
    assert.deepEqual(r.json().spec.audiences, ['vault']);
    assert.match(String(r.headers['warning']), /requested expiration of 36000 seconds shortened to 7200 seconds/);
    const { claims } = decode(r.json().status.token);
    assert.equal(claims.exp - claims.iat, 7200);
    // An audience the API server is not: the token does not authenticate here.
    const who = await capped.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { user: { token: r.json().status.token }, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
    assertStatus(who, 401, 'Unauthorized');
  } finally {
    await capped.stop();
  }
});

void test('kubelet\'s 3607 s pod-bound request for API audiences gets a one-year token with warnafter; others do not', async () => {
  await createSa('kubelet-sa');
  await createPod('kubelet-pod', 'kubelet-sa');
  const bound = { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'kubelet-pod' } };
  const r = await requestToken('kubelet-sa', { expirationSeconds: 3607, ...bound });
  assert.equal(r.status, 201, r.text);
  const { claims } = decode(r.json().status.token);
  assert.equal(claims.exp - claims.iat, 365 * 24 * 3600);
  assert.equal(claims['kubernetes.io'].warnafter, claims.iat + 3607);
  // The answer reports what was asked for.
  assert.equal(r.json().spec.expirationSeconds, 3607);
  assert.ok(Math.abs(Date.parse(r.json().status.expirationTimestamp) / 1000 - (claims.iat + 3607)) <= 1);
  const other = decode(await tokenFor('kubelet-sa', { expirationSeconds: 3607, audiences: ['vault'], ...bound })).claims;
  assert.equal(other.exp - other.iat, 3607);
  assert.equal(other['kubernetes.io'].warnafter, undefined);
  const unbound = decode(await tokenFor('kubelet-sa', { expirationSeconds: 3607 })).claims;
  assert.equal(unbound.exp - unbound.iat, 3607);
});

void test('issuer and key rotation: the first issuer signs, every issuer and every --service-account-key-file key verifies', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-sa-rotation-'));
  const old = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const oldPub = path.join(dir, 'old.pub');
  writeFileSync(oldPub, old.publicKey.export({ type: 'spki', format: 'pem' }) as string);
  const rot = await startTestServer({ authorizationMode: ['AlwaysAllow'], serviceAccounts: { issuers: ['https://new.example', 'https://old.example'], keyFiles: [oldPub] } });
  try {
    const sa = (await rot.request('POST', '/api/v1/namespaces/default/serviceaccounts', { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'rotor' } } })).json();
    const r = await rot.request('POST', '/api/v1/namespaces/default/serviceaccounts/rotor/token', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} } });
    assert.equal(r.status, 201, r.text);
    const { claims } = decode(r.json().status.token);
    assert.equal(claims.iss, 'https://new.example');
    // --api-audiences defaults to every issuer.
    assert.deepEqual(claims.aud, ['https://new.example', 'https://old.example']);
    const now = Math.floor(Date.now() / 1000);
    const legacyIssued = await forge({
      iss: 'https://old.example', sub: 'system:serviceaccount:default:rotor', aud: ['https://old.example'], iat: now, nbf: now, exp: now + 600,
      'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'rotor', uid: sa.metadata.uid } },
    }, { key: old.privateKey });
    const who = await rot.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { user: { token: legacyIssued }, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
    assert.equal(who.status, 201, who.text);
    assert.equal(who.json().status.userInfo.username, 'system:serviceaccount:default:rotor');
    const jwks = (await rot.request('GET', '/openid/v1/jwks')).json();
    assert.equal(jwks.keys.length, 2);
    assert.equal((await rot.request('GET', '/.well-known/openid-configuration')).json().issuer, 'https://new.example');
  } finally {
    await rot.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('TokenReview with spec.audiences checks a bound token against them and answers the audiences granted', async () => {
  await createSa('external');
  const token = await tokenFor('external', { audiences: ['vault', 'other'] });
  const review = (audiences?: string[]) => srv.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, ...(audiences ? { audiences } : {}) } },
  });
  const vault = (await review(['vault'])).json().status;
  assert.equal(vault.authenticated, true, JSON.stringify(vault));
  assert.equal(vault.user.username, `system:serviceaccount:${NS}:external`);
  assert.deepEqual(vault.audiences, ['vault']);
  // Not meant for the API: refused for the API's own audiences and for unrelated ones, and as a request credential.
  assert.equal((await review()).json().status.authenticated, undefined);
  assert.equal((await review(['elsewhere'])).json().status.authenticated, undefined);
  assert.equal((await srv.request('GET', '/api', { user: { token } })).status, 401);
  // A token for the API is not valid for other audiences.
  const apiToken = await tokenFor('external');
  const r = await srv.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: apiToken, audiences: ['vault'] } },
  });
  assert.equal(r.json().status.authenticated, undefined);
});
