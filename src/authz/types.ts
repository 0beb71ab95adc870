/**
 * Authorization contract: attributes of a request and tri-state decisions. Authorizers fail closed: anything
 * other than an explicit `allow` from some member ends in 403.
 */
import type { UserInfo } from '../api/types.ts';

/** What an authorizer sees (kube's authorizer.Attributes). */
export interface Attributes {
  readonly user: UserInfo;
  readonly verb: string;
  readonly isResourceRequest: boolean;
  /** Request path, for non-resource requests. */
  readonly path: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

export type Decision =
  | { readonly kind: 'allow'; readonly reason?: string }
  | { readonly kind: 'deny'; readonly reason: string }
  | { readonly kind: 'no-opinion'; readonly reason?: string };

export interface Authorizer {
  readonly name: string;
  authorize(attrs: Attributes): Decision | Promise<Decision>;
}

export const allow = (reason?: string): Decision => ({ kind: 'allow', reason });
export const deny = (reason: string): Decision => ({ kind: 'deny', reason });
export const noOpinion = (reason?: string): Decision => ({ kind: 'no-opinion', reason });
