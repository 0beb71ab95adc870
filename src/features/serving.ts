/**
 * Feature gates that change how requests are served, copied onto each request's context so handlers read a
 * plain field instead of holding the gates:
 *   APIResponseCompression=false       → ctx.responseCompression = false (no gzip);
 *   CBORServingAndStorage=true         → ctx.cborServing = true (application/cbor, cbor-seq watches, CBOR apply);
 *   AllowUnsafeMalformedObjectDeletion → ctx.unsafeMalformedObjectDeletion = true (deleting corrupt objects).
 * With every gate at its default the endpoints are returned unwrapped.
 */
import type { Authorizer } from '../request/authorizer.ts';
import type { Endpoint, RequestContext } from '../request/context.ts';
import type { FeatureGateReader } from './gates.ts';

export interface ServingSwitches {
  readonly responseCompression: boolean;
  readonly cborServing: boolean;
  readonly unsafeMalformedObjectDeletion: boolean;
}

export function servingSwitches(gates: FeatureGateReader): ServingSwitches {
  return {
    responseCompression: gates.enabled('APIResponseCompression'),
    cborServing: gates.enabled('CBORServingAndStorage'),
    unsafeMalformedObjectDeletion: gates.enabled('AllowUnsafeMalformedObjectDeletion'),
  };
}

export interface ServingDeps {
  /** The request chain's authorizer (created after the endpoints): for the unsafe-delete verb check. */
  readonly authorizer?: () => Authorizer;
}

/** Sets the switches that differ from the defaults on a request context. */
export function applyServingSwitches(ctx: RequestContext, s: ServingSwitches, deps: ServingDeps = {}): void {
  if (!s.responseCompression) ctx.responseCompression = false;
  if (s.cborServing) ctx.cborServing = true;
  if (s.unsafeMalformedObjectDeletion) {
    ctx.unsafeMalformedObjectDeletion = true;
    if (deps.authorizer) ctx.unsafeDeleteAuthorizer = deps.authorizer();
  }
}

/** The endpoints, wrapped to set the gates' switches on every request when any differs from its default. */
export function withServingGates(gates: FeatureGateReader, endpoints: readonly Endpoint[], deps: ServingDeps = {}): Endpoint[] {
  const s = servingSwitches(gates);
  if (s.responseCompression && !s.cborServing && !s.unsafeMalformedObjectDeletion) return [...endpoints];
  return endpoints.map((e): Endpoint => (ctx) => {
    applyServingSwitches(ctx, s, deps);
    return e(ctx);
  });
}
