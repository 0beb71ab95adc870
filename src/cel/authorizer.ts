/**
 * `authorizer` (with `authorizer.requestResource`) for expressions outside admission policies, e.g. webhook match
 * conditions (kube's NewAuthorizerVal and NewResourceAuthorizerVal), on the authz library of lib/authz.ts.
 * {@link withAuthorizer} runs a synchronous evaluation against an authorizer that may answer asynchronously: the
 * checks an evaluation needs are asked, and the evaluation runs again with the decisions known (each check is
 * asked once per session; kube asks the same authorizer synchronously).
 */
import type { Authorizer } from '../request/authorizer.ts';
import type { UserInfo } from '../machinery/objects.ts';
import type { CelType } from './contract.ts';
import { CelAuthorizer, CelResourceCheck, type AuthzAnswer, type AuthzCheck, type CelAuthorizerBackend, selectorAttributes } from './lib/authz.ts';

/** The two variables (kube declares them whenever HasAuthorizer). */
export function authorizerVariables(): Record<string, CelType> {
  // `authorizer.requestResource` is a field of the authorizer value in lib/authz.ts.
  return { authorizer: { opaque: 'kubernetes.authorization.Authorizer' } };
}

/** The resource of the request for `authorizer.requestResource`. */
export interface RequestResourceSpec {
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}

/** An evaluation gives up after this many rounds of new checks (kube's cost budget allows far fewer checks). */
const MAX_ROUNDS = 32;

/**
 * One evaluation session's authorizer backend: each check is asked once and its answer kept; an answer that is
 * still computing is recorded in `pending` and the evaluation that needed it is run again once it is in.
 */
export class AuthorizerSession implements CelAuthorizerBackend {
  readonly #answers = new Map<string, AuthzAnswer>();
  readonly pending: Promise<unknown>[] = [];

  constructor(private readonly authorizer: Authorizer, protected readonly user: UserInfo) {}

  check(c: AuthzCheck): AuthzAnswer {
    const key = JSON.stringify(c);
    const known = this.#answers.get(key);
    if (known) return known;
    const user = c.serviceAccount
      ? { username: `system:serviceaccount:${c.serviceAccount.namespace}:${c.serviceAccount.name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${c.serviceAccount.namespace}`], uid: '', extra: {} }
      : this.user;
    const store = (d: { kind: string; reason?: string; error?: string }): AuthzAnswer => {
      const a: AuthzAnswer = { decision: d.kind === 'allow' ? 'allow' : d.kind === 'deny' ? 'deny' : 'no-opinion', reason: d.reason ?? '', error: d.error ?? '' };
      this.#answers.set(key, a);
      return a;
    };
    let out;
    try {
      out = this.authorizer.authorize({
        user, verb: c.verb, isResourceRequest: c.isResourceRequest, path: c.path, apiGroup: c.apiGroup, apiVersion: '*', namespace: c.namespace,
        resource: c.resource, subresource: c.subresource, name: c.name, ...selectorAttributes(c),
      });
    } catch (e) {
      return store({ kind: 'no-opinion', error: (e as Error)?.message ?? String(e) });
    }
    if (out instanceof Promise) {
      this.pending.push(out.then(store, (e: unknown) => store({ kind: 'no-opinion', error: (e as Error)?.message ?? String(e) })));
      // A placeholder until the answer is in; that evaluation is thrown away and run again.
      return { decision: 'no-opinion', reason: '', error: 'pending' };
    }
    return store(out);
  }
}

/**
 * Runs `evaluate` with the authorizer variables bound (none when `authorizer` is undefined: expressions using
 * them then fail to evaluate); evaluation errors caused by a decision not yet known are retried once it is.
 */
export async function withAuthorizer<T>(
  authorizer: Authorizer | undefined, user: UserInfo, requestResource: RequestResourceSpec | undefined,
  evaluate: (vars: Record<string, unknown>) => T,
): Promise<T> {
  if (!authorizer) return evaluate({});
  const session = new AuthorizerSession(authorizer, user);
  const authz = new CelAuthorizer(session);
  if (requestResource) {
    const r = requestResource;
    authz.requestResource = new CelResourceCheck(authz, r.group, r.resource, r.subresource, r.namespace, r.name);
  }
  const vars: Record<string, unknown> = { authorizer: authz };
  for (let round = 0; ; round++) {
    let out: T | undefined;
    let failure: unknown;
    let failed = false;
    try {
      out = evaluate(vars);
    } catch (e) {
      failed = true;
      failure = e;
    }
    if (session.pending.length === 0 || round >= MAX_ROUNDS) {
      if (failed) throw failure;
      return out as T;
    }
    await Promise.all(session.pending.splice(0));
  }
}
