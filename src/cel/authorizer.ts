/**
 * `authorizer` and `authorizer.requestResource` for admission expressions (kube's NewAuthorizerVal and
 * NewResourceAuthorizerVal). {@link withAuthorizer} runs a synchronous evaluation against an authorizer that may
 * answer asynchronously: checks the evaluation needs are recorded, asked, and the evaluation runs again with the
 * decisions known (each check is asked once per session; kube asks the same authorizer synchronously).
 */
import type { Attributes, Authorizer, Decision } from '../request/authorizer.ts';
import type { UserInfo } from '../machinery/objects.ts';
import type { CelType } from './contract.ts';
import { AUTHORIZER_TYPE, CelAuthorizer, CelResourceCheck, RESOURCE_CHECK_TYPE, type AuthzSessionLike } from './lib/authz.ts';

/** The two variables (kube declares them whenever HasAuthorizer). */
export function authorizerVariables(): Record<string, CelType> {
  return { authorizer: { opaque: AUTHORIZER_TYPE }, 'authorizer.requestResource': { opaque: RESOURCE_CHECK_TYPE } };
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

const attributesKey = (a: Attributes): string => JSON.stringify([
  a.user.username, a.user.uid ?? '', a.user.groups ?? [], a.user.extra ?? {}, a.verb, a.isResourceRequest, a.path, a.apiGroup,
  a.apiVersion, a.namespace, a.resource, a.subresource, a.name, a.fieldSelectorRequirements ?? null, a.fieldSelectorParsingError ?? null,
  a.labelSelectorRequirements ?? null, a.labelSelectorParsingError ?? null,
]);

class Session implements AuthzSessionLike {
  readonly #decisions = new Map<string, Decision>();
  readonly #pending = new Map<string, Attributes>();

  constructor(private readonly authorizer: Authorizer) {}

  decision(attrs: Attributes): Decision | undefined {
    const key = attributesKey(attrs);
    const d = this.#decisions.get(key);
    if (!d) this.#pending.set(key, attrs);
    return d;
  }

  get hasPending(): boolean {
    return this.#pending.size > 0;
  }

  async resolve(): Promise<void> {
    const pending = [...this.#pending];
    this.#pending.clear();
    await Promise.all(pending.map(async ([key, attrs]) => {
      let d: Decision;
      try {
        d = await this.authorizer.authorize(attrs);
      } catch (e) {
        d = { kind: 'no-opinion', reason: '', error: (e as Error)?.message ?? String(e) };
      }
      this.#decisions.set(key, d);
    }));
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
  const session = new Session(authorizer);
  const authz = new CelAuthorizer(session, user);
  const vars: Record<string, unknown> = { authorizer: authz };
  if (requestResource) {
    const r = requestResource;
    authz.requestResource = new CelResourceCheck(authz, r.group, r.resource, r.subresource, r.namespace, r.name);
    vars['authorizer.requestResource'] = authz.requestResource;
  }
  for (let round = 0; ; round++) {
    try {
      return evaluate(vars);
    } catch (e) {
      if (!session.hasPending || round >= MAX_ROUNDS) throw e;
      await session.resolve();
    }
  }
}
