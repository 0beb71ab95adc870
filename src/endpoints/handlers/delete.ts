/**
 * DELETE of one object. DeleteOptions come from the body when one is sent (then the query is ignored, as in
 * kube), else from the query. The answer, as kube's generic store gives it:
 *   - object still there (graceful deletion, finalizers) → 200 with the object (202 when the caller asked
 *     for `orphanDependents: false`);
 *   - object gone → the object for resources that return it (`returnDeletedObject`: pods, service accounts,
 *     …), otherwise `Status{status: Success, details: {name, group, kind: <resource>, uid}}`.
 */
import type { KObject } from '../../machinery/objects.ts';
import type { RequestContext } from '../../request/context.ts';
import { decodeOptionsBody, readBody } from '../negotiation/decode.ts';
import { negotiateResponse, respondResource } from '../negotiation/render.ts';
import { parseDeleteOptions } from '../params.ts';
import { withUnsafeDelete } from './corrupt-objects-request.ts';
import { opContext, type HandlerScope, type ResourceDefExtensions } from './scope.ts';


export async function handleDelete(ctx: RequestContext, s: HandlerScope): Promise<void> {
  const rep = negotiateResponse(ctx, s.render);
  const body = await readBody(ctx);
  const bodyOpts = decodeOptionsBody(ctx, body);
  if (bodyOpts) ctx.audit?.logRequestObject(bodyOpts);
  const opts = parseDeleteOptions(ctx.query, bodyOpts);
  const { dryRun, ...parsed } = opts;
  const params = await withUnsafeDelete(ctx, s, bodyOpts, parsed);
  const result = await s.storage.delete(opContext(ctx, s, { dryRun }), s.name, params);
  // An unsafe delete answers kube's Status for a deleted object it could not read.
  if (result.object.kind === 'Status') {
    await respondResource(ctx, s.render, rep, 200, result.object);
    return;
  }
  const code = !result.deleted && opts.orphanDependents === false ? 202 : 200;
  if (!result.deleted || (s.def as ResourceDefExtensions).returnDeletedObject === true) {
    await respondResource(ctx, s.render, rep, code, result.object);
    return;
  }
  const status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: {
      name: result.object.metadata.name ?? s.name,
      ...(s.group ? { group: s.group } : {}),
      kind: s.resource,
      ...(result.object.metadata.uid ? { uid: result.object.metadata.uid } : {}),
    },
  } as unknown as KObject;
  await respondResource(ctx, s.render, rep, code, status);
}
