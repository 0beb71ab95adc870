import { test } from 'node:test';
import assert from 'node:assert/strict';
import { opContext, type HandlerScope } from './scope.ts';
import type { RequestContext } from '../../request/context.ts';

void test('opContext: signal and audit annotations read through to the request, also on a spread copy', () => {
  const ac = new AbortController();
  let signalReads = 0;
  const ctx = {
    user: { username: 'u', groups: [] }, warnings: [],
    get signal() { signalReads++; return ac.signal; },
  } as unknown as RequestContext;
  const scope = { namespace: 'ns', subresource: '', name: 'a' } as unknown as HandlerScope;
  const op = opContext(ctx, scope, { dryRun: true });
  assert.equal(signalReads, 0, 'the signal is not created until someone reads it');
  assert.equal(ctx.auditAnnotations, undefined, 'nor the annotations');
  assert.equal(op.signal, ac.signal);
  assert.deepEqual([op.namespace, op.name, op.dryRun, op.user.username], ['ns', 'a', true, 'u']);
  op.auditAnnotations!['k'] = 'v';
  assert.deepEqual(ctx.auditAnnotations, { k: 'v' });
  // Registry code narrows a context by spreading it: the copy still reaches the same request.
  const copy = { ...op, subresource: 'status' };
  assert.equal(copy.signal, ac.signal);
  copy.auditAnnotations!['k2'] = 'v2';
  assert.deepEqual(ctx.auditAnnotations, { k: 'v', k2: 'v2' });
  // Two contexts share one hidden class (no per-request map): same keys in the same order.
  assert.deepEqual(Object.keys(opContext(ctx, scope)), Object.keys(op));
});
