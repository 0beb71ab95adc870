/**
 * PUT: kube's update handler order — negotiate output (406), body (413), options (400/422), input type
 * (415), decode (400), namespace then name checks (400) — then the registry. 200, or 201 when it created.
 */
import type { RequestContext } from '../../request/context.ts';
import { decodeObject, inputTypeOf, readBody } from '../negotiation/decode.ts';
import { negotiateResponse, respondResource } from '../negotiation/render.ts';
import { parseWriteQuery } from '../params.ts';
import { checkName, dedupOwnerReferences, ensureNamespace, expectedNamespace, fieldManagerFor, opContext, strictChecks, type HandlerScope } from './scope.ts';

export async function handleUpdate(ctx: RequestContext, s: HandlerScope): Promise<void> {
  const rep = negotiateResponse(ctx, s.render);
  const body = await readBody(ctx);
  const q = parseWriteQuery(ctx.query, 'UpdateOptions');
  const type = inputTypeOf(ctx);
  const obj = decodeObject(body, type, {
    def: s.def, kind: s.kind, apiVersion: s.apiVersion, fieldValidation: q.fieldValidation ?? 'Warn',
    isKnownKind: s.isKnownKind, warnings: ctx.warnings, ...strictChecks(s),
  });
  ctx.audit?.logRequestObject(obj);
  ensureNamespace(obj, expectedNamespace(s));
  checkName(obj, s.name, s.namespace);
  dedupOwnerReferences(obj, ctx.warnings);
  const op = opContext(ctx, s, { dryRun: q.dryRun, fieldManager: fieldManagerFor(ctx, q.fieldManager) });
  const { object, created } = await s.storage.update(op, s.name, obj, { fieldValidation: q.fieldValidation ?? 'Warn' });
  await respondResource(ctx, s.render, rep, created ? 201 : 200, object);
}
