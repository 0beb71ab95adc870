/**
 * authentication.k8s.io reviews, as k8s.io/kubernetes pkg/registry/authentication does them:
 *   SelfSubjectReview: the caller's own user info (after impersonation), with creationTimestamp now;
 *   TokenReview: spec.token is presented as `Authorization: Bearer <token>` to the request authenticator
 *   (the same chain requests go through); status.authenticated / user / audiences / error.
 */
import type { KObject } from '../../machinery/objects.ts';
import type { ResourceDef } from '../../api/types.ts';
import type { Authenticator } from '../../request/authenticator.ts';
import { errors } from '../../machinery/errors.ts';
import type { OpContext } from '../rest.ts';
import { ReviewStorage, specOf, strList, wireUser } from './base.ts';

export class SelfSubjectReviewStorage extends ReviewStorage {
  constructor(def: ResourceDef, private readonly now: () => Date = () => new Date()) {
    super(def);
  }

  create(ctx: OpContext): Promise<KObject> {
    // kube builds a fresh object: the request's metadata and spec are not echoed.
    const ts = this.now().toISOString().replace(/\.\d+Z$/, 'Z');
    return Promise.resolve(this.envelope({ metadata: { creationTimestamp: ts } as KObject['metadata'] }, { status: { userInfo: wireUser(ctx.user) } }));
  }
}

export interface TokenReviewOptions {
  /** The request authenticator (x509 finds no certificate here; anonymous never answers a presented token). */
  readonly authenticator: () => Authenticator;
  /** --api-audiences: the audiences tokens are checked for when the review names none. */
  readonly apiAudiences?: readonly string[];
}

export class TokenReviewStorage extends ReviewStorage {
  constructor(def: ResourceDef, private readonly opts: TokenReviewOptions) {
    super(def);
  }

  async create(_ctx: OpContext, obj: KObject): Promise<KObject> {
    const spec = specOf(obj);
    const token = typeof spec.token === 'string' ? spec.token : '';
    if (!token) throw errors.badRequest('token is required for TokenReview in authentication');
    const requested = strList(spec.audiences);
    const apiAudiences = this.opts.apiAudiences ?? [];
    const auds = requested.length ? requested : [...apiAudiences];
    const r = await this.opts.authenticator().authenticate({
      header: (n) => (n.toLowerCase() === 'authorization' ? `Bearer ${token}` : undefined),
      path: '/',
      ...(requested.length ? { audiences: requested } : {}),
    });
    const status: Record<string, unknown> = {};
    // Audience-aware authenticators (bound service account tokens) answer with the audiences they granted.
    // The others are audience-agnostic (kube wraps such ones): their tokens are valid for the API audiences
    // only, so a review asking for other audiences is not authenticated.
    const granted = r.kind === 'authenticated' && r.audiences ? [...r.audiences] : auds.length ? auds.filter((a) => apiAudiences.includes(a)) : [];
    const audienceOk = auds.length === 0 || granted.length > 0;
    if (r.kind === 'authenticated' && audienceOk) {
      status.authenticated = true;
      status.user = wireUser(r.user);
      if (granted.length) status.audiences = granted;
    } else {
      status.user = {};
      if (r.kind === 'error') status.error = r.message;
    }
    return this.envelope(obj, { spec: obj.spec ?? {}, status });
  }
}
