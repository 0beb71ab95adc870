import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Attributes, Authorizer } from '../../request/authorizer.ts';
import type { RequestContext } from '../../request/context.ts';
import { authorizeUnsafeDelete, unsafeDeleteCollectionRefused, unsafeDeleteRequested, withUnsafeDelete } from './corrupt-objects-request.ts';

function ctxFor(query: string, gate: boolean): RequestContext {
  const url = new URL(`https://x/api/v1/namespaces/default/configmaps/c${query}`);
  return { url, query: url.searchParams, user: { username: 'alice', groups: [] }, ...(gate ? { unsafeMalformedObjectDeletion: true } : {}) } as unknown as RequestContext;
}

const check = (ctx: RequestContext, authorizer: Authorizer, subresource = '') => authorizeUnsafeDelete({
  ctx, authorizer, group: '', version: 'v1', resource: 'configmaps', subresource, namespace: 'default', name: 'c',
});

void describe('unsafe delete requests', () => {
  void it('the option counts only with the gate; the body wins over the query', () => {
    assert.equal(unsafeDeleteRequested(ctxFor('?ignoreStoreReadErrorWithClusterBreakingPotential=true', false), undefined), false);
    assert.equal(unsafeDeleteRequested(ctxFor('?ignoreStoreReadErrorWithClusterBreakingPotential=true', true), undefined), true);
    assert.equal(unsafeDeleteRequested(ctxFor('?ignoreStoreReadErrorWithClusterBreakingPotential=false', true), undefined), false);
    assert.equal(unsafeDeleteRequested(ctxFor('?ignoreStoreReadErrorWithClusterBreakingPotential=true', true), {}), false);
    assert.equal(unsafeDeleteRequested(ctxFor('', true), { ignoreStoreReadErrorWithClusterBreakingPotential: true }), true);
    assert.throws(() => unsafeDeleteRequested(ctxFor('', true), { ignoreStoreReadErrorWithClusterBreakingPotential: 'yes' }),
      { message: 'json: cannot unmarshal string into Go struct field DeleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential of type bool' });
  });

  void it('asks the authorizer for unsafe-delete-ignore-read-errors on the object and records the audit annotation', async () => {
    const seen: Attributes[] = [];
    const allowAll: Authorizer = { name: 'a', authorize: (a) => { seen.push(a); return { kind: 'allow' }; } };
    const ctx = ctxFor('', true);
    await check(ctx, allowAll);
    assert.deepEqual([seen[0]?.verb, seen[0]?.resource, seen[0]?.namespace, seen[0]?.name, seen[0]?.user.username],
      ['unsafe-delete-ignore-read-errors', 'configmaps', 'default', 'c', 'alice']);
    assert.deepEqual(ctx.auditAnnotations, { 'apiserver.k8s.io/unsafe-delete-ignore-read-error': '' });
  });

  void it('refuses with 403 as kube words it', async () => {
    const denyAll: Authorizer = { name: 'd', authorize: () => ({ kind: 'no-opinion', reason: '' }) };
    await assert.rejects(check(ctxFor('', true), denyAll), (e: Error & { code?: number }) => {
      assert.equal(e.code, 403);
      assert.equal(e.message, 'configmaps "c" is forbidden: not permitted to do "unsafe-delete-ignore-read-errors", reason: ');
      return true;
    });
    await assert.rejects(check(ctxFor('', true), denyAll, 'status'), { message: 'configmaps "c" is forbidden: ignoreStoreReadErrorWithClusterBreakingPotential delete option is not allowed on a subresource or non-resource request' });
  });

  void it('withUnsafeDelete adds the option only when asked, gated and allowed', async () => {
    const target = { group: '', version: 'v1', resource: 'configmaps', subresource: '', namespace: 'default', name: 'c' };
    const asked = '?ignoreStoreReadErrorWithClusterBreakingPotential=true';
    assert.deepEqual(await withUnsafeDelete(ctxFor(asked, false), target, undefined, { gracePeriodSeconds: 1 }), { gracePeriodSeconds: 1 });
    await assert.rejects(withUnsafeDelete(ctxFor(asked, true), target, undefined, {}),
      { message: 'Internal error occurred: no authorizer provided, unable to authorize unsafe delete' });
    const ctx = ctxFor(asked, true);
    ctx.unsafeDeleteAuthorizer = { name: 'a', authorize: () => ({ kind: 'allow' }) };
    assert.deepEqual(await withUnsafeDelete(ctx, target, undefined, {}), { ignoreStoreReadErrorWithClusterBreakingPotential: true });
  });

  void it('deletecollection refuses the option', () => {
    const e = unsafeDeleteCollectionRefused();
    assert.equal(e.code, 422);
    assert.equal(e.message, 'DeleteOptions.meta.k8s.io "" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is not allowed with DELETECOLLECTION, try again after removing the option');
  });
});
