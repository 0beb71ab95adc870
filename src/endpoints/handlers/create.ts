/**
 * POST: kube's create handler order — negotiate output (406), input type (415), body (413), options
 * (400/422), decode (400), namespace check (400) — then the registry. Answers 201 (also for dry-run).
 */
import type { RequestContext } from '../../request/context.ts';
import { decodeObject, inputTypeOf, readBody } from '../negotiation/decode.ts';
import { negotiateResponse, respondResource } from '../negotiation/render.ts';
import { parseWriteQuery } from '../params.ts';
import { errors } from '../../machinery/errors.ts';
import { dedupOwnerReferences, ensureNamespace, expectedNamespace, fieldManagerFor, opContext, strictChecks, type HandlerScope } from './scope.ts';

/** Named creates whose REST refuses a body naming another object (kube's BindingREST and EvictionREST). */
const NAME_CHECKED_KINDS: ReadonlySet<string> = new Set(['Binding', 'Eviction']);

export async function handleCreate(ctx: RequestContext, s: HandlerScope): Promise<void> {
  const rep = negotiateResponse(ctx, s.render);
  const type = inputTypeOf(ctx);
  const body = await readBody(ctx);
  const q = parseWriteQuery(ctx.query, 'CreateOptions');
  const obj = decodeObject(body, type, {
    def: s.def, kind: s.kind, apiVersion: s.apiVersion, fieldValidation: q.fieldValidation ?? 'Warn',
    isKnownKind: s.isKnownKind, warnings: ctx.warnings, ...strictChecks(s),
  });
  ctx.audit?.logRequestObject(obj);
  // Named creates (sub-resources such as pods/binding): the body names the object the URL names.
  if (s.name && !obj.metadata.name) obj.metadata.name = s.name;
  if (s.name && NAME_CHECKED_KINDS.has(s.kind) && obj.metadata.name !== s.name) {
    throw errors.badRequest(`name in URL does not match name in ${s.kind} object`);
  }
  ensureNamespace(obj, expectedNamespace(s));
  dedupOwnerReferences(obj, ctx.warnings);
  const op = opContext(ctx, s, { dryRun: q.dryRun, fieldManager: fieldManagerFor(ctx, q.fieldManager) });
  const created = await s.storage.create(op, obj, { fieldValidation: q.fieldValidation ?? 'Warn' });
  await respondResource(ctx, s.render, rep, 201, created);
}
