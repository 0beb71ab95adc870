import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { createCa, issue } from '../controlplane/certs.ts';
import { OptionsError } from '../machinery/errors.ts';
import { resolveOptions } from '../controlplane/options.ts';
import type { AuthRequest } from '../request/authenticator.ts';
import type { AuthenticationDeps } from './deps.ts';
import { requestHeaderAuthentication, requestHeaderAuthenticator, requestHeaderCaPems, userFromHeaders } from './request-header.ts';

const HEADERS = { usernameHeaders: ['X-Remote-User', 'X-Other-User'], groupHeaders: ['X-Remote-Group'], extraHeaderPrefixes: ['X-Remote-Extra-'], uidHeaders: ['X-Remote-Uid'], allowedNames: [] };

/** A request with raw header lines and, optionally, a TLS peer chain. */
function req(lines: [string, string][], certPem?: string): AuthRequest & { rawHeaders: string[] } {
  const rawHeaders = lines.flat();
  const socket = certPem ? {
    getPeerCertificate: () => {
      const raw = new X509Certificate(certPem).raw;
      return { raw, fingerprint256: 'fp', issuerCertificate: undefined };
    },
  } as unknown as TLSSocket : undefined;
  return {
    header: (n) => lines.find(([k]) => k.toLowerCase() === n.toLowerCase())?.[1],
    rawHeaders,
    tlsSocket: socket,
    path: '/',
  };
}

void test('headers → user: first non-empty username header, every group line, uid, extra keys decoded', () => {
  const u = userFromHeaders(req([
    ['X-Remote-User', ''], ['x-other-user', 'jane'], ['X-Remote-Group', 'dev'], ['X-Remote-Group', 'ops, qa'], ['X-Remote-Group', ''],
    ['X-Remote-Uid', 'u-1'], ['X-Remote-Extra-Scopes', 'read'], ['x-remote-extra-scopes', 'write'], ['X-Remote-Extra-Acme.com%2Fproject', 'p1'],
    ['X-Remote-Extra-Bad%zz', 'v'],
  ]), HEADERS);
  assert.deepEqual(u, {
    username: 'jane', uid: 'u-1', groups: ['dev', 'ops, qa'],
    extra: { scopes: ['read', 'write'], 'acme.com/project': ['p1'], 'bad%zz': ['v'] },
  });
  assert.equal(userFromHeaders(req([['X-Remote-Group', 'dev']]), HEADERS), undefined);
  // without raw header lines: the first value of each header, no extra
  const plain: AuthRequest = { header: (n) => (n.toLowerCase() === 'x-remote-user' ? 'bob' : undefined), path: '/' };
  assert.deepEqual(userFromHeaders(plain, HEADERS), { username: 'bob', groups: [] });
});

void test('only a certificate from the request-header CA (and an allowed CN) lets headers speak', async () => {
  const proxyCa = await createCa('proxy-ca');
  const clientCa = await createCa('client-ca');
  const proxy = await issue({ subject: { cn: 'front-proxy' }, issuer: proxyCa, usage: 'client' });
  const otherName = await issue({ subject: { cn: 'sneaky' }, issuer: proxyCa, usage: 'client' });
  const user = await issue({ subject: { cn: 'mallory' }, issuer: clientCa, usage: 'client' });
  const roots = [new X509Certificate(proxyCa.certPem)];
  const lines: [string, string][] = [['X-Remote-User', 'admin'], ['X-Remote-Group', 'system:masters']];
  const open = requestHeaderAuthenticator({ ...HEADERS, roots });
  assert.deepEqual(await open.authenticate(req(lines, proxy.certPem)),
    { kind: 'authenticated', method: 'request-header', user: { username: 'admin', groups: ['system:masters'] } });
  // no certificate: the headers are ignored
  assert.deepEqual(await open.authenticate(req(lines)), { kind: 'no-opinion' });
  // a certificate from another CA: error (a later method may still authenticate it as itself)
  const foreign = await open.authenticate(req(lines, user.certPem));
  assert.equal(foreign.kind, 'error');
  // a proxy certificate without a username header: no opinion
  assert.deepEqual(await open.authenticate(req([], proxy.certPem)), { kind: 'no-opinion' });
  const named = requestHeaderAuthenticator({ ...HEADERS, roots, allowedNames: ['front-proxy'] });
  assert.equal((await named.authenticate(req(lines, proxy.certPem))).kind, 'authenticated');
  assert.deepEqual(await named.authenticate(req(lines, otherName.certPem)), { kind: 'error', message: 'x509: subject with cn=sneaky is not in the allowed list' });
});

void test('requestHeaderAuthentication: kube\'s option checks', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-rh-'));
  try {
    const ca = await createCa('proxy-ca');
    const caFile = path.join(dir, 'ca.crt');
    writeFileSync(caFile, ca.certPem);
    const junk = path.join(dir, 'junk.crt');
    writeFileSync(junk, 'nothing here');
    const deps = (o: Parameters<typeof resolveOptions>[0]): AuthenticationDeps => ({ options: resolveOptions(o), log: () => {} } as unknown as AuthenticationDeps);
    const rh = { clientCaFile: caFile, usernameHeaders: ['X-Remote-User'], groupHeaders: [], extraHeaderPrefixes: [], uidHeaders: [], allowedNames: [] };
    const part = await requestHeaderAuthentication(deps({ requestHeader: rh }));
    assert.equal(part.requestAuthenticators?.length, 1);
    await part.stop?.();
    // without a CA file the proxy is off, as kube
    assert.deepEqual(await requestHeaderAuthentication(deps({ requestHeader: { ...rh, clientCaFile: '' } })), {});
    await assert.rejects(requestHeaderAuthentication(deps({ requestHeader: { ...rh, groupHeaders: [' '] } })),
      (e: unknown) => e instanceof OptionsError && e.message === 'empty value in "requestheader-group-headers"');
    await assert.rejects(requestHeaderAuthentication(deps({ requestHeader: { ...rh, clientCaFile: junk } })), /data does not contain any valid RSA or ECDSA certificates/);
    await assert.rejects(requestHeaderAuthentication(deps({ requestHeader: rh, clientCaFile: caFile })),
      /--requestheader-client-ca-file and --client-ca-file contain overlapping certificates; --requestheader-allowed-names must be specified/);
    const named = await requestHeaderAuthentication(deps({ requestHeader: { ...rh, allowedNames: ['p'] }, clientCaFile: caFile }));
    assert.equal(named.requestAuthenticators?.length, 1);
    await named.stop?.();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('requestHeaderCaPems: the bundle as PEM for the listener, nothing without the option', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-rh-'));
  try {
    const ca = await createCa('proxy-ca');
    const f = path.join(dir, 'ca.crt');
    writeFileSync(f, `${ca.certPem}junk\n${ca.certPem}`);
    const pems = await requestHeaderCaPems({ requestHeader: { clientCaFile: f } });
    assert.equal(pems.length, 2);
    assert.equal(new X509Certificate(pems[0]!).fingerprint256, new X509Certificate(ca.certPem).fingerprint256);
    assert.deepEqual(await requestHeaderCaPems({}), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('the request-header CA file is reloaded when it changes; a broken file keeps the last bundle', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-rh-'));
  const logs: string[] = [];
  try {
    const oldCa = await createCa('old-proxy-ca');
    const newCa = await createCa('new-proxy-ca');
    const oldProxy = await issue({ subject: { cn: 'p' }, issuer: oldCa, usage: 'client' });
    const newProxy = await issue({ subject: { cn: 'p' }, issuer: newCa, usage: 'client' });
    const caFile = path.join(dir, 'ca.crt');
    writeFileSync(caFile, oldCa.certPem);
    const deps = { options: resolveOptions({ requestHeader: { ...HEADERS, clientCaFile: caFile } }), log: (l: string) => logs.push(l) } as unknown as AuthenticationDeps;
    const part = await requestHeaderAuthentication(deps);
    const a = part.requestAuthenticators![0]!;
    const lines: [string, string][] = [['X-Remote-User', 'alice']];
    try {
      assert.equal((await a.authenticate(req(lines, oldProxy.certPem))).kind, 'authenticated');
      assert.equal((await a.authenticate(req(lines, newProxy.certPem))).kind, 'error');
      writeFileSync(caFile, newCa.certPem);
      for (let i = 0; i < 400 && !logs.some((l) => l.startsWith('loaded a new request-header client CA bundle')); i++) await new Promise((r) => setTimeout(r, 25));
      assert.equal((await a.authenticate(req(lines, newProxy.certPem))).kind, 'authenticated');
      assert.equal((await a.authenticate(req(lines, oldProxy.certPem))).kind, 'error');
      writeFileSync(caFile, 'garbage');
      for (let i = 0; i < 400 && !logs.some((l) => l.includes('keeping the previous request-header CA bundle')); i++) await new Promise((r) => setTimeout(r, 25));
      assert.equal((await a.authenticate(req(lines, newProxy.certPem))).kind, 'authenticated');
    } finally {
      await part.stop?.();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
