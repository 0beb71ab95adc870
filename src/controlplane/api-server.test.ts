import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { h2request } from '../server/testing/h2-client.ts';
import https from 'node:https';
import type { ServerResponse } from 'node:http';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApiServer, type ApiServer } from './api-server.ts';
import { resolveOptions, type ServerOptions } from './options.ts';
import { ensurePki, type Pki } from './pki.ts';
import { createCa, issue } from './certs.ts';
import { readBody } from '../server/body.ts';
import type { Endpoint } from '../request/context.ts';
import { respondJson } from '../endpoints/respond.ts';
import { commonHeaders } from '../request/respond.ts';
import { readKubeJson } from '../../test/support/kube-reference.ts';

const REF = (f: string): unknown => readKubeJson('responses/errors', f);

interface Resp { status: number; headers: Record<string, string | string[] | undefined>; body: string }
interface Cred { cert?: string; key?: string; token?: string }

let pki: Pki;
let dir: string;
let tokenFile: string;
const servers: ApiServer[] = [];
let release: (() => void) | undefined;

before(async () => {
  pki = await ensurePki({ bindAddress: '127.0.0.1' });
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-srv-'));
  tokenFile = path.join(dir, 'tokens.csv');
  writeFileSync(tokenFile, 'alice-token,alice,uid-a,"devs"\nroot-token,root,uid-r,system:masters\n');
});
after(async () => {
  (release as (() => void) | undefined)?.();
  for (const s of servers) await s.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

/** Fake API endpoints: echo who/what for resource requests, plus a few misbehaving paths. */
const fakeApi: Endpoint = async (ctx) => {
  if (ctx.info.path === '/boom') throw new Error('kaboom');
  if (ctx.info.path === '/echo-body') {
    const b = await readBody(ctx.req);
    respondJson(ctx, 200, { size: b.length });
    return true;
  }
  if (ctx.info.path === '/slow') {
    await new Promise<void>((resolve) => { release = resolve; ctx.signal.addEventListener('abort', () => resolve()); });
    respondJson(ctx, 200, { aborted: ctx.signal.aborted });
    return true;
  }
  if (!ctx.info.isResourceRequest) return false;
  if (ctx.info.verb === 'watch') {
    // As the real watch writer does: the request's common headers (Audit-Id) in its one writeHead.
    ctx.res.writeHead(200, commonHeaders(ctx, { 'Content-Type': 'application/json' }));
    (ctx.res as ServerResponse).write('{"type":"ADDED"}\n');
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
    ctx.res.end();
    return true;
  }
  respondJson(ctx, 200, { info: ctx.info, user: ctx.user });
  return true;
};

async function start(o: ServerOptions = {}, started = true): Promise<ApiServer> {
  const s = await createApiServer({
    options: resolveOptions({ tokenAuthFile: tokenFile, authorizationMode: ['AlwaysAllow'], ...o }),
    pki,
    endpoints: [fakeApi],
    pingStore: async () => {},
  });
  if (started) s.markStarted();
  servers.push(s);
  return s;
}

function h2get(s: ApiServer, p: string, cred: Cred = { cert: pki.adminCertPem, key: pki.adminKeyPem }, extra: Record<string, string> = {}): Promise<Resp> {
  return h2request(s.url, p, { ca: pki.caPem, ...cred }, extra);
}

function h1(s: ApiServer, method: string, p: string, cred: Cred = { cert: pki.adminCertPem, key: pki.adminKeyPem }, body?: Buffer, headers: Record<string, string> = {}): Promise<Resp> {
  return new Promise((resolve, reject) => {
    const h: Record<string, string> = { ...headers };
    if (cred.token) h.authorization = `Bearer ${cred.token}`;
    const req = https.request(`${s.url}${p}`, { method, ca: pki.caPem, cert: cred.cert, key: cred.key, headers: h, agent: false }, (res) => {
      let b = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { b += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: b }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

void test('HTTP/2 and HTTP/1.1 on one port; the admin certificate is kubernetes-admin in system:masters', async () => {
  const s = await start();
  const a = await h2get(s, '/api/v1/namespaces/default/pods/p1');
  assert.equal(a.status, 200);
  const j = JSON.parse(a.body);
  assert.equal(j.user.username, 'kubernetes-admin');
  assert.deepEqual(j.user.groups, ['system:masters', 'system:authenticated']);
  assert.equal(j.info.verb, 'get');
  assert.match(String(a.headers['audit-id']), /^[0-9a-f-]{36}$/);
  const b = await h1(s, 'GET', '/version');
  assert.equal(b.status, 200);
  assert.equal(JSON.parse(b.body).gitVersion, 'v1.33.0');
  const given = await h2get(s, '/version', undefined, { 'audit-id': 'my-id' });
  assert.equal(given.headers['audit-id'], 'my-id');
});

void test('no credentials with AlwaysAllow: 401 Unauthorized (kube turns anonymous off)', async () => {
  const s = await start();
  const r = await h1(s, 'GET', '/api/v1/namespaces', {});
  assert.equal(r.status, 401);
  assert.deepEqual(JSON.parse(r.body), REF('401-bad-token.json'));
});

void test('bearer tokens: file token authenticates, wrong token is 401 even with anonymous on', async () => {
  const s = await start({ anonymousAuth: true, authorizationMode: ['AlwaysDeny'] });
  const bad = await h2get(s, '/api/v1/namespaces', { token: 'nope' });
  assert.equal(bad.status, 401);
  assert.deepEqual(JSON.parse(bad.body), REF('401-bad-token.json'));
  const anon = await h2get(s, '/api/v1/namespaces/ref/configmaps', {});
  assert.equal(anon.status, 403);
  // The reference came from RBAC (no reason); AlwaysDeny appends kube's reason.
  const want = REF('403-anonymous.json') as { message: string };
  assert.deepEqual(JSON.parse(anon.body), { ...want, message: `${want.message}: Everything is forbidden.` });
  const alice = await h2get(s, '/api/v1/nodes', { token: 'alice-token' });
  assert.equal(alice.status, 403);
  assert.equal(JSON.parse(alice.body).message, 'nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope: Everything is forbidden.');
  const path403 = await h2get(s, '/foo', { token: 'alice-token' });
  assert.equal(JSON.parse(path403.body).message, 'forbidden: User "alice" cannot get path "/foo": Everything is forbidden.');
  // impersonation: refused for alice, allowed for a system:masters member (then bob himself is denied)
  const imp = await h2get(s, '/api/v1/nodes', { token: 'alice-token' }, { 'impersonate-user': 'bob' });
  assert.equal(JSON.parse(imp.body).message, 'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope: Everything is forbidden.');
  const asBob = await h2get(s, '/api/v1/nodes', { token: 'root-token' }, { 'impersonate-user': 'bob' });
  assert.equal(JSON.parse(asBob.body).message, 'nodes is forbidden: User "bob" cannot list resource "nodes" in API group "" at the cluster scope: Everything is forbidden.');
  const root = await h2get(s, '/api/v1/nodes', { token: 'root-token' });
  assert.equal(root.status, 200);
  assert.deepEqual(JSON.parse(root.body).user, { username: 'root', uid: 'uid-r', groups: ['system:masters', 'system:authenticated'] });
});

void test('client certificates: foreign CA → 401; --client-ca-file CA → its CN/O', async () => {
  const other = await createCa('other');
  const caFile = path.join(dir, 'client-ca.crt');
  writeFileSync(caFile, other.certPem);
  const c = await issue({ subject: { cn: 'bob', o: ['team-a', 'team-b'] }, issuer: other, usage: 'client' });
  const s1 = await start();
  assert.equal((await h2get(s1, '/api/v1/pods', { cert: c.certPem, key: c.keyPem })).status, 401);
  const pki2 = await ensurePki({ bindAddress: '127.0.0.1', clientCaFile: caFile });
  const s2 = await createApiServer({ options: resolveOptions({ authorizationMode: ['AlwaysAllow'] }), pki: pki2, endpoints: [fakeApi], pingStore: async () => {} });
  servers.push(s2);
  const r = await h1(s2, 'GET', '/api/v1/pods', { cert: c.certPem, key: c.keyPem });
  assert.equal(r.status, 200);
  assert.deepEqual(JSON.parse(r.body).user, { username: 'bob', groups: ['team-a', 'team-b', 'system:authenticated'] });
  // our admin cert still works with extra CAs
  assert.equal((await h1(s2, 'GET', '/api/v1/pods')).status, 200);
});

void test('unknown non-resource path: kube\'s plain 404', async () => {
  const s = await start();
  const r = await h2get(s, '/nope/x');
  assert.equal(r.status, 404);
  assert.equal(r.body, '404 page not found\n');
  assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
});

void test('a throwing handler becomes a 500 Status and the HTTP/2 connection keeps serving', async () => {
  const s = await start();
  const session = http2.connect(s.url, { ca: pki.caPem, cert: pki.adminCertPem, key: pki.adminKeyPem });
  try {
    const get = (p: string) => new Promise<Resp>((resolve, reject) => {
      const r = session.request({ ':path': p });
      let body = '';
      let st = 0;
      r.on('response', (h) => { st = Number(h[':status']); });
      r.setEncoding('utf8');
      r.on('data', (c: string) => { body += c; });
      r.on('end', () => resolve({ status: st, headers: {}, body }));
      r.on('error', reject);
      r.end();
    });
    const boom = await get('/boom');
    assert.equal(boom.status, 500);
    assert.deepEqual(JSON.parse(boom.body), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Internal error occurred: kaboom', reason: 'InternalError', details: { causes: [{ message: 'kaboom' }] }, code: 500 });
    assert.equal((await get('/version')).status, 200);
  } finally {
    session.close();
  }
});

void test('request bodies over 3 MiB: 413 by Content-Length, and when streamed', async () => {
  const s = await start();
  const big = Buffer.alloc(3 * 1024 * 1024 + 1, 0x61);
  const r = await h1(s, 'POST', '/echo-body', undefined, big);
  assert.equal(r.status, 413);
  assert.deepEqual(JSON.parse(r.body), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Request entity too large: limit is 3145728', reason: 'RequestEntityTooLarge', code: 413 });
  const ok = await h1(s, 'POST', '/echo-body', undefined, Buffer.from('{}'));
  assert.deepEqual(JSON.parse(ok.body), { size: 2 });
  // HTTP/2 without a content-length: the body reader stops at the limit
  const session = http2.connect(s.url, { ca: pki.caPem, cert: pki.adminCertPem, key: pki.adminKeyPem });
  try {
    const st = await new Promise<number>((resolve, reject) => {
      const req = session.request({ ':path': '/echo-body', ':method': 'POST' });
      req.on('response', (h) => resolve(Number(h[':status'])));
      req.on('error', reject);
      req.write(big.subarray(0, 2 * 1024 * 1024));
      req.write(big.subarray(2 * 1024 * 1024));
      req.end();
    });
    assert.equal(st, 413);
  } finally {
    session.destroy();
  }
});

void test('max-in-flight: over the bound → 429 with Retry-After; masters and watches are not counted', async () => {
  const s = await start({ maxRequestsInflight: 1 });
  const slow = h2get(s, '/slow', { token: 'alice-token' });
  while (s.listener.inFlight() < 1) await new Promise((r) => setImmediate(r));
  const second = await h2get(s, '/version', { token: 'alice-token' });
  assert.equal(second.status, 429);
  assert.equal(second.headers['retry-after'], '1');
  assert.deepEqual(JSON.parse(second.body), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Too many requests, please try again later.', reason: 'TooManyRequests', details: { retryAfterSeconds: 1 }, code: 429 });
  assert.equal((await h2get(s, '/version')).status, 200);
  release!();
  assert.equal((await slow).status, 200);
  assert.equal((await h2get(s, '/version', { token: 'alice-token' })).status, 200);
});

void test('readiness follows post-start hooks; shutdown fails readyz, ends watches and closes the port', async () => {
  const s = await start({ shutdownDelayMs: 200 }, false);
  assert.equal((await h2get(s, '/readyz')).status, 500);
  s.markStarted();
  assert.equal((await h2get(s, '/readyz')).body, 'ok');
  // a watch that only ends when the server says so
  const session = http2.connect(s.url, { ca: pki.caPem, cert: pki.adminCertPem, key: pki.adminKeyPem });
  session.on('error', () => {});
  const watchEnded = new Promise<string>((resolve) => {
    const r = session.request({ ':path': '/api/v1/configmaps?watch=1' });
    let body = '';
    r.setEncoding('utf8');
    r.on('data', (c: string) => { body += c; });
    r.on('end', () => resolve(body));
    r.on('error', () => resolve(body));
    r.on('close', () => resolve(body));
  });
  while (s.listener.inFlight() < 1) await new Promise((r) => setImmediate(r));
  const done = s.shutdown();
  assert.equal(s.isShuttingDown(), true);
  const during = await h1(s, 'GET', '/readyz?verbose');
  assert.equal(during.status, 500);
  assert.match(during.body, /\[-\]shutdown failed: reason withheld/);
  await done;
  assert.equal(await watchEnded, '{"type":"ADDED"}\n');
  session.destroy();
  await assert.rejects(h1(s, 'GET', '/readyz'));
});

void test('a client that goes away aborts its request\'s signal (the watch handler returns)', async () => {
  const s = await start();
  const session = http2.connect(s.url, { ca: pki.caPem, cert: pki.adminCertPem, key: pki.adminKeyPem });
  session.on('error', () => {});
  try {
    const r = session.request({ ':path': '/api/v1/configmaps?watch=1' });
    r.on('error', () => {});
    const h = await new Promise<http2.IncomingHttpHeaders>((resolve) => r.once('response', (hh) => resolve(hh)));
    assert.match(await s.metrics.render(), /apiserver_longrunning_requests\{component="apiserver",group="",resource="configmaps",scope="cluster",subresource="",verb="WATCH",version="v1"\} 1/);
    assert.match(String(h['audit-id']), /^[0-9a-f-]{36}$/, 'streamed responses carry the audit id too');
    assert.equal(s.listener.inFlight(), 1);
    r.close(http2.constants.NGHTTP2_CANCEL);
    while (s.listener.inFlight() > 0) await new Promise((res) => setImmediate(res));
    assert.match(await s.metrics.render(), /apiserver_longrunning_requests\{[^}]*verb="WATCH"[^}]*\} 0/);
  } finally {
    session.destroy();
  }
});

void test('request timeout: 504 for a stuck request, its signal aborted; ?timeout shortens; bad ?timeout is 400', async () => {
  const s = await start({ requestTimeoutMs: 60_000 });
  const r = await h2get(s, '/slow?timeout=50ms');
  assert.equal(r.status, 504);
  assert.deepEqual(JSON.parse(r.body), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Timeout: request did not complete within the allotted timeout', reason: 'Timeout', details: {}, code: 504 });
  while (s.listener.inFlight() > 0) await new Promise((res) => setImmediate(res));
  const bad = await h2get(s, '/version?timeout=soon');
  assert.equal(bad.status, 400);
  assert.equal(JSON.parse(bad.body).message, 'invalid timeout specified in the request URL - time: invalid duration "soon"');
  assert.equal((await h2get(s, '/version?timeout=30s')).status, 200);
});

void test('metrics count requests by kube labels', async () => {
  const s = await start();
  await h2get(s, '/api/v1/namespaces/default/pods/p1');
  await h2get(s, '/version');
  await h2get(s, '/healthz');
  const m = await h2get(s, '/metrics');
  assert.match(m.body, /apiserver_request_total\{code="200",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="",verb="GET",version="v1"\} 1/);
  // kube instruments the health roots with an empty component and the path as sub-resource; /version not at all.
  assert.match(m.body, /apiserver_request_total\{code="200",component="",dry_run="",group="",resource="",scope="",subresource="\/healthz",verb="GET",version=""\} 1/);
  assert.doesNotMatch(m.body, /subresource="\/version"/);
});
