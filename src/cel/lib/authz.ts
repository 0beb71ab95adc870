/**
 * kube's authorizer library (apiserver/pkg/cel/library/authz.go) for admission expressions: the `authorizer`
 * variable (`kubernetes.authorization.Authorizer`) builds checks —
 *   authorizer.path('/healthz').check('get')
 *   authorizer.group('apps').resource('deployments').subresource('scale').namespace('ns').name('n').check('update')
 *   authorizer.serviceAccount('ns', 'sa').group('')…   (the same checks as that service account)
 *   authorizer.requestResource.check('delete')          (the request's own resource, as a ResourceCheck)
 * and a check returns a `kubernetes.authorization.Decision` with allowed(), reason(), errored(), error().
 * fieldSelector/labelSelector (kube's AuthzSelectors) narrow a resource check.
 *
 * The decision comes from a `CelAuthorizerBackend` the caller supplies. CEL evaluation is synchronous here, so
 * a backend whose answer is not known yet (an authorizer returning a promise) throws `AuthzPending`; the caller
 * awaits the pending answers, caches them and evaluates again (CEL is pure, so the second run is the same
 * expression with the answers known). Each check costs 350000 (kube: at most two checks in one expression
 * under the per-call limit), the builders 1.
 */
import { charge, chargeTraversal } from '../runtime-cost.ts';
import type { Attributes } from '../../request/authorizer.ts';
import { parseFieldSelector } from '../../machinery/selectors/fields.ts';
import { parseLabelSelector } from '../../machinery/selectors/labels.ts';
import { isDNS1123Label, isDNS1123Subdomain } from '../../machinery/validation/names.ts';
import { celError, fn, opaqueType, type CelJsEnv } from './register.ts';

/** What a check asks (kube's authorizer.AttributesRecord, the user implied by the backend). */
export interface AuthzCheck {
  /** The user: undefined for the request's user, else the service account's `system:serviceaccount:<ns>:<name>`. */
  readonly serviceAccount?: { readonly namespace: string; readonly name: string };
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  readonly fieldSelector: string;
  readonly labelSelector: string;
}

export interface AuthzAnswer {
  readonly decision: 'allow' | 'deny' | 'no-opinion';
  readonly reason: string;
  readonly error: string;
}

export interface CelAuthorizerBackend {
  /** The answer, or throws AuthzPending while it is being computed. */
  check(c: AuthzCheck): AuthzAnswer;
}

/** Thrown out of an evaluation whose authorization answers are not all known yet. */
export class AuthzPending extends Error {
  override name = 'AuthzPending';
  constructor(readonly wait: Promise<unknown>) {
    super('authorization check pending');
  }
}

export class CelAuthorizer {
  /**
   * kube's `authorizer.requestResource` (declared there as a variable of that dotted name): a check of the
   * request's own group, resource, sub-resource, namespace and name. Here a field of the authorizer.
   */
  requestResource: CelResourceCheck | undefined;
  constructor(readonly backend: CelAuthorizerBackend, readonly serviceAccount?: { namespace: string; name: string }) {}
}
export class CelPathCheck {
  constructor(readonly authz: CelAuthorizer, readonly path: string) {}
}
export class CelGroupCheck {
  constructor(readonly authz: CelAuthorizer, readonly group: string) {}
}
export class CelResourceCheck {
  constructor(
    readonly authz: CelAuthorizer,
    readonly group: string,
    readonly resource: string,
    readonly subresource = '',
    readonly namespace = '',
    readonly name = '',
    readonly fieldSelector = '',
    readonly labelSelector = '',
  ) {}
  with(f: Partial<Pick<CelResourceCheck, 'subresource' | 'namespace' | 'name' | 'fieldSelector' | 'labelSelector'>>): CelResourceCheck {
    return new CelResourceCheck(this.authz, this.group, this.resource, f.subresource ?? this.subresource, f.namespace ?? this.namespace,
      f.name ?? this.name, f.fieldSelector ?? this.fieldSelector, f.labelSelector ?? this.labelSelector);
  }
}
export class CelDecision {
  constructor(readonly answer: AuthzAnswer) {}
}

/** A check's selectors as the authorizer attributes carry them: parsed requirements, or the parse error. */
export function selectorAttributes(c: AuthzCheck): Pick<Attributes, 'fieldSelectorRequirements' | 'fieldSelectorParsingError' | 'labelSelectorRequirements' | 'labelSelectorParsingError'> {
  const out: { -readonly [K in 'fieldSelectorRequirements' | 'fieldSelectorParsingError' | 'labelSelectorRequirements' | 'labelSelectorParsingError']?: Attributes[K] } = {};
  if (c.fieldSelector) {
    try {
      out.fieldSelectorRequirements = parseFieldSelector(c.fieldSelector).requirements;
    } catch (e) {
      out.fieldSelectorParsingError = (e as Error).message;
    }
  }
  if (c.labelSelector) {
    try {
      out.labelSelectorRequirements = parseLabelSelector(c.labelSelector).requirements;
    } catch (e) {
      out.labelSelectorParsingError = (e as Error).message;
    }
  }
  return out;
}

/** kube's cost of one authorization check. */
export const AUTHZ_CHECK_COST = 350_000;

function decide(authz: CelAuthorizer, c: Omit<AuthzCheck, 'serviceAccount'>): CelDecision {
  charge(AUTHZ_CHECK_COST);
  return new CelDecision(authz.backend.check(authz.serviceAccount ? { ...c, serviceAccount: authz.serviceAccount } : c));
}

const NONE = { path: '', apiGroup: '', resource: '', subresource: '', namespace: '', name: '', fieldSelector: '', labelSelector: '' };

/** kube's JSONPatch library: `jsonpatch.escapeKey` escapes `~` and `/` for a JSON Pointer segment. */
class JsonPatchNamespace {}
export function registerJsonPatch(env: CelJsEnv): void {
  env.registerType('JsonPatchNamespace', JsonPatchNamespace);
  env.registerConstant('jsonpatch', 'JsonPatchNamespace', new JsonPatchNamespace());
  fn(env, 'JsonPatchNamespace.escapeKey(string): string', (_ns: unknown, k: string) => {
    chargeTraversal(k.length);
    return k.replaceAll('~', '~0').replaceAll('/', '~1');
  });
}

export function registerAuthz(env: CelJsEnv): void {
  const A = 'kubernetes.authorization.Authorizer';
  const P = 'kubernetes.authorization.PathCheck';
  const G = 'kubernetes.authorization.GroupCheck';
  const R = 'kubernetes.authorization.ResourceCheck';
  const D = 'kubernetes.authorization.Decision';
  opaqueType(env, P, CelPathCheck);
  opaqueType(env, G, CelGroupCheck);
  opaqueType(env, R, CelResourceCheck);
  opaqueType(env, D, CelDecision);
  env.registerType(A, { ctor: CelAuthorizer, fields: { requestResource: R } } as never);
  fn(env, `${A}.path(string): ${P}`, (a: CelAuthorizer, p: string) => {
    if (p.trim() === '') throw celError('path must not be empty');
    return new CelPathCheck(a, p);
  });
  fn(env, `${A}.group(string): ${G}`, (a: CelAuthorizer, g: string) => new CelGroupCheck(a, g));
  fn(env, `${A}.serviceAccount(string, string): ${A}`, (a: CelAuthorizer, namespace: string, name: string) => {
    if (isDNS1123Subdomain(name).length) throw celError('Invalid service account name');
    if (isDNS1123Label(namespace).length) throw celError('Invalid service account namespace');
    return new CelAuthorizer(a.backend, { namespace, name });
  });
  fn(env, `${G}.resource(string): ${R}`, (g: CelGroupCheck, r: string) => {
    if (r.trim() === '') throw celError('resource must not be empty');
    return new CelResourceCheck(g.authz, g.group, r);
  });
  fn(env, `${R}.subresource(string): ${R}`, (r: CelResourceCheck, s: string) => r.with({ subresource: s }));
  fn(env, `${R}.namespace(string): ${R}`, (r: CelResourceCheck, s: string) => r.with({ namespace: s }));
  fn(env, `${R}.name(string): ${R}`, (r: CelResourceCheck, s: string) => r.with({ name: s }));
  fn(env, `${R}.fieldSelector(string): ${R}`, (r: CelResourceCheck, s: string) => r.with({ fieldSelector: s }));
  fn(env, `${R}.labelSelector(string): ${R}`, (r: CelResourceCheck, s: string) => r.with({ labelSelector: s }));
  fn(env, `${P}.check(string): ${D}`, (p: CelPathCheck, verb: string) => decide(p.authz, { ...NONE, verb, isResourceRequest: false, path: p.path }));
  fn(env, `${R}.check(string): ${D}`, (r: CelResourceCheck, verb: string) => decide(r.authz, {
    ...NONE, verb, isResourceRequest: true, apiGroup: r.group, resource: r.resource, subresource: r.subresource, namespace: r.namespace,
    name: r.name, fieldSelector: r.fieldSelector, labelSelector: r.labelSelector,
  }));
  fn(env, `${D}.allowed(): bool`, (d: CelDecision) => d.answer.decision === 'allow');
  fn(env, `${D}.reason(): string`, (d: CelDecision) => d.answer.reason);
  fn(env, `${D}.errored(): bool`, (d: CelDecision) => d.answer.error !== '');
  fn(env, `${D}.error(): string`, (d: CelDecision) => d.answer.error);
}
