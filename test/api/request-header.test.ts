/**
 * API: the authenticating proxy (`requestHeader` options). Only a client certificate signed by the
 * request-header CA (with an allowed CN) makes the X-Remote-* headers count; without it, with a certificate of
 * another CA, or with a normal client certificate, spoofed headers never yield the asserted user.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type Caller, type TestServer } from '../support/server.ts';
import { createCa, issue, type Issued } from '../../src/controlplane/certs.ts';

let dir = '';
let srv: TestServer;
let proxy: Issued;
let otherProxy: Issued;
let stranger: Issued;

const SPOOF = { 'X-Remote-User': 'alice', 'X-Remote-Group': 'dev', 'X-Remote-Uid': 'uid-7', 'X-Remote-Extra-Scopes': 'read' };

async function whoami(user: Caller, headers: Record<string, string>): Promise<{ status: number; user: any; text: string }> {
  const r = await srv.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
    user, headers, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
  });
  return { status: r.status, user: r.status === 201 ? r.json().status.userInfo : undefined, text: r.text };
}

// The authentication filter exposes every header line only once it passes rawHeaders on (see the report).

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-rh-api-'));
  const proxyCa = await createCa('front-proxy-ca');
  const strangerCa = await createCa('stranger-ca');
  proxy = await issue({ subject: { cn: 'front-proxy-client' }, issuer: proxyCa, usage: 'client' });
  otherProxy = await issue({ subject: { cn: 'not-allowed' }, issuer: proxyCa, usage: 'client' });
  stranger = await issue({ subject: { cn: 'front-proxy-client' }, issuer: strangerCa, usage: 'client' });
  const caFile = path.join(dir, 'front-proxy-ca.crt');
  writeFileSync(caFile, proxyCa.certPem);
  srv = await startTestServer({
    authorizationMode: ['AlwaysAllow'],
    requestHeader: {
      clientCaFile: caFile, usernameHeaders: ['X-Remote-User'], groupHeaders: ['X-Remote-Group'], extraHeaderPrefixes: ['X-Remote-Extra-'],
      uidHeaders: ['X-Remote-Uid'], allowedNames: ['front-proxy-client'],
    },
  });
});

after(async () => {
  await srv?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

void test('a proxy certificate from the request-header CA asserts the user in headers', async () => {
  const r = await whoami({ certPem: proxy.certPem, keyPem: proxy.keyPem }, SPOOF);
  assert.equal(r.status, 201, r.text);
  assert.equal(r.user.username, 'alice');
  assert.equal(r.user.uid, 'uid-7');
  assert.deepEqual(r.user.groups, ['dev', 'system:authenticated']);
  // a proxy certificate without a username header is no one (and is not a cluster client certificate)
  assert.equal((await whoami({ certPem: proxy.certPem, keyPem: proxy.keyPem }, {})).status, 401);
});

void test('extra headers become extra keys (prefix removed, lower-cased, percent-decoded)', async () => {
  const r = await whoami({ certPem: proxy.certPem, keyPem: proxy.keyPem }, { ...SPOOF, 'X-Remote-Extra-Acme.com%2FProject': 'p1' });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.user.extra, { scopes: ['read'], 'acme.com/project': ['p1'] });
});

void test('header spoofing: no certificate, a foreign CA, a disallowed CN or a normal client certificate never become alice', async () => {
  // no client certificate: headers ignored; no other credentials and anonymous is off → 401
  assert.equal((await whoami('anonymous', SPOOF)).status, 401);
  // same CN, wrong CA
  assert.equal((await whoami({ certPem: stranger.certPem, keyPem: stranger.keyPem }, SPOOF)).status, 401);
  // right CA, CN not in the allowed names
  assert.equal((await whoami({ certPem: otherProxy.certPem, keyPem: otherProxy.keyPem }, SPOOF)).status, 401);
  // a cluster client certificate authenticates as itself, the headers do not matter
  const admin = await whoami('admin', SPOOF);
  assert.equal(admin.status, 201);
  assert.notEqual(admin.user.username, 'alice');
  // a token with spoofed headers is not alice either
  assert.equal((await whoami({ token: 'made-up' }, SPOOF)).status, 401);
});
