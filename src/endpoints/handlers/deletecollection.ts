/**
 * DELETE of a collection: ListOptions (400/422) select what goes, DeleteOptions (body or query) say how.
 * Answers with the list of deleted objects (kube's generic store: a fresh list, empty list metadata).
 */
import type { RequestContext } from '../../request/context.ts';
import { decodeOptionsBody, readBody } from '../negotiation/decode.ts';
import { negotiateResponse, respondItems } from '../negotiation/render.ts';
import { parseDeleteOptions, toListParams, type ListQuery } from '../params.ts';
import { unsafeDeleteCollectionRefused, unsafeDeleteRequested } from './corrupt-objects-request.ts';
import { opContext, type HandlerScope } from './scope.ts';

export async function handleDeleteCollection(ctx: RequestContext, s: HandlerScope, q: ListQuery): Promise<void> {
  const rep = negotiateResponse(ctx, s.render);
  const body = await readBody(ctx);
  const bodyOpts = decodeOptionsBody(ctx, body);
  if (bodyOpts) ctx.audit?.logRequestObject(bodyOpts);
  const opts = parseDeleteOptions(ctx.query, bodyOpts);
  if (unsafeDeleteRequested(ctx, bodyOpts)) throw unsafeDeleteCollectionRefused();
  const { dryRun, ...params } = opts;
  const items = await s.storage.deleteCollection(opContext(ctx, s, { dryRun }), toListParams(q), params);
  await respondItems(ctx, s.render, rep, 200, items);
}
