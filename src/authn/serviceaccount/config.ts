/**
 * The service account settings after defaults and kube-apiserver's checks:
 * issuers default to `https://kubernetes.default.svc.cluster.local`, `--api-audiences` to the issuers,
 * `--service-account-lookup` and `--service-account-extend-token-expiration` to true, and a max token
 * expiration, when set, must lie between 1 hour and 2^32 seconds.
 */
import type { AuthenticationOptions } from '../options.ts';

export const DEFAULT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
/** `iss` of secret-based (legacy) tokens. */
export const LEGACY_ISSUER = 'kubernetes/serviceaccount';
/** kube's MaxTokenAgeSec: 2^32 seconds. */
export const MAX_TOKEN_AGE_SECONDS = 2 ** 32;

export interface ServiceAccountConfig {
  /** Never empty; the first signs new tokens. */
  readonly issuers: readonly string[];
  readonly apiAudiences: readonly string[];
  readonly lookup: boolean;
  /** 0 = no maximum. */
  readonly maxExpirationSeconds: number;
  readonly extendExpiration: boolean;
  readonly jwksUri?: string;
}

export function serviceAccountConfig(o: AuthenticationOptions): ServiceAccountConfig {
  const sa = o.serviceAccounts ?? {};
  const issuers = sa.issuers?.length ? [...sa.issuers] : [DEFAULT_ISSUER];
  for (const iss of issuers) {
    if (!iss) throw new Error('--service-account-issuer: service-account-issuer should not be an empty string');
    // kube: an issuer holding a colon must be a URL.
    if (iss.includes(':') && !URL.canParse(iss)) throw new Error(`--service-account-issuer: service-account-issuer ${JSON.stringify(iss)} contained a ':' but was not a valid URL`);
  }
  if (new Set(issuers).size !== issuers.length) throw new Error('--service-account-issuer: service-account-issuer must not contain duplicates');
  const maxMs = sa.maxTokenExpirationMs ?? 0;
  if (maxMs !== 0 && (maxMs < 3_600_000 || maxMs > MAX_TOKEN_AGE_SECONDS * 1000)) {
    throw new Error('--service-account-max-token-expiration: the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
  }
  if (sa.jwksUri !== undefined && sa.jwksUri !== '') {
    let u: URL | undefined;
    try {
      u = new URL(sa.jwksUri);
    } catch {
      u = undefined;
    }
    if (!u || u.protocol !== 'https:') throw new Error('--service-account-jwks-uri: service-account-jwks-uri requires https scheme');
  }
  return {
    issuers,
    apiAudiences: o.apiAudiences?.length ? [...o.apiAudiences] : [...issuers],
    lookup: sa.lookup ?? true,
    maxExpirationSeconds: Math.floor(maxMs / 1000),
    extendExpiration: sa.extendTokenExpiration ?? true,
    ...(sa.jwksUri ? { jwksUri: sa.jwksUri } : {}),
  };
}
