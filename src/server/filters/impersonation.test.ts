import { test } from 'node:test';
import assert from 'node:assert/strict';
import { impersonationRequests, withImpersonation } from './impersonation.ts';
import type { ServerContext } from './types.ts';
import type { Attributes, Authorizer } from '../../request/authorizer.ts';
import { StatusError } from '../../machinery/errors.ts';

function ctxWith(headers: Record<string, string | string[]>, user = { username: 'alice', groups: ['system:authenticated'] }) {
  const out = { code: 0, body: '' };
  const url = new URL('https://x/api/v1/pods');
  const ctx = {
    req: { method: 'GET', headers: { ...headers } }, url, query: url.searchParams,
    res: { headersSent: false, writeHead(c: number) { out.code = c; return this; }, end(b?: Uint8Array | string) { if (b) out.body += Buffer.from(b).toString(); } },
    info: { isResourceRequest: true, path: '/api/v1/pods', verb: 'list', apiPrefix: 'api', apiGroup: '', apiVersion: 'v1', namespace: '', resource: 'pods', subresource: '', name: '', parts: ['pods'] },
    user, auditId: 'a', warnings: [], signal: new AbortController().signal, startTime: 0,
  } as unknown as ServerContext;
  return { ctx, out };
}

function recordingAuthorizer(deny?: (a: Attributes) => boolean): { authorizer: Authorizer; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    authorizer: {
      name: 't',
      authorize: (a) => {
        asked.push(`${a.verb} ${a.apiGroup}/${a.resource}${a.subresource ? `/${a.subresource}` : ''} ${a.namespace}/${a.name}`);
        return deny?.(a) ? { kind: 'no-opinion' } : { kind: 'allow' };
      },
    },
  };
}

void test('no impersonation headers: the request passes untouched', async () => {
  const { authorizer, asked } = recordingAuthorizer();
  const { ctx } = ctxWith({});
  let ran = false;
  await withImpersonation(async () => { ran = true; }, { authorizer })(ctx);
  assert.equal(ran, true);
  assert.deepEqual(asked, []);
  assert.equal(ctx.user.username, 'alice');
});

void test('user, groups, uid and extras are each authorized and then become the user', async () => {
  const { authorizer, asked } = recordingAuthorizer();
  const { ctx } = ctxWith({ 'impersonate-user': 'bob', 'impersonate-group': ['g1', 'g2'], 'impersonate-uid': 'u-1', 'impersonate-extra-scopes%2Fx': ['a', 'b'] });
  let seen;
  await withImpersonation(async (c) => { seen = c.user; }, { authorizer })(ctx);
  assert.deepEqual(seen, { username: 'bob', groups: ['g1', 'g2', 'system:authenticated'], uid: 'u-1', extra: { 'scopes/x': ['a', 'b'] } });
  assert.deepEqual(asked, [
    'impersonate /users /bob', 'impersonate /groups /g1', 'impersonate /groups /g2',
    'impersonate authentication.k8s.io/userextras/scopes/x /a', 'impersonate authentication.k8s.io/userextras/scopes/x /b',
    'impersonate authentication.k8s.io/uids /u-1',
  ]);
  assert.equal(ctx.req.headers['impersonate-user'], undefined);
  assert.equal(ctx.req.headers['impersonate-extra-scopes%2Fx'], undefined);
});

void test('a service account user gets its groups unless groups are given', async () => {
  const { authorizer, asked } = recordingAuthorizer();
  const { ctx } = ctxWith({ 'impersonate-user': 'system:serviceaccount:ns1:robot' });
  let seen;
  await withImpersonation(async (c) => { seen = c.user; }, { authorizer })(ctx);
  assert.deepEqual(seen, { username: 'system:serviceaccount:ns1:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'] });
  assert.deepEqual(asked, ['impersonate /serviceaccounts ns1/robot']);
});

void test('impersonating system:anonymous adds system:unauthenticated', async () => {
  const { authorizer } = recordingAuthorizer();
  const { ctx } = ctxWith({ 'impersonate-user': 'system:anonymous' });
  let seen;
  await withImpersonation(async (c) => { seen = c.user; }, { authorizer })(ctx);
  assert.deepEqual(seen, { username: 'system:anonymous', groups: ['system:unauthenticated'] });
});

void test('a refused piece is a 403 about that piece', async () => {
  const { authorizer } = recordingAuthorizer((a) => a.resource === 'groups');
  const { ctx, out } = ctxWith({ 'impersonate-user': 'bob', 'impersonate-group': 'system:masters' });
  let ran = false;
  await withImpersonation(async () => { ran = true; }, { authorizer })(ctx);
  assert.equal(ran, false);
  assert.equal(out.code, 403);
  assert.equal(JSON.parse(out.body).message, 'groups "system:masters" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope');
});

void test('groups without a user: 400 with kube\'s wording', () => {
  assert.throws(() => impersonationRequests({ 'impersonate-group': 'g' }), (e: unknown) => e instanceof StatusError && e.code === 400
    && e.message === 'requested [{Group  g    }] without impersonating a user');
  assert.deepEqual(impersonationRequests({}), []);
});
