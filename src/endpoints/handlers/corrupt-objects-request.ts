/**
 * The request side of unsafe deletion (kube's DELETE handler with AllowUnsafeMalformedObjectDeletion), for the
 * DELETE and DELETECOLLECTION handlers to call:
 *
 * ```ts
 * // DELETE: the params for storage.delete (the option set only when requested, allowed and gated on)
 * const params = await withUnsafeDelete(ctx, target, bodyOptions, parsedParams);
 * // DELETECOLLECTION:
 * if (unsafeDeleteRequested(ctx, bodyOptions)) throw unsafeDeleteCollectionRefused();
 * ```
 * A successful unsafe delete answers a `Status` object (kube's nil-object response): handlers send it as it is.
 */
import type { Authorizer } from '../../request/authorizer.ts';
import { errors, field, type StatusError } from '../../machinery/errors.ts';
import { parseBoolParam } from '../params.ts';
import type { RequestContext } from '../../request/context.ts';
import { UNSAFE_DELETE_AUDIT_ANNOTATION, UNSAFE_DELETE_OPTION, UNSAFE_DELETE_VERB } from '../../registry/corrupt-objects.ts';
import type { DeleteParams } from '../../registry/rest.ts';

/**
 * Whether the request asks for the unsafe delete: the DeleteOptions body field when a body was sent (the query
 * is then ignored, as for every delete option), else the query parameter. Always false without the gate: kube
 * clears the option before validating, so the delete proceeds normally.
 */
export function unsafeDeleteRequested(ctx: RequestContext, body: Record<string, unknown> | undefined): boolean {
  if (ctx.unsafeMalformedObjectDeletion !== true) return false;
  if (body) {
    const v = body[UNSAFE_DELETE_OPTION];
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') {
      const t = Array.isArray(v) ? 'array' : typeof v;
      throw errors.badRequest(`json: cannot unmarshal ${t} into Go struct field DeleteOptions.${UNSAFE_DELETE_OPTION} of type bool`);
    }
    return v;
  }
  const q = ctx.query.get(UNSAFE_DELETE_OPTION);
  return q !== null && parseBoolParam(q);
}

export interface UnsafeDeleteCheck {
  readonly ctx: RequestContext;
  readonly authorizer: Authorizer;
  /** The resource as the URL names it. */
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}

/**
 * kube's authorizeUnsafeDelete: only for resources (no sub-resources), and the caller must be allowed the verb
 * `unsafe-delete-ignore-read-errors` on the object. Records the audit annotation kube adds. Throws 403.
 */
export async function authorizeUnsafeDelete(c: UnsafeDeleteCheck): Promise<void> {
  c.ctx.auditAnnotations ??= {};
  c.ctx.auditAnnotations[UNSAFE_DELETE_AUDIT_ANNOTATION] = '';
  const q = { kind: c.resource, group: c.group, name: c.name };
  if (c.subresource) {
    throw errors.forbidden(q, `${UNSAFE_DELETE_OPTION} delete option is not allowed on a subresource or non-resource request`);
  }
  const decision = await c.authorizer.authorize({
    user: c.ctx.user, verb: UNSAFE_DELETE_VERB, isResourceRequest: true, path: c.ctx.url.pathname,
    apiGroup: c.group, apiVersion: c.version, namespace: c.namespace, resource: c.resource, subresource: '', name: c.name,
  });
  if (decision.kind === 'allow') return;
  if (decision.error) throw errors.forbidden(q, `error while checking permission for ${JSON.stringify(UNSAFE_DELETE_VERB)}, ${decision.error}`);
  throw errors.forbidden(q, `not permitted to do ${JSON.stringify(UNSAFE_DELETE_VERB)}, reason: ${decision.reason ?? ''}`);
}

/** DELETECOLLECTION never takes the option (gate on): 422 on DeleteOptions. */
export function unsafeDeleteCollectionRefused(): StatusError {
  return errors.invalid({ kind: 'DeleteOptions', group: 'meta.k8s.io', name: '' }, [
    field.invalid(UNSAFE_DELETE_OPTION, true, 'is not allowed with DELETECOLLECTION, try again after removing the option'),
  ]);
}

/** The object a DELETE names (the handler's scope has these). */
export type UnsafeDeleteTarget = Omit<UnsafeDeleteCheck, 'ctx' | 'authorizer'>;

/**
 * DELETE: `params` plus the unsafe option when the request asks for it, the gate is on and the caller may
 * `unsafe-delete-ignore-read-errors` (403 otherwise). The authorizer is the chain's (ctx.unsafeDeleteAuthorizer);
 * without one the request fails as kube's does without an authorizer (500).
 */
export async function withUnsafeDelete(ctx: RequestContext, target: UnsafeDeleteTarget, body: Record<string, unknown> | undefined,
  params: DeleteParams): Promise<DeleteParams> {
  if (!unsafeDeleteRequested(ctx, body)) return params;
  const authorizer = ctx.unsafeDeleteAuthorizer;
  if (!authorizer) throw errors.internal('no authorizer provided, unable to authorize unsafe delete');
  await authorizeUnsafeDelete({ ctx, authorizer, ...target });
  return { ...params, ignoreStoreReadErrorWithClusterBreakingPotential: true };
}
