/**
 * kube's authz library (apiserver/pkg/cel/library/authz.go) and its selector extension: `authorizer.path(p)`,
 * `authorizer.group(g).resource(r)[.subresource(s)][.namespace(ns)][.name(n)][.fieldSelector(f)]
 * [.labelSelector(l)].check(verb)`, `authorizer.serviceAccount(ns, name)`, and the Decision accessors
 * `allowed()`, `reason()`, `errored()`, `error()`. A check costs 350000 (kube's fixed authorization cost).
 *
 * Authorizers answer asynchronously and CEL evaluates synchronously, so a check runs against a session
 * (src/cel/authorizer.ts): a decision the session already has is returned; an unknown one is recorded and the
 * evaluation fails with {@link PendingAuthorization}, and the session's caller asks the authorizer and evaluates
 * again. CEL's error-absorbing `&&`, `||` and comprehensions make a result reached without a pending decision the
 * same result the decision would have given.
 */
import type { Attributes, Decision } from '../../request/authorizer.ts';
import type { UserInfo } from '../../machinery/objects.ts';
import { parseFieldSelector } from '../../machinery/selectors/fields.ts';
import { parseLabelSelector } from '../../machinery/selectors/labels.ts';
import { isDNS1123Label, isDNS1123Subdomain } from '../../machinery/validation/names.ts';
import { charge } from '../runtime-cost.ts';
import { celError, fn, opaqueType, type CelJsEnv } from './register.ts';

export const AUTHORIZER_TYPE = 'kubernetes.authorization.Authorizer';
export const PATH_CHECK_TYPE = 'kubernetes.authorization.PathCheck';
export const GROUP_CHECK_TYPE = 'kubernetes.authorization.GroupCheck';
export const RESOURCE_CHECK_TYPE = 'kubernetes.authorization.ResourceCheck';
export const DECISION_TYPE = 'kubernetes.authorization.Decision';

/** kube's fixed cost of one authorization check. */
export const AUTHZ_CHECK_COST = 350_000;

/** Thrown by a check whose decision the session does not have yet. */
export class PendingAuthorization extends Error {
  override name = 'PendingAuthorization';
}

/** Decisions of one evaluation (src/cel/authorizer.ts fills them). */
export interface AuthzSessionLike {
  decision(attrs: Attributes): Decision | undefined;
}

export class CelAuthorizer {
  /** `authorizer.requestResource` (a check on the request's own resource), when the environment has one. */
  requestResource?: CelResourceCheck;
  constructor(readonly session: AuthzSessionLike, readonly user: UserInfo) {}
}

export class CelPathCheck {
  constructor(readonly authz: CelAuthorizer, readonly path: string) {}
}

export class CelGroupCheck {
  constructor(readonly authz: CelAuthorizer, readonly group: string) {}
}

export class CelResourceCheck {
  constructor(
    readonly authz: CelAuthorizer, readonly group: string, readonly resource: string, readonly subresource = '',
    readonly namespace = '', readonly name = '', readonly fieldSelector = '', readonly labelSelector = '',
  ) {}

  with(o: Partial<Pick<CelResourceCheck, 'subresource' | 'namespace' | 'name' | 'fieldSelector' | 'labelSelector'>>): CelResourceCheck {
    const v = { ...this, ...o };
    return new CelResourceCheck(this.authz, v.group, v.resource, v.subresource, v.namespace, v.name, v.fieldSelector, v.labelSelector);
  }
}

export class CelDecision {
  constructor(readonly d: Decision) {}
}

function decide(authz: CelAuthorizer, attrs: Attributes): CelDecision {
  charge(AUTHZ_CHECK_COST - 1);
  const d = authz.session.decision(attrs);
  if (!d) throw new PendingAuthorization('authorization decision pending');
  return new CelDecision(d);
}

function resourceAttributes(c: CelResourceCheck, verb: string): Attributes {
  const a: { -readonly [K in keyof Attributes]?: Attributes[K] } = {
    user: c.authz.user, verb, isResourceRequest: true, path: '', apiGroup: c.group, apiVersion: '*',
    namespace: c.namespace, resource: c.resource, subresource: c.subresource, name: c.name,
  };
  if (c.fieldSelector) {
    try {
      a.fieldSelectorRequirements = parseFieldSelector(c.fieldSelector).requirements;
    } catch (e) {
      a.fieldSelectorParsingError = (e as Error).message;
    }
  }
  if (c.labelSelector) {
    try {
      a.labelSelectorRequirements = parseLabelSelector(c.labelSelector).requirements;
    } catch (e) {
      a.labelSelectorParsingError = (e as Error).message;
    }
  }
  return a as Attributes;
}

export function registerAuthz(env: CelJsEnv): void {
  opaqueType(env, AUTHORIZER_TYPE, CelAuthorizer);
  opaqueType(env, PATH_CHECK_TYPE, CelPathCheck);
  opaqueType(env, GROUP_CHECK_TYPE, CelGroupCheck);
  opaqueType(env, RESOURCE_CHECK_TYPE, CelResourceCheck);
  opaqueType(env, DECISION_TYPE, CelDecision);
  fn(env, `${AUTHORIZER_TYPE}.path(string): ${PATH_CHECK_TYPE}`, (a: CelAuthorizer, p: string) => {
    if (p.trim() === '') throw celError('path must not be empty');
    return new CelPathCheck(a, p);
  });
  fn(env, `${AUTHORIZER_TYPE}.group(string): ${GROUP_CHECK_TYPE}`, (a: CelAuthorizer, g: string) => new CelGroupCheck(a, g));
  fn(env, `${AUTHORIZER_TYPE}.serviceAccount(string, string): ${AUTHORIZER_TYPE}`, (a: CelAuthorizer, ns: string, name: string) => {
    if (isDNS1123Subdomain(name).length) throw celError('Invalid service account name');
    if (isDNS1123Label(ns).length) throw celError('Invalid service account namespace');
    return new CelAuthorizer(a.session, {
      username: `system:serviceaccount:${ns}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`],
    });
  });
  fn(env, `${GROUP_CHECK_TYPE}.resource(string): ${RESOURCE_CHECK_TYPE}`, (g: CelGroupCheck, r: string) => {
    if (r.trim() === '') throw celError('resource must not be empty');
    return new CelResourceCheck(g.authz, g.group, r);
  });
  for (const part of ['subresource', 'namespace', 'name', 'fieldSelector', 'labelSelector'] as const) {
    fn(env, `${RESOURCE_CHECK_TYPE}.${part}(string): ${RESOURCE_CHECK_TYPE}`, (c: CelResourceCheck, v: string) => c.with({ [part]: v }));
  }
  fn(env, `${PATH_CHECK_TYPE}.check(string): ${DECISION_TYPE}`, (p: CelPathCheck, verb: string) =>
    decide(p.authz, { user: p.authz.user, verb, isResourceRequest: false, path: p.path, apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '' }));
  fn(env, `${RESOURCE_CHECK_TYPE}.check(string): ${DECISION_TYPE}`, (c: CelResourceCheck, verb: string) => decide(c.authz, resourceAttributes(c, verb)));
  fn(env, `${DECISION_TYPE}.allowed(): bool`, (d: CelDecision) => d.d.kind === 'allow');
  fn(env, `${DECISION_TYPE}.reason(): string`, (d: CelDecision) => d.d.reason ?? '');
  fn(env, `${DECISION_TYPE}.errored(): bool`, (d: CelDecision) => d.d.error !== undefined && d.d.error !== '');
  fn(env, `${DECISION_TYPE}.error(): string`, (d: CelDecision) => d.d.error ?? '');
}
