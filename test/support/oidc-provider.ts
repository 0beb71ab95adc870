/**
 * A tiny OpenID provider for tests: HTTPS on 127.0.0.1 (port 0) with a CA made for the test, serving
 * discovery at `<issuer>/.well-known/openid-configuration` (and at `/alt/discovery` for discoveryURL tests)
 * and the JWKS at `<issuer>/keys`; signs ID tokens with jose.
 *
 * ```ts
 * const idp = await startOidcProvider();
 * const token = await idp.token({ sub: 'jane' });   // iss, aud 'keelson', exp in an hour
 * await idp.stop();
 * ```
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { createCa, issue, type Issued } from '../../src/controlplane/certs.ts';

export interface SigningKey {
  readonly kid: string;
  readonly alg: string;
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
}

export interface TestOidcProvider {
  /** The issuer URL (`https://127.0.0.1:<port>/oidc`). */
  readonly url: string;
  /** The CA that signed the provider's serving certificate. */
  readonly caPem: string;
  readonly ca: Issued;
  /** The default audience of `token()`. */
  readonly audience: string;
  /** Keys published in the JWKS (the first signs by default). */
  keys: SigningKey[];
  /** What discovery reports as `issuer` (default: url). */
  discoveredIssuer?: string;
  /** While true every request gets 503. */
  down: boolean;
  /** Count of JWKS fetches. */
  jwksFetches: number;
  /**
   * Served signed (with iss/aud/exp filled in) at `<issuer>/distributed` to callers presenting
   * `Bearer <distributedToken>`: an OpenID distributed-claims source.
   */
  distributedClaims?: Record<string, unknown>;
  distributedToken: string;
  /** Signs `claims` as they are (no defaults). */
  sign(claims: Record<string, unknown>, opts?: { key?: SigningKey; header?: Record<string, unknown> }): Promise<string>;
  /** An ID token with iss, aud, iat, exp (+1h) filled in; `claims` override them (undefined removes). */
  token(claims?: Record<string, unknown>, opts?: { key?: SigningKey }): Promise<string>;
  /** A new signing key (`alg` default RS256) that is not published unless `publish`. */
  newKey(opts?: { alg?: string; publish?: boolean }): Promise<SigningKey>;
  stop(): Promise<void>;
}

let kidCounter = 0;

export async function makeKey(alg = 'RS256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = `k${++kidCounter}`;
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateKey, jwk };
}

export interface OidcProviderOptions {
  readonly audience?: string;
  /** Use this CA instead of a fresh one. */
  readonly ca?: Issued;
}

export async function startOidcProvider(o: OidcProviderOptions = {}): Promise<TestOidcProvider> {
  const ca = o.ca ?? await createCa('test-oidc-ca');
  const serving = await issue({ subject: { cn: '127.0.0.1' }, issuer: ca, usage: 'server', ipAddresses: ['127.0.0.1'], dnsNames: ['localhost'] });
  let url = '';
  const p: TestOidcProvider = {
    url: '', caPem: ca.certPem, ca, audience: o.audience ?? 'keelson', keys: [await makeKey()], down: false, jwksFetches: 0, distributedToken: 'claims-access-token',
    async sign(claims, opts = {}) {
      const key = opts.key ?? p.keys[0]!;
      return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...opts.header }).sign(key.privateKey);
    },
    async token(claims = {}, opts = {}) {
      const now = Math.floor(Date.now() / 1000);
      const full: Record<string, unknown> = { iss: url, aud: p.audience, sub: 'subject-1', iat: now, exp: now + 3600, ...claims };
      for (const [k, v] of Object.entries(full)) if (v === undefined) delete full[k];
      return p.sign(full, opts);
    },
    async newKey(opts = {}) {
      const k = await makeKey(opts.alg);
      if (opts.publish) p.keys.push(k);
      return k;
    },
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server = https.createServer({ key: serving.keyPem, cert: serving.certPem }, (req, res) => {
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (p.down) return send(503, { error: 'down' });
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    const discovery = { issuer: p.discoveredIssuer ?? url, jwks_uri: `${url}/keys`, id_token_signing_alg_values_supported: ['RS256', 'ES256'] };
    if (path === '/oidc/.well-known/openid-configuration' || path === '/alt/discovery') return send(200, discovery);
    if (path === '/oidc/keys') {
      p.jwksFetches++;
      return send(200, { keys: p.keys.map((k) => k.jwk) });
    }
    if (path === '/oidc/distributed' && p.distributedClaims) {
      if (req.headers.authorization !== `Bearer ${p.distributedToken}`) return send(401, { error: 'unauthorized' });
      void p.token(p.distributedClaims).then((jwt) => {
        res.writeHead(200, { 'content-type': 'application/jwt' });
        res.end(jwt);
      });
      return;
    }
    send(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/oidc`;
  (p as { url: string }).url = url;
  return p;
}
