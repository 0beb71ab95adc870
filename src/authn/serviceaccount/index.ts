/**
 * Service account tokens (legacy secret-based and bound TokenRequest tokens), the issuer discovery documents,
 * and bootstrap tokens — kube-apiserver's order among token authenticators: service accounts (legacy, then
 * bound), then bootstrap tokens when `--enable-bootstrap-token-auth` is on.
 *
 * The key material comes from `serviceAccountIssuer(options)` (memoized per options object): start.ts builds
 * it before the registry so TokenRequest and the token controller sign with the same keys these verify.
 */
import type { KObject } from '../../machinery/objects.ts';
import type { AuthenticationDeps, AuthenticationPart } from '../deps.ts';
import type { TokenAuthenticator } from '../../request/authenticator.ts';
import { bootstrapTokenAuthenticator, BOOTSTRAP_NAMESPACE } from '../bootstrap-token.ts';
import { systemContext } from '../../registry/system-context.ts';
import { jwtTokenAuthenticator } from './authenticator.ts';
import { validateBound } from './claims.ts';
import { LEGACY_ISSUER } from './config.ts';
import { discoveryEndpoints, discoveryProblem } from './discovery.ts';
import { registryGetter } from './getter.ts';
import { serviceAccountIssuer } from './issuer.ts';
import { LAST_USED_LABEL, validateLegacy } from './legacy.ts';

export { serviceAccountIssuer, type ServiceAccountIssuer } from './issuer.ts';
export { generateSigningKeyAhead } from './keys.ts';

export async function serviceAccountAuthentication(deps: AuthenticationDeps): Promise<AuthenticationPart> {
  const issuer = await serviceAccountIssuer(deps.options);
  const { config, keys } = issuer;
  const getter = registryGetter(deps.registry);
  const secrets = deps.registry.lookup('', 'v1', 'secrets');
  const markUsed = async (secret: KObject, today: string): Promise<void> => {
    if (!secrets) return;
    try {
      // A merge-style label update guarded by the uid (kube patches with the uid in the body).
      await secrets.guaranteedUpdate(systemContext({ namespace: secret.metadata.namespace ?? '' }), secret.metadata.name ?? '', (cur) => {
        if (!cur || cur.metadata.uid !== secret.metadata.uid) throw new Error('secret changed');
        return { ...cur, metadata: { ...cur.metadata, labels: { ...(cur.metadata.labels ?? {}), [LAST_USED_LABEL]: today } } };
      }, {});
    } catch (err) {
      deps.log(`Failed to label legacy service account token ${secret.metadata.namespace}/${secret.metadata.name} with last-used date, err: ${(err as Error).message}`);
    }
  };

  const tokens: TokenAuthenticator[] = [
    jwtTokenAuthenticator({
      name: 'serviceaccount-legacy', issuers: [LEGACY_ISSUER], keys: keys.verifying, implicitAudiences: config.apiAudiences, log: deps.log,
      validate: (claims, token) => validateLegacy(claims, token, { lookup: config.lookup, getter, markUsed }),
    }),
    jwtTokenAuthenticator({
      name: 'serviceaccount', issuers: config.issuers, keys: keys.verifying, implicitAudiences: config.apiAudiences, log: deps.log,
      validate: (claims) => validateBound(claims, getter),
    }),
  ];
  if (deps.options.enableBootstrapTokenAuth) {
    tokens.push(bootstrapTokenAuthenticator({ getSecret: (name) => getter.get('secrets', BOOTSTRAP_NAMESPACE, name), log: deps.log }));
  }

  const issuerUrl = config.issuers[0]!;
  const problem = discoveryProblem(issuerUrl);
  if (problem) deps.log(`service account issuer discovery is not served: ${problem}`);
  const endpoints = problem ? [] : discoveryEndpoints({
    issuer: issuerUrl, keys: keys.verifying, externalHost: deps.options.advertiseAddress, ...(config.jwksUri ? { jwksUri: config.jwksUri } : {}),
  });
  return { tokens, endpoints };
}
