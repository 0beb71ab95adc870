import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHealthEndpoint } from './index.ts';
import { PostStartHooks, standardChecks, type HealthCheck } from './checks.ts';
import type { RequestContext } from '../../request/context.ts';
import { readKubeText } from '../../../test/support/kube-reference.ts';

interface Captured { code: number; headers: Record<string, unknown>; body: string }

/** A minimal context whose response records what the endpoint wrote. */
function fakeCtx(pathAndQuery: string): { ctx: RequestContext; out: Captured } {
  const url = new URL(`https://x${pathAndQuery}`);
  const out: Captured = { code: 0, headers: {}, body: '' };
  const res = {
    headersSent: false,
    writeHead(code: number, h: Record<string, unknown>) { out.code = code; out.headers = h; this.headersSent = true; return this; },
    end(b?: Uint8Array | string) { if (b) out.body += Buffer.from(b).toString(); },
  };
  const ctx = {
    req: { method: 'GET', headers: {} }, res, url, query: url.searchParams,
    info: { isResourceRequest: false, path: url.pathname, verb: 'get', apiPrefix: '', apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '', parts: [] },
    user: { username: 'u', groups: [] }, auditId: 'a', warnings: [], signal: new AbortController().signal, startTime: 0,
  } as unknown as RequestContext;
  return { ctx, out };
}

/** Sections of health.txt: `== GET <path>` then the body. */
function reference(): Map<string, string> {
  const text = readKubeText('responses/health.txt');
  const m = new Map<string, string>();
  for (const part of text.split(/^== GET /m).slice(1)) {
    const nl = part.indexOf('\n');
    m.set(part.slice(0, nl).trim(), part.slice(nl + 1).replace(/\n+$/, '\n'));
  }
  return m;
}

function setup(opts: { storeUp?: boolean; shuttingDown?: boolean; hooksDone?: boolean; grace?: number; now?: () => number } = {}) {
  const hooks = new PostStartHooks();
  if (opts.hooksDone ?? true) hooks.markAllDone();
  const checks = standardChecks({
    hooks,
    pingStore: async () => { if (opts.storeUp === false) throw new Error('connection refused'); },
    isShuttingDown: () => opts.shuttingDown ?? false,
  });
  const logs: string[] = [];
  const ep = createHealthEndpoint({ ...checks, livezGracePeriodMs: opts.grace, startedAt: 1000, now: opts.now ?? (() => 1000), log: (l) => logs.push(l) });
  const get = async (p: string) => {
    const { ctx, out } = fakeCtx(p);
    const served = await ep(ctx);
    return { served, ...out };
  };
  return { get, logs };
}

void test('verbose output of /livez, /readyz, /healthz matches kube-apiserver line for line', async () => {
  const ref = reference();
  const { get } = setup();
  for (const p of ['/livez?verbose', '/readyz?verbose', '/healthz?verbose', '/readyz?verbose&exclude=etcd']) {
    const r = await get(p);
    assert.equal(r.code, 200, p);
    assert.equal(r.body, ref.get(p), p);
    assert.equal(r.headers['Content-Type'], 'text/plain; charset=utf-8');
    assert.equal(r.headers['X-Content-Type-Options'], 'nosniff');
  }
});

void test('plain ok without verbose', async () => {
  const { get } = setup();
  for (const p of ['/livez', '/readyz', '/healthz']) assert.deepEqual([(await get(p)).code, (await get(p)).body], [200, 'ok']);
});

void test('exclude marks the check, repeatable; unknown names warn', async () => {
  const { get } = setup({ storeUp: false });
  const r = await get('/livez?verbose&exclude=etcd&exclude=log&exclude=nope&exclude=also');
  assert.equal(r.code, 200);
  assert.match(r.body, /^\[\+\]ping ok\n\[\+\]log excluded: ok\n\[\+\]etcd excluded: ok\n/);
  assert.match(r.body, /warn: some health checks cannot be excluded: no matches for "also","nope"\nlivez check passed\n$/);
});

void test('a failing store fails /livez (etcd) and /readyz (informer-sync) with reasons withheld', async () => {
  const { get, logs } = setup({ storeUp: false });
  const l = await get('/livez');
  assert.equal(l.code, 500);
  assert.match(l.body, /\[-\]etcd failed: reason withheld\n/);
  assert.match(l.body, /livez check failed\n$/);
  assert.doesNotMatch(l.body, /connection refused/);
  assert.match(logs.join('\n'), /etcd failed: connection refused/);
  const r = await get('/readyz');
  assert.equal(r.code, 500);
  assert.match(r.body, /\[-\]informer-sync failed: reason withheld\n/);
});

void test('readyz fails during shutdown; livez does not', async () => {
  const { get } = setup({ shuttingDown: true });
  const r = await get('/readyz?verbose');
  assert.equal(r.code, 500);
  assert.match(r.body, /\[-\]shutdown failed: reason withheld\nreadyz check failed\n$/);
  assert.equal((await get('/livez')).code, 200);
  assert.equal((await get('/readyz/shutdown')).body, 'internal server error: process is shutting down\n');
});

void test('post-start hooks fail until done', async () => {
  const { get } = setup({ hooksDone: false });
  const r = await get('/readyz?verbose');
  assert.equal(r.code, 500);
  assert.match(r.body, /\[-\]poststarthook\/rbac\/bootstrap-roles failed: reason withheld\n/);
  assert.match(r.body, /\[-\]autoregister-completion failed: reason withheld\n/);
});

void test('single checks by path, slashes included; unknown check is not ours', async () => {
  const { get } = setup();
  assert.deepEqual(await get('/livez/ping'), { served: true, code: 200, headers: (await get('/livez/ping')).headers, body: 'ok' });
  assert.equal((await get('/readyz/poststarthook/rbac/bootstrap-roles')).body, 'ok');
  assert.equal((await get('/livez/nope')).served, false);
  assert.equal((await get('/livezz')).served, false);
  const bad = setup({ storeUp: false });
  const e = await bad.get('/livez/etcd');
  assert.equal(e.code, 500);
  assert.equal(e.body, 'internal server error: connection refused\n');
});

void test('--livez-grace-period: failing livez checks pass while booting, not after', async () => {
  let now = 1000;
  const { get } = setup({ storeUp: false, grace: 5000, now: () => now });
  assert.equal((await get('/livez')).code, 200);
  assert.equal((await get('/readyz')).code, 500);
  now = 7000;
  assert.equal((await get('/livez')).code, 500);
});

void test('a hanging store ping times out into a failure', async () => {
  const hooks = new PostStartHooks();
  hooks.markAllDone();
  const never: HealthCheck[] = standardChecks({ hooks, pingStore: () => new Promise(() => {}), storeTimeoutMs: 20, isShuttingDown: () => false }).livez;
  const etcd = never.find((c) => c.name === 'etcd')!;
  await assert.rejects(Promise.resolve(etcd.check()), /timed out/);
});
