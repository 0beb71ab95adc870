/**
 * Asks the authorizer about ctx.info for ctx.user; anything but allow → 403 with kube's message, except that
 * an authorizer evaluation error with no allow is a 500 (kube's WithAuthorization checks the error after the
 * allow and before the forbidden answer).
 */
import { errors } from '../../machinery/errors.ts';
import { respondError } from '../../endpoints/respond.ts';
import type { Attributes, Authorizer, Decision } from '../../request/authorizer.ts';
import { forbiddenError } from '../../authz/forbidden.ts';
import { parseFieldSelector } from '../../machinery/selectors/fields.ts';
import { parseLabelSelector } from '../../machinery/selectors/labels.ts';
import type { ServerHandler, ServerContext } from './types.ts';
import type { Metrics } from '../../endpoints/metrics.ts';

/** kube's verbsWithSelectors. */
const VERBS_WITH_SELECTORS = new Set(['list', 'watch', 'deletecollection']);

/** `/api/v1/watch/...` or `/apis/g/v/watch/...`: the deprecated verb-in-path form carries no selectors. */
function verbViaPath(pathname: string): boolean {
  const parts = pathname.split('/').filter((p) => p !== '');
  const i = parts[0] === 'api' ? 2 : parts[0] === 'apis' ? 3 : -1;
  return i > 0 && (parts[i] === 'watch' || parts[i] === 'proxy');
}

/**
 * kube's GetAuthorizerAttributes selector part: the first `fieldSelector` / `labelSelector` query value of a
 * list, watch or deletecollection, parsed; an empty selector adds nothing, a bad one adds its parse error.
 */
export function selectorAttributes(verb: string, url: URL): Partial<Attributes> {
  if (!VERBS_WITH_SELECTORS.has(verb) || verbViaPath(url.pathname)) return {};
  const out: { -readonly [K in keyof Attributes]?: Attributes[K] } = {};
  const fs = url.searchParams.get('fieldSelector');
  if (fs) {
    try {
      const reqs = parseFieldSelector(fs).requirements;
      if (reqs.length) out.fieldSelectorRequirements = reqs;
    } catch (e) {
      out.fieldSelectorParsingError = (e as Error).message;
    }
  }
  const ls = url.searchParams.get('labelSelector');
  if (ls) {
    try {
      const reqs = parseLabelSelector(ls).requirements;
      if (reqs.length) out.labelSelectorRequirements = reqs;
    } catch (e) {
      out.labelSelectorParsingError = (e as Error).message;
    }
  }
  return out;
}

export function attributesOf(ctx: ServerContext): Attributes {
  const i = ctx.info;
  return {
    user: ctx.user, verb: i.verb, isResourceRequest: i.isResourceRequest, path: i.path, apiGroup: i.apiGroup,
    apiVersion: i.apiVersion, namespace: i.namespace, resource: i.resource, subresource: i.subresource, name: i.name,
    ...(i.isResourceRequest ? selectorAttributes(i.verb, ctx.url) : {}),
  };
}

/** kube's authorization audit annotations (filters/authorization.go). */
export const DECISION_ANNOTATION = 'authorization.k8s.io/decision';
export const REASON_ANNOTATION = 'authorization.k8s.io/reason';

/** Recorded only for audited requests (kube's AddAuditAnnotation is a no-op without an audit event). */
function annotate(ctx: ServerContext, values: Record<string, string>): void {
  if (!ctx.audit) return;
  Object.assign((ctx.auditAnnotations ??= {}), values);
}

export function withAuthorization(next: ServerHandler, deps: { authorizer: Authorizer; log: (line: string) => void; metrics?: Metrics }): ServerHandler {
  const failed = (ctx: ServerContext, t0: number, err: unknown): Promise<void> => {
    deps.metrics?.recordAuthorization('error', (performance.now() - t0) / 1000);
    deps.log(`authorizer failed: ${(err as Error).message}`);
    respondError(ctx, errors.internal((err as Error).message));
    return DONE;
  };
  const decided = (ctx: ServerContext, attrs: Attributes, t0: number, decision: Decision): Promise<void> => {
    if (deps.metrics) {
      const m = deps.metrics;
      // kube's recordAuthorizationMetrics: allowed wins over an error, an error over deny and no-opinion.
      m.recordAuthorization(decision.kind === 'allow' ? 'allowed' : decision.error ? 'error' : decision.kind === 'deny' ? 'denied' : 'no-opinion', (performance.now() - t0) / 1000);
      if (decision.kind !== 'no-opinion' && decision.decidedBy) {
        m.recordAuthorizationDecision(decision.decidedBy.type, decision.decidedBy.name, decision.kind === 'allow' ? 'allowed' : 'denied');
      }
    }
    if (decision.kind === 'allow') {
      if (ctx.audit) annotate(ctx, { [DECISION_ANNOTATION]: 'allow', [REASON_ANNOTATION]: decision.reason ?? '' });
      return next(ctx);
    }
    if (decision.error) {
      annotate(ctx, { [REASON_ANNOTATION]: 'internal error' });
      deps.log(`authorizer failed: ${decision.error}`);
      respondError(ctx, errors.internal(decision.error));
      return DONE;
    }
    annotate(ctx, { [DECISION_ANNOTATION]: 'forbid', [REASON_ANNOTATION]: decision.reason ?? '' });
    respondError(ctx, forbiddenError(attrs, decision.reason));
    return DONE;
  };
  // Not async: a cached RBAC answer is synchronous, and the request goes on without a promise of its own.
  return function authorization(ctx) {
    const attrs = attributesOf(ctx);
    const t0 = performance.now();
    let decision: Decision | Promise<Decision>;
    try {
      decision = deps.authorizer.authorize(attrs);
    } catch (err) {
      return failed(ctx, t0, err);
    }
    if (decision instanceof Promise) return decision.then((d) => decided(ctx, attrs, t0, d), (err: unknown) => failed(ctx, t0, err));
    return decided(ctx, attrs, t0, decision);
  };
}

const DONE: Promise<void> = Promise.resolve();
