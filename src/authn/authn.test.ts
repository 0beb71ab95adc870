import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCa, issue } from '../controlplane/certs.ts';
import { authenticateChain, verifyClientChain } from './x509.ts';
import { parseCsv, parseTokenFile, staticTokenAuthenticator, TokenFileError, loadTokenFile } from './token-file.ts';
import { bearerTokenAuthenticator } from './bearer.ts';
import { anonymousAuthenticator, unionAuthenticator, withAnonymousFallback, withAuthenticatedGroup, addAuthenticatedGroup } from './union.ts';
import { buildAuthenticator } from './index.ts';
import type { AuthRequest, Authenticator } from '../request/authenticator.ts';
import { readKubeJson } from '../../test/support/kube-reference.ts';

const req = (headers: Record<string, string> = {}): AuthRequest => ({ header: (n) => headers[n.toLowerCase()], path: '/' });
const x = (pem: string): X509Certificate => new X509Certificate(pem);

void test('x509: CN is the user, each O a group; only chains to a trusted CA pass', async () => {
  const ca = await createCa('test-ca');
  const other = await createCa('other-ca');
  const good = await issue({ subject: { cn: 'jane', o: ['dev', 'ops'] }, issuer: ca, usage: 'client' });
  const r = authenticateChain([x(good.certPem)], [x(ca.certPem)]);
  assert.deepEqual(r, { kind: 'authenticated', method: 'x509', user: { username: 'jane', groups: ['dev', 'ops'] } });
  // signed by another CA
  const stranger = await issue({ subject: { cn: 'mallory' }, issuer: other, usage: 'client' });
  assert.deepEqual(authenticateChain([x(stranger.certPem)], [x(ca.certPem)]), { kind: 'error', message: 'x509: certificate signed by unknown authority' });
  // self-signed
  const self = await issue({ subject: { cn: 'self' }, usage: 'client' });
  assert.equal(authenticateChain([x(self.certPem)], [x(ca.certPem)]).kind, 'error');
  // trusting the other CA too (--client-ca-file) makes it pass
  assert.equal(authenticateChain([x(stranger.certPem)], [x(ca.certPem), x(other.certPem)]).kind, 'authenticated');
});

void test('x509: expired, not yet valid, server-only certificates are errors', async () => {
  const ca = await createCa('test-ca');
  const expired = await issue({ subject: { cn: 'old' }, issuer: ca, notBefore: new Date(Date.now() - 10 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) });
  assert.match(verifyClientChain([x(expired.certPem)], [x(ca.certPem)])!, /expired or is not yet valid/);
  const future = await issue({ subject: { cn: 'new' }, issuer: ca, notBefore: new Date(Date.now() + 86_400_000), notAfter: new Date(Date.now() + 10 * 86_400_000) });
  assert.match(verifyClientChain([x(future.certPem)], [x(ca.certPem)])!, /expired or is not yet valid/);
  const server = await issue({ subject: { cn: 'srv' }, issuer: ca, usage: 'server' });
  assert.equal(verifyClientChain([x(server.certPem)], [x(ca.certPem)]), 'x509: certificate specifies an incompatible key usage');
});

void test('x509: intermediates sent by the client lead to the root', async () => {
  const root = await createCa('root');
  const mid = await issue({ subject: { cn: 'intermediate' }, issuer: root, isCa: true });
  const leaf = await issue({ subject: { cn: 'deep', o: ['g'] }, issuer: mid, usage: 'client' });
  assert.equal(authenticateChain([x(leaf.certPem), x(mid.certPem)], [x(root.certPem)]).kind, 'authenticated');
  assert.equal(authenticateChain([x(leaf.certPem)], [x(root.certPem)]).kind, 'error');
});

void test('x509: empty CN is no opinion', async () => {
  const ca = await createCa('test-ca');
  const c = await issue({ subject: { cn: '' }, issuer: ca });
  assert.equal(authenticateChain([x(c.certPem)], [x(ca.certPem)]).kind, 'no-opinion');
});

void test('token file: kube CSV format with quoted groups', () => {
  const text = 'tok1,alice,uid-1,"admins,devs"\n\n tok2, bob ,uid-2\n,empty,uid-3\ntok1,alice2,uid-4,"x"\n"tok""3",carol,uid-5,g1\r\n';
  const m = parseTokenFile(text);
  assert.deepEqual(m.get('tok1'), { username: 'alice2', uid: 'uid-4', groups: ['x'] });
  assert.deepEqual(m.get('tok2'), { username: 'bob ', uid: 'uid-2', groups: [] });
  assert.deepEqual(m.get('tok"3'), { username: 'carol', uid: 'uid-5', groups: ['g1'] });
  assert.equal(m.has(''), false);
  assert.throws(() => parseTokenFile('tok,user\n', 'f.csv'), (e: unknown) => e instanceof TokenFileError
    && e.message === "token file 'f.csv' must have at least 3 columns (token, user name, user uid), found 2");
  assert.throws(() => parseCsv('a,"b\n'), TokenFileError);
  assert.throws(() => parseCsv('a,b"c\n'), TokenFileError);
});

void test('token file: loaded from disk; unreadable file fails loudly', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-tok-'));
  try {
    const f = path.join(dir, 'tokens.csv');
    writeFileSync(f, 'secret,alice,1,"a,b"\n');
    const t = await loadTokenFile(f);
    assert.deepEqual(await t.authenticateToken('secret'), { username: 'alice', uid: '1', groups: ['a', 'b'] });
    await assert.rejects(loadTokenFile(path.join(dir, 'missing.csv')), TokenFileError);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('bearer: valid token authenticates, wrong token is an error, other schemes no opinion', async () => {
  const b = bearerTokenAuthenticator([staticTokenAuthenticator(new Map([['abc', { username: 'alice', uid: '1', groups: [] }]]))]);
  assert.equal((await b.authenticate(req({ authorization: 'Bearer abc' }))).kind, 'authenticated');
  assert.equal((await b.authenticate(req({ authorization: 'bearer abc' }))).kind, 'authenticated');
  assert.deepEqual(await b.authenticate(req({ authorization: 'Bearer nope' })), { kind: 'error', message: 'invalid bearer token' });
  assert.equal((await b.authenticate(req({ authorization: 'Basic abc' }))).kind, 'no-opinion');
  assert.equal((await b.authenticate(req({ authorization: 'Bearer ' }))).kind, 'no-opinion');
  assert.equal((await b.authenticate(req())).kind, 'no-opinion');
  // no token authenticators at all: a bearer token is still refused
  assert.equal((await bearerTokenAuthenticator([]).authenticate(req({ authorization: 'Bearer abc' }))).kind, 'error');
});

void test('union: first success wins over earlier errors; anonymous only without credentials', async () => {
  const fail: Authenticator = { name: 'f', authenticate: () => ({ kind: 'error', message: 'bad cert' }) };
  const none: Authenticator = { name: 'n', authenticate: () => ({ kind: 'no-opinion' }) };
  const ok: Authenticator = { name: 'o', authenticate: () => ({ kind: 'authenticated', method: 'o', user: { username: 'u', groups: ['g'] } }) };
  const u1 = withAuthenticatedGroup(unionAuthenticator([fail, ok]));
  assert.deepEqual(await u1.authenticate(req()), { kind: 'authenticated', method: 'o', user: { username: 'u', groups: ['g', 'system:authenticated'] } });
  const anon = withAnonymousFallback(unionAuthenticator([none]), anonymousAuthenticator());
  assert.deepEqual(await anon.authenticate(req()), { kind: 'authenticated', method: 'anonymous', user: { username: 'system:anonymous', groups: ['system:unauthenticated'] } });
  const failing = withAnonymousFallback(unionAuthenticator([none, fail]), anonymousAuthenticator());
  assert.deepEqual(await failing.authenticate(req()), { kind: 'error', message: 'bad cert' });
});

void test('union: synchronous members give a synchronous answer; an asynchronous one in between keeps order and errors', async () => {
  const fail: Authenticator = { name: 'f', authenticate: () => ({ kind: 'error', message: 'bad cert' }) };
  const slowNone: Authenticator = { name: 's', authenticate: () => Promise.resolve({ kind: 'no-opinion' }) };
  const slowFail: Authenticator = { name: 'sf', authenticate: () => Promise.resolve({ kind: 'error', message: 'webhook down' }) };
  const ok: Authenticator = { name: 'o', authenticate: () => ({ kind: 'authenticated', method: 'o', user: { username: 'u', groups: [] } }) };
  const sync = withAnonymousFallback(withAuthenticatedGroup(unionAuthenticator([fail, ok])), anonymousAuthenticator());
  const r = sync.authenticate(req());
  assert.ok(!(r instanceof Promise), 'no promise when every member answers synchronously');
  assert.deepEqual(r, { kind: 'authenticated', method: 'o', user: { username: 'u', groups: ['system:authenticated'] } });
  const mixed = unionAuthenticator([fail, slowNone, slowFail, ok]);
  const m = mixed.authenticate(req());
  assert.ok(m instanceof Promise);
  assert.equal((await m).kind, 'authenticated');
  assert.deepEqual(await unionAuthenticator([fail, slowNone, slowFail]).authenticate(req()), { kind: 'error', message: 'bad cert, webhook down' });
  const throwing: Authenticator = { name: 't', authenticate: () => { throw new Error('boom'); } };
  await assert.rejects(Promise.resolve().then(() => unionAuthenticator([throwing]).authenticate(req())), /boom/);
  // a bearer token that only an asynchronous token authenticator knows
  const tokens = bearerTokenAuthenticator([
    { name: 'file', authenticateToken: () => undefined },
    { name: 'remote', authenticateToken: async (t) => (t === 'abc' ? { username: 'r', groups: [] } : undefined) },
  ]);
  assert.deepEqual(await tokens.authenticate(req({ authorization: 'Bearer abc' })), { kind: 'authenticated', method: 'remote', user: { username: 'r', groups: [] } });
  assert.deepEqual(await tokens.authenticate(req({ authorization: 'Bearer zzz' })), { kind: 'error', message: 'invalid bearer token' });
});

void test('system:authenticated is added once and never to anonymous', () => {
  assert.deepEqual(addAuthenticatedGroup({ username: 'a', groups: ['system:authenticated'] }).groups, ['system:authenticated']);
  assert.deepEqual(addAuthenticatedGroup({ username: 'system:anonymous', groups: ['system:unauthenticated'] }).groups, ['system:unauthenticated']);
  assert.deepEqual(addAuthenticatedGroup({ username: 'b', groups: [] }).groups, ['system:authenticated']);
});

void test('buildAuthenticator: tokens from the file, anonymous as configured', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-tok-'));
  try {
    const f = path.join(dir, 'tokens.csv');
    writeFileSync(f, 'secret,alice,1,"a,b"\n');
    const ca = await createCa('ca');
    const a = await buildAuthenticator({ clientCaPems: [ca.certPem], tokenAuthFile: f, anonymous: true });
    assert.deepEqual(await a.authenticate(req({ authorization: 'Bearer secret' })),
      { kind: 'authenticated', method: 'token-file', user: { username: 'alice', uid: '1', groups: ['a', 'b', 'system:authenticated'] } });
    assert.equal((await a.authenticate(req({ authorization: 'Bearer wrong' }))).kind, 'error');
    assert.equal((await a.authenticate(req())).kind, 'authenticated');
    const closed = await buildAuthenticator({ clientCaPems: [ca.certPem], anonymous: false });
    assert.equal((await closed.authenticate(req())).kind, 'no-opinion');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('the 401 body clients see is the reference Unauthorized Status', async () => {
  const { errors } = await import('../machinery/errors.ts');
  const want = readKubeJson('responses/errors/401-bad-token.json');
  assert.deepEqual(errors.unauthorized().toStatus(), want);
});

void test('a token file entry authenticates as one frozen user shared by every request (no copy per request)', () => {
  const a = withAuthenticatedGroup(bearerTokenAuthenticator([staticTokenAuthenticator(parseTokenFile('abc,alice,1,"dev,ops"\n'))]));
  const r1 = a.authenticate(req({ authorization: 'Bearer abc' }));
  const r2 = a.authenticate(req({ authorization: 'Bearer abc' }));
  assert.ok(!(r1 instanceof Promise) && !(r2 instanceof Promise));
  assert.deepEqual(r1, { kind: 'authenticated', method: 'token-file', user: { username: 'alice', uid: '1', groups: ['dev', 'ops', 'system:authenticated'] } });
  assert.equal(r1, r2);
  assert.ok(r1.kind === 'authenticated' && Object.isFrozen(r1.user) && Object.isFrozen(r1.user.groups));
  assert.throws(() => { if (r1.kind === 'authenticated') r1.user.groups.push('x'); }, TypeError);
});
