import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FILTERS, buildChain } from './chain.ts';
import { Metrics } from '../endpoints/metrics.ts';
import type { ServerContext } from './filters/types.ts';
import type { Authenticator } from '../request/authenticator.ts';
import type { Authorizer } from '../request/authorizer.ts';

void test('the chain reads top to bottom in kube-apiserver\'s order', () => {
  assert.deepEqual(FILTERS.map((f) => f.name), ['audit-id', 'panic-recovery', 'httplog', 'request-info', 'request-timeout', 'metrics', 'body-limit', 'authentication', 'audit', 'impersonation', 'max-in-flight', 'authorization']);
});

interface Written { code: number; body: string; headers: Record<string, unknown> }

function ctxFor(method: string, p: string, headers: Record<string, string> = {}): { ctx: ServerContext; out: Written } {
  const url = new URL(`https://x${p}`);
  const out: Written = { code: 0, body: '', headers: {} };
  const res = {
    headersSent: false, statusCode: 0,
    writeHead(code: number, h: Record<string, unknown>) { out.code = code; this.statusCode = code; out.headers = h; this.headersSent = true; return this; },
    end(b?: Uint8Array | string) { if (b) out.body += Buffer.from(b).toString(); },
    once() { return this; },
    setHeader(k: string, v: unknown) { out.headers[k] = v; },
  };
  const ctx = {
    req: { method, headers, url: p }, res, url, query: url.searchParams,
    info: { isResourceRequest: false, path: url.pathname, verb: method.toLowerCase(), apiPrefix: '', apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '', parts: [] },
    user: { username: '', groups: [] }, auditId: '', warnings: [], signal: new AbortController().signal, startTime: 0,
  } as unknown as ServerContext;
  return { ctx, out };
}

void test('each stage sees what earlier stages set: info before authn, user before authz, both before endpoints', async () => {
  const seen: string[] = [];
  const authenticator: Authenticator = {
    name: 't',
    authenticate: (r) => {
      seen.push(`authn ${r.path}`);
      return r.header('authorization') === 'Bearer good'
        ? { kind: 'authenticated', method: 't', user: { username: 'u', groups: ['system:authenticated'] } }
        : { kind: 'error', message: 'bad' };
    },
  };
  const authorizer: Authorizer = {
    name: 't',
    authorize: (a) => {
      seen.push(`authz ${a.user.username} ${a.verb} ${a.resource}`);
      return a.resource === 'secrets' ? { kind: 'no-opinion' } : { kind: 'allow' };
    },
  };
  const chain = buildChain({
    authenticator, authorizer, metrics: new Metrics(), maxReadOnlyInFlight: 0, maxMutatingInFlight: 0, maxBodyBytes: 10, requestTimeoutMs: 0, log: () => {},
    endpoints: [async (ctx) => { seen.push(`endpoint ${ctx.auditId ? 'audited' : 'no-audit'} ${ctx.info.verb}`); if (ctx.info.path === '/throw') throw new Error('x'); return ctx.info.isResourceRequest; }],
  });
  const ok = ctxFor('GET', '/api/v1/namespaces/a/pods', { authorization: 'Bearer good' });
  await chain(ok.ctx);
  assert.deepEqual(seen, ['authn /api/v1/namespaces/a/pods', 'authz u list pods', 'endpoint audited list']);
  assert.equal(ok.ctx.user.username, 'u');
  assert.equal(ok.ctx.req.headers.authorization, undefined, 'credentials are not passed on');

  seen.length = 0;
  const denied = ctxFor('GET', '/api/v1/secrets', { authorization: 'Bearer good' });
  await chain(denied.ctx);
  assert.equal(denied.out.code, 403);
  assert.deepEqual(seen, ['authn /api/v1/secrets', 'authz u list secrets']);

  seen.length = 0;
  const bad = ctxFor('GET', '/api/v1/secrets', { authorization: 'Bearer bad' });
  await chain(bad.ctx);
  assert.equal(bad.out.code, 401);
  assert.deepEqual(seen, ['authn /api/v1/secrets'], 'no authorization without authentication');

  const big = ctxFor('POST', '/api/v1/namespaces/a/configmaps', { authorization: 'Bearer good', 'content-length': '11' });
  seen.length = 0;
  await chain(big.ctx);
  assert.equal(big.out.code, 413);
  assert.deepEqual(seen, [], 'size is checked before anything else runs');

  const thrown = ctxFor('GET', '/throw', { authorization: 'Bearer good' });
  await chain(thrown.ctx);
  assert.equal(thrown.out.code, 500);

  const missing = ctxFor('GET', '/nothing/here', { authorization: 'Bearer good' });
  await chain(missing.ctx);
  assert.deepEqual([missing.out.code, missing.out.body], [404, '404 page not found\n']);
});
