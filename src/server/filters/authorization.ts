/** Asks the authorizer about ctx.info for ctx.user; anything but allow → 403 with kube's message. */
import { errors } from '../../endpoints/status.ts';
import { respondError } from '../../endpoints/respond.ts';
import type { Attributes, Authorizer } from '../../authz/types.ts';
import { forbiddenError } from '../../authz/forbidden.ts';
import type { ServerHandler, ServerContext } from './types.ts';

export function attributesOf(ctx: ServerContext): Attributes {
  const i = ctx.info;
  return {
    user: ctx.user, verb: i.verb, isResourceRequest: i.isResourceRequest, path: i.path, apiGroup: i.apiGroup,
    apiVersion: i.apiVersion, namespace: i.namespace, resource: i.resource, subresource: i.subresource, name: i.name,
  };
}

export function withAuthorization(next: ServerHandler, deps: { authorizer: Authorizer; log: (line: string) => void }): ServerHandler {
  return async function authorization(ctx) {
    const attrs = attributesOf(ctx);
    let decision;
    try {
      decision = await deps.authorizer.authorize(attrs);
    } catch (err) {
      deps.log(`authorizer failed: ${(err as Error).message}`);
      respondError(ctx, errors.internal((err as Error).message));
      return;
    }
    if (decision.kind !== 'allow') {
      respondError(ctx, forbiddenError(attrs, decision.reason));
      return;
    }
    await next(ctx);
  };
}
