/**
 * authorization.k8s.io access reviews, as pkg/registry/authorization does them: validate (422), build the
 * authorizer attributes from the spec (SubjectAccessReview/LocalSubjectAccessReview: the user named in the spec;
 * SelfSubjectAccessReview: the caller), ask the configured authorizer chain (system:masters bypass included) and
 * answer status.allowed / denied / reason / evaluationError. An empty resourceAttributes.version means every version (`*`).
 */
import type { KObject, UserInfo } from '../../machinery/objects.ts';
import type { ResourceDef } from '../../api/types.ts';
import type { Attributes, Authorizer } from '../../request/authorizer.ts';
import { errors } from '../../machinery/errors.ts';
import type { OpContext } from '../rest.ts';
import { ReviewStorage, specOf, str, strList } from './base.ts';
import { evaluationError } from './selectors.ts';
import { selectorAttributesFrom } from './selector-attributes.ts';
import { invalidReview, validateLocalSubjectAccessReview, validateSelfSubjectAccessReview, validateSubjectAccessReview, type Spec } from './validation.ts';

export interface AccessReviewOptions {
  readonly authorizer: () => Authorizer;
}

/** kube's ResourceAttributesFrom / NonResourceAttributesFrom. */
export function attributesFrom(user: UserInfo, spec: Spec): Attributes {
  const ra = spec.resourceAttributes as Record<string, unknown> | undefined;
  if (ra && typeof ra === 'object') {
    return {
      user, verb: str(ra.verb), isResourceRequest: true, path: '', apiGroup: str(ra.group), apiVersion: str(ra.version) || '*',
      namespace: str(ra.namespace), resource: str(ra.resource), subresource: str(ra.subresource), name: str(ra.name),
      ...selectorAttributesFrom(ra),
    };
  }
  const nra = (spec.nonResourceAttributes ?? {}) as Record<string, unknown>;
  return { user, verb: str(nra.verb), isResourceRequest: false, path: str(nra.path), apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '' };
}

/** The user a (Local)SubjectAccessReview asks about. */
function specUser(spec: Spec): UserInfo {
  const u: UserInfo = { username: str(spec.user), groups: strList(spec.groups) };
  if (str(spec.uid)) u.uid = str(spec.uid);
  const extra = spec.extra;
  if (extra && typeof extra === 'object' && !Array.isArray(extra)) {
    u.extra = Object.fromEntries(Object.entries(extra as Record<string, unknown>).map(([k, v]) => [k, strList(v)]));
  }
  return u;
}

/** SubjectAccessReviewStatus as v1 writes it: allowed always; denied, reason, evaluationError when set. */
async function decide(authorizer: Authorizer, attrs: Attributes, spec: Spec): Promise<Record<string, unknown>> {
  const status: Record<string, unknown> = { allowed: false };
  let failure: string | undefined;
  try {
    const d = await authorizer.authorize(attrs);
    status.allowed = d.kind === 'allow';
    if (d.kind === 'deny') status.denied = true;
    if (d.reason) status.reason = d.reason;
    if (d.error) failure = d.error;
  } catch (e) {
    failure = e instanceof Error ? e.message : String(e);
  }
  const evaluation = evaluationError(failure, spec.resourceAttributes);
  if (evaluation) status.evaluationError = evaluation;
  return status;
}

type Kind = 'SubjectAccessReview' | 'LocalSubjectAccessReview' | 'SelfSubjectAccessReview';

export class AccessReviewStorage extends ReviewStorage {
  constructor(def: ResourceDef, private readonly kind: Kind, private readonly opts: AccessReviewOptions) {
    super(def);
  }

  async create(ctx: OpContext, obj: KObject): Promise<KObject> {
    const spec = specOf(obj);
    const meta = (obj.metadata ?? {}) as Record<string, unknown>;
    let user: UserInfo;
    switch (this.kind) {
      case 'SubjectAccessReview': {
        const errs = validateSubjectAccessReview(spec, meta);
        if (errs.length) throw invalidReview(errs);
        user = specUser(spec);
        break;
      }
      case 'LocalSubjectAccessReview': {
        const errs = validateLocalSubjectAccessReview(spec, meta);
        if (errs.length) throw invalidReview(errs);
        if (!ctx.namespace) throw errors.badRequest(`namespace is required on this type: ${ctx.namespace}`);
        if (ctx.namespace !== (meta.namespace ?? '')) throw errors.badRequest(`spec.resourceAttributes.namespace must match namespace: ${ctx.namespace}`);
        user = specUser(spec);
        break;
      }
      default: {
        const errs = validateSelfSubjectAccessReview(spec, meta);
        if (errs.length) throw invalidReview(errs);
        user = ctx.user;
      }
    }
    const status = await decide(this.opts.authorizer(), attributesFrom(user, spec), spec);
    return this.envelope(obj, { spec: obj.spec ?? {}, status });
  }
}
