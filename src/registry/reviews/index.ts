/**
 * The review resources' storages, looked up by the registry for the catalog's virtual defs
 * (authentication.k8s.io tokenreviews/selfsubjectreviews, authorization.k8s.io access and rules reviews).
 * The authenticator and authorizer are read when a review runs, so they may be built after the registry.
 */
import type { ResourceDef } from '../../api/types.ts';
import type { Authenticator } from '../../request/authenticator.ts';
import type { Authorizer } from '../../request/authorizer.ts';
import type { RestStorage } from '../rest.ts';
import { AccessReviewStorage } from './access.ts';
import { SelfSubjectReviewStorage, TokenReviewStorage } from './authentication.ts';
import { RulesReviewStorage } from './rules.ts';

export interface ReviewDeps {
  readonly authenticator: () => Authenticator;
  readonly authorizer: () => Authorizer;
  /** --api-audiences (TokenReview's default audiences). */
  readonly apiAudiences?: readonly string[];
  /** Clock for SelfSubjectReview's creationTimestamp (tests). */
  readonly now?: () => Date;
}

/** Storage for a virtual review def; undefined for defs that are not reviews. */
export function reviewStorageFor(def: ResourceDef, deps: ReviewDeps): RestStorage | undefined {
  if (def.group === 'authentication.k8s.io') {
    if (def.resource === 'tokenreviews') return new TokenReviewStorage(def, { authenticator: deps.authenticator, ...(deps.apiAudiences ? { apiAudiences: deps.apiAudiences } : {}) });
    if (def.resource === 'selfsubjectreviews') return new SelfSubjectReviewStorage(def, deps.now);
    return undefined;
  }
  if (def.group !== 'authorization.k8s.io') return undefined;
  switch (def.resource) {
    case 'subjectaccessreviews': return new AccessReviewStorage(def, 'SubjectAccessReview', deps);
    case 'localsubjectaccessreviews': return new AccessReviewStorage(def, 'LocalSubjectAccessReview', deps);
    case 'selfsubjectaccessreviews': return new AccessReviewStorage(def, 'SelfSubjectAccessReview', deps);
    case 'selfsubjectrulesreviews': return new RulesReviewStorage(def, deps);
    default: return undefined;
  }
}

/** A factory the registry calls for each virtual def (RegistryOptions.virtualStorage). */
export function reviewStorages(deps: ReviewDeps): (def: ResourceDef) => RestStorage | undefined {
  return (def) => reviewStorageFor(def, deps);
}
