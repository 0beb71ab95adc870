/** GET of one object: negotiate (406 first, as kube), read through the registry, answer from the cached encoding. */
import type { RequestContext } from '../../request/context.ts';
import { negotiateResponse, respondResource } from '../negotiation/render.ts';
import { parseGetQuery } from '../params.ts';
import { opContext, type HandlerScope } from './scope.ts';

export async function handleGet(ctx: RequestContext, s: HandlerScope): Promise<void> {
  const rep = negotiateResponse(ctx, s.render);
  const params = parseGetQuery(ctx.query);
  const co = await s.storage.get(opContext(ctx, s), s.name, params);
  await respondResource(ctx, s.render, rep, 200, co);
}
