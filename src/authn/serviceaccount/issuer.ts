/**
 * The token issuer shared by TokenRequest, the legacy token controller and the authenticators: one per
 * resolved options object, so start.ts (which needs it before the registry) and the authentication setup
 * (which runs after) see the same keys without passing them through the shared contracts.
 *
 * Tokens are compact JWS with header `{"alg","kid"}` and a payload whose keys are sorted at every level, as
 * go-jose writes kube's merged public and private claims.
 */
import { CompactSign } from 'jose';
import type { AuthnServerOptions } from '../options.ts';
import { loadServiceAccountKeys, parsePublicKeys, type ServiceAccountKeys } from './keys.ts';
import { LEGACY_ISSUER, serviceAccountConfig, type ServiceAccountConfig } from './config.ts';
import { readFile } from 'node:fs/promises';

export interface ServiceAccountIssuer {
  readonly config: ServiceAccountConfig;
  readonly keys: ServiceAccountKeys;
  /** Signs bound-token claims with `iss` = the first issuer. */
  signBound(claims: Record<string, unknown>): Promise<string>;
  /** Signs secret-based token claims with `iss` = `kubernetes/serviceaccount`. */
  signLegacy(claims: Record<string, unknown>): Promise<string>;
}

/** JSON value with object keys sorted recursively (Go marshals maps in key order). */
export function sortedJson(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedJson);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = sortedJson(x);
    }
    return out;
  }
  return v;
}

export function createIssuer(config: ServiceAccountConfig, keys: ServiceAccountKeys): ServiceAccountIssuer {
  const { signing } = keys;
  const sign = (claims: Record<string, unknown>, iss: string): Promise<string> => {
    const payload = new TextEncoder().encode(JSON.stringify(sortedJson({ ...claims, iss })));
    return new CompactSign(payload).setProtectedHeader({ alg: signing.alg, kid: signing.kid }).sign(signing.privateKey);
  };
  return {
    config,
    keys,
    signBound: (claims) => sign(claims, config.issuers[0]!),
    signLegacy: (claims) => sign(claims, LEGACY_ISSUER),
  };
}

const issuers = new WeakMap<AuthnServerOptions, Promise<ServiceAccountIssuer>>();

/**
 * The issuer for a server's options (memoized per options object). Without `--service-account-key-file`,
 * a `--tls-private-key-file` holding a usable key also verifies tokens, as kube-apiserver does.
 */
export function serviceAccountIssuer(o: AuthnServerOptions): Promise<ServiceAccountIssuer> {
  let p = issuers.get(o);
  if (!p) {
    p = (async () => {
      const config = serviceAccountConfig(o);
      const sa = o.serviceAccounts ?? {};
      let keyFiles = sa.keyFiles ?? [];
      if (!keyFiles.length && o.tlsPrivateKeyFile) {
        const usable = await readFile(o.tlsPrivateKeyFile, 'utf8').then((t) => parsePublicKeys(t).length > 0, () => false);
        if (usable) keyFiles = [o.tlsPrivateKeyFile];
      }
      const keys = await loadServiceAccountKeys({ keyFiles, ...(sa.signingKeyFile ? { signingKeyFile: sa.signingKeyFile } : {}), ...(o.certDir ? { certDir: o.certDir } : {}) });
      return createIssuer(config, keys);
    })();
    issuers.set(o, p);
  }
  return p;
}
