/**
 * LIST: ListOptions decoded (400) and validated (422) as kube does before negotiation (406); the registry
 * applies the resourceVersion table, selectors and paging; the body is streamed from cached encodings.
 */
import type { RequestContext } from '../../request/context.ts';
import { negotiateResponse, respondList } from '../negotiation/render.ts';
import { toListParams, type ListQuery } from '../params.ts';
import { opContext, type HandlerScope } from './scope.ts';

export async function handleList(ctx: RequestContext, s: HandlerScope, q: ListQuery): Promise<void> {
  const rep = negotiateResponse(ctx, s.render);
  const result = await s.storage.list(opContext(ctx, s), toListParams(q));
  await respondList(ctx, s.render, rep, result);
}
