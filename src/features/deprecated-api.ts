/**
 * Signals for a request served by a deprecated API version, as kube-apiserver's endpoint metrics give them:
 * audit annotations `k8s.io/deprecated: "true"` and (when a removal is planned) `k8s.io/removed-release`,
 * and the gauge apiserver_requested_deprecated_apis (through `record`). The `Warning` header is the
 * resource endpoint's part.
 */
import type { RequestContext } from '../request/context.ts';

export const DEPRECATED_ANNOTATION = 'k8s.io/deprecated';
export const REMOVED_RELEASE_ANNOTATION = 'k8s.io/removed-release';

export interface DeprecatedUse {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  /** '' when the deprecated version has no planned removal. */
  readonly removedRelease: string;
}

/** Annotates the request's audit context and hands the labels to the metric sink. */
export function signalDeprecatedUse(ctx: Pick<RequestContext, 'auditAnnotations'>, use: DeprecatedUse,
  record?: (use: DeprecatedUse) => void): void {
  const a = (ctx.auditAnnotations ??= {});
  a[DEPRECATED_ANNOTATION] = 'true';
  if (use.removedRelease) a[REMOVED_RELEASE_ANNOTATION] = use.removedRelease;
  record?.(use);
}
