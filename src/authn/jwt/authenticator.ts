/**
 * One JWT authenticator (one issuer), as kube's plugin/pkg/authenticator/token/oidc: tokens whose unverified
 * `iss` is not this issuer are not ours; the rest are checked as go-oidc's verifier does (issuer, audience,
 * `exp` without leeway, `nbf` with 5 minutes of leeway, allowed `alg`, signature by a key of the provider's
 * JWKS) and mapped to a user through claims or CEL, then claim and user validation rules run.
 *
 * The provider is discovered in the background (retried every `retryMs`, 10 s as kube) so a provider that is
 * down never blocks the server; until then its tokens fail ("authenticator not initialized").
 */
import { compactVerify, decodeProtectedHeader, importJWK, type CryptoKey } from 'jose';
import type { UserInfo } from '../../machinery/objects.ts';
import type { JwtAuthenticatorConfig } from './config.ts';
import type { CelMappers } from './validate.ts';
import { TokenError, fail, userFromClaims } from './claims.ts';
import { OidcProvider, getText, type Jwk } from './provider.ts';

/** kube's allowlist of asymmetric algorithms. */
export const ALL_SIGNING_ALGS = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512'];
/** go-oidc's leeway for `nbf`. */
const NBF_LEEWAY_MS = 5 * 60_000;
export { CREDENTIAL_ID_KEY } from './claims.ts';

export type JwtResult = { readonly user: UserInfo } | { readonly error: string };

export interface IssuerAuthenticatorOptions {
  readonly config: JwtAuthenticatorConfig;
  readonly mappers: CelMappers;
  /** Allowed `alg` values (default RS256; the configuration file allows every one of ALL_SIGNING_ALGS). */
  readonly signingAlgs?: readonly string[];
  readonly log?: (line: string) => void;
  readonly now?: () => number;
  /** Delay between discovery attempts (default 10 s). */
  readonly retryMs?: number;
  /** Per-request timeout towards the provider (default 30 s). */
  readonly timeoutMs?: number;
}

/** The `iss` of a compact JWT without verifying anything, or undefined when it is not one (kube's untrustedIssuer). */
export function untrustedIssuer(token: string): string | undefined {
  if (token.trimStart().startsWith('{')) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as { iss?: unknown };
    if (!payload || typeof payload !== 'object') return undefined;
    const iss = payload.iss;
    if (typeof iss !== 'string') return iss === undefined ? '' : undefined;
    return iss === 'accounts.google.com' ? 'https://accounts.google.com' : iss;
  } catch {
    return undefined;
  }
}

function ktyFor(alg: string): string {
  return alg.startsWith('ES') ? 'EC' : 'RSA';
}

const goTime = (ms: number): string => new Date(ms).toISOString();

/** JSON `aud`: a string or a list of strings (go-oidc's audience type). */
function audiencesOf(aud: unknown): string[] {
  if (typeof aud === 'string') return [aud];
  if (Array.isArray(aud) && aud.every((a) => typeof a === 'string')) return aud as string[];
  if (aud === undefined || aud === null) return [];
  return fail('oidc: malformed claims: audience must be a string or an array of strings');
}

function numericDate(v: unknown, name: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) return fail(`oidc: malformed claims: ${name} is not a number`);
  return v * 1000;
}

export class IssuerAuthenticator {
  readonly issuerUrl: string;
  private readonly provider: OidcProvider;
  private readonly algs: readonly string[];
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private readonly keyCache = new WeakMap<Jwk, Map<string, CryptoKey | Uint8Array>>();
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private ready = false;
  private lastError = '';
  private readyWaiters: (() => void)[] = [];
  /** Verifiers for the issuers of distributed-claim JWTs, created on first use (kube's claimResolver). */
  private readonly claimVerifiers = new Map<string, IssuerAuthenticator>();

  constructor(private readonly o: IssuerAuthenticatorOptions) {
    this.issuerUrl = o.config.issuer.url;
    this.algs = o.signingAlgs?.length ? o.signingAlgs : ['RS256'];
    this.now = o.now ?? Date.now;
    this.log = o.log ?? (() => {});
    this.provider = new OidcProvider({
      issuerUrl: this.issuerUrl, discoveryUrl: o.config.issuer.discoveryURL, caPem: o.config.issuer.certificateAuthority, timeoutMs: o.timeoutMs,
    });
  }

  /** Starts background discovery; returns at once. */
  start(): void {
    void this.attempt();
  }

  private async attempt(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.provider.discover();
      this.ready = true;
      for (const w of this.readyWaiters.splice(0)) w();
    } catch (e) {
      if (this.stopped) return;
      this.lastError = (e as Error).message;
      this.log(`oidc authenticator: initializing plugin: ${this.lastError}`);
      this.timer = setTimeout(() => void this.attempt(), this.o.retryMs ?? 10_000);
      this.timer.unref();
    }
  }

  /** Health as kube's HealthCheck: undefined once discovery succeeded. */
  healthError(): string | undefined {
    if (this.ready) return undefined;
    return `oidc: authenticator for issuer ${JSON.stringify(this.issuerUrl)} is not initialized${this.lastError ? `: ${this.lastError}` : ''}`;
  }

  /** Resolves when discovery succeeded, or false when `signal` fires first. */
  waitReady(signal: AbortSignal): Promise<boolean> {
    if (this.ready || signal.aborted) return Promise.resolve(this.ready);
    return new Promise((resolve) => {
      const done = (): void => resolve(this.ready);
      this.readyWaiters.push(done);
      signal.addEventListener('abort', () => {
        this.readyWaiters = this.readyWaiters.filter((w) => w !== done);
        resolve(this.ready);
      }, { once: true });
    });
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.provider.stop();
    for (const v of this.claimVerifiers.values()) v.stop();
    for (const w of this.readyWaiters.splice(0)) w();
  }

  /** undefined = not this issuer's token; otherwise the user or why the token is refused. */
  async authenticate(token: string): Promise<JwtResult | undefined> {
    if (untrustedIssuer(token) !== this.issuerUrl) return undefined;
    if (!this.ready) return { error: 'oidc: authenticator not initialized' };
    try {
      const claims = await this.verify(token);
      await this.expandDistributedClaims(claims);
      return { user: userFromClaims(claims, this.o.config, this.o.mappers) };
    } catch (e) {
      if (e instanceof TokenError) return { error: e.message };
      return { error: `oidc: ${(e as Error).message}` };
    }
  }

  /** go-oidc's IDTokenVerifier.Verify plus kube's own audience check; returns the verified claims. */
  private async verify(token: string): Promise<Record<string, unknown>> {
    const parts = token.split('.');
    let claims: Record<string, unknown>;
    try {
      claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch (e) {
      return fail(`oidc: verify token: oidc: malformed jwt payload: ${(e as Error).message}`);
    }
    if (!claims || typeof claims !== 'object' || Array.isArray(claims)) fail('oidc: verify token: oidc: failed to unmarshal claims');
    if (claims.iss !== this.issuerUrl) {
      fail(`oidc: verify token: oidc: id token issued by a different provider, expected ${JSON.stringify(this.issuerUrl)} got ${JSON.stringify(claims.iss)}`);
    }
    const aud = audiencesOf(claims.aud);
    const want = this.o.config.issuer.audiences;
    if (!aud.some((a) => want.includes(a))) {
      fail(`oidc: verify token: oidc: expected audience in ${JSON.stringify([...want].sort())} got ${JSON.stringify(aud)}`);
    }
    const now = this.now();
    const exp = numericDate(claims.exp, 'exp') ?? 0;
    if (exp < now) fail(`oidc: verify token: oidc: token is expired (Token Expiry: ${goTime(exp)})`);
    const nbf = numericDate(claims.nbf, 'nbf');
    if (nbf !== undefined && now + NBF_LEEWAY_MS < nbf) {
      fail(`oidc: verify token: oidc: current time ${goTime(now)} before the nbf (not before) time: ${goTime(nbf)}`);
    }
    let header: { alg?: string; kid?: string };
    try {
      header = decodeProtectedHeader(token);
    } catch (e) {
      return fail(`oidc: verify token: oidc: malformed jwt: ${(e as Error).message}`);
    }
    const alg = header.alg ?? '';
    if (!this.algs.includes(alg)) {
      fail(`oidc: verify token: oidc: id token signed with unsupported algorithm, expected ${JSON.stringify(this.algs)} got ${JSON.stringify(alg)}`);
    }
    if (!(await this.verifySignature(token, alg, header.kid))) fail('oidc: verify token: failed to verify signature: failed to verify id token signature');
    return claims;
  }

  /**
   * OpenID distributed claims for the groups claim (kube's claimResolver.expand): when the token lacks the
   * claim but `_claim_names` points it at a `_claim_sources` endpoint, the JWT fetched from there (with its
   * access token) is verified like an ID token of its own issuer and the claim is taken from it.
   */
  private async expandDistributedClaims(claims: Record<string, unknown>): Promise<void> {
    const claim = this.o.config.claimMappings.groups.claim;
    if (!claim || Object.hasOwn(claims, claim) || !Object.hasOwn(claims, '_claim_names')) return;
    const bad = (m: string): never => fail(`oidc: could not expand distributed claims: ${m}`);
    const names = claims._claim_names;
    if (!names || typeof names !== 'object' || Array.isArray(names) || Object.values(names).some((v) => typeof v !== 'string')) {
      bad('oidc: error parsing distributed claim names: json: cannot unmarshal into Go value of type map[string]string');
    }
    if (!Object.hasOwn(claims, '_claim_sources')) bad('oidc: no claim sources');
    const sources = claims._claim_sources as Record<string, { endpoint?: unknown; access_token?: unknown } | undefined>;
    if (!sources || typeof sources !== 'object' || Array.isArray(sources)) bad('oidc: could not parse claim sources');
    const src = (names as Record<string, string>)[claim];
    if (src === undefined) return;
    const ep = Object.hasOwn(sources, src) ? sources[src] : undefined;
    if (!ep || typeof ep !== 'object') return bad(`id token _claim_names contained a source ${src} missing in _claims_sources`);
    if (typeof ep.endpoint !== 'string' || !ep.endpoint) return; // an aggregated claim (JWT inline): not supported, as kube
    let jwt: string;
    try {
      jwt = (await getText(ep.endpoint, {
        caPem: this.o.config.issuer.certificateAuthority, timeoutMs: this.o.timeoutMs ?? 30_000,
        bearer: typeof ep.access_token === 'string' ? ep.access_token : undefined,
      })).trim();
    } catch (e) {
      return bad(`while getting distributed claim ${JSON.stringify(claim)}: ${(e as Error).message}`);
    }
    const iss = untrustedIssuer(jwt);
    if (iss === undefined) return bad(`getting untrusted issuer from endpoint ${ep.endpoint} failed for claim ${JSON.stringify(claim)}: malformed token`);
    const verifier = this.claimVerifier(iss);
    if (!verifier.ready) bad(`verifying untrusted issuer ${iss} failed: verifier not initialized for issuer: ${JSON.stringify(iss)}`);
    let distributed: Record<string, unknown>;
    try {
      distributed = await verifier.verify(jwt);
    } catch (e) {
      return bad(`verify distributed claim token: ${(e as Error).message}`);
    }
    if (!Object.hasOwn(distributed, claim)) bad(`jwt returned by distributed claim endpoint ${JSON.stringify(ep.endpoint)} did not contain claim: ${claim}`);
    claims[claim] = distributed[claim];
  }

  private claimVerifier(iss: string): IssuerAuthenticator {
    if (iss === this.issuerUrl) return this;
    let v = this.claimVerifiers.get(iss);
    if (!v) {
      const { config } = this.o;
      v = new IssuerAuthenticator({
        ...this.o,
        config: { ...config, issuer: { ...config.issuer, url: iss, discoveryURL: undefined } },
        mappers: { extra: [], claimRules: [], userRules: [] },
      });
      this.claimVerifiers.set(iss, v);
      if (this.stopped) v.stop();
      else v.start();
    }
    return v;
  }

  /** Tries the cached keys, then once more after fetching the key set again (rotation), as go-oidc's RemoteKeySet. */
  private async verifySignature(token: string, alg: string, kid: string | undefined): Promise<boolean> {
    const cached = await this.provider.currentKeys();
    if (await this.tryKeys(token, alg, kid, cached)) return true;
    const fresh = await this.provider.refreshKeys();
    return this.tryKeys(token, alg, kid, fresh);
  }

  private async tryKeys(token: string, alg: string, kid: string | undefined, keys: readonly Jwk[]): Promise<boolean> {
    for (const jwk of keys) {
      if (kid !== undefined && jwk.kid !== kid) continue;
      if (jwk.use !== undefined && jwk.use !== 'sig') continue;
      if (jwk.kty !== ktyFor(alg)) continue;
      if (jwk.alg !== undefined && jwk.alg !== alg) continue;
      const key = await this.importKey(jwk, alg);
      if (!key) continue;
      try {
        await compactVerify(token, key, { algorithms: [alg] });
        return true;
      } catch {
        // try the next key
      }
    }
    return false;
  }

  private async importKey(jwk: Jwk, alg: string): Promise<CryptoKey | Uint8Array | undefined> {
    let byAlg = this.keyCache.get(jwk);
    if (!byAlg) this.keyCache.set(jwk, byAlg = new Map());
    const hit = byAlg.get(alg);
    if (hit) return hit;
    try {
      // Only the public members: a key set that leaks private parameters must not make us hold them.
      const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = jwk;
      const key = await importJWK({ ...pub, alg }, alg);
      byAlg.set(alg, key);
      return key;
    } catch {
      return undefined;
    }
  }
}
