/**
 * The remote side of one OpenID provider: discovery (`<issuer>/.well-known/openid-configuration`, or the
 * configured discoveryURL) and the JSON Web Key Set, over HTTPS only, trusting the configured CA bundle or the
 * host's roots. As go-oidc does: the discovered `issuer` must equal the configured URL, keys are fetched when
 * first needed and fetched again when no cached key verifies a token (key rotation), concurrent fetches share
 * one request.
 *
 * Invariant: `stop()` aborts whatever request is in flight and no timer survives it.
 */
import https from 'node:https';

export interface Jwk {
  readonly kty?: string;
  readonly kid?: string;
  readonly use?: string;
  readonly alg?: string;
  readonly [k: string]: unknown;
}

export interface ProviderOptions {
  readonly issuerUrl: string;
  readonly discoveryUrl?: string;
  /** PEM bundle; undefined = the host's root CAs. */
  readonly caPem?: string;
  /** Per-request timeout (kube's client: 30 s). */
  readonly timeoutMs?: number;
}

const MAX_BODY = 1 << 20;

export class ProviderError extends Error {
  override name = 'ProviderError';
}

export interface GetOptions {
  readonly caPem?: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Sent as `Authorization: Bearer …` when set. */
  readonly bearer?: string;
}

/** GET over HTTPS returning the body text; non-2xx, oversized bodies and transport failures are ProviderErrors. */
export function getText(url: string, o: GetOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      reject(new ProviderError(`invalid URL ${JSON.stringify(url)}`));
      return;
    }
    if (u.protocol !== 'https:') {
      reject(new ProviderError(`${url}: only https URLs are fetched`));
      return;
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (o.bearer) headers.authorization = `Bearer ${o.bearer}`;
    const req = https.get(u, { ca: o.caPem, timeout: o.timeoutMs, signal: o.signal, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY) {
          req.destroy(new ProviderError(`${url}: response larger than ${MAX_BODY} bytes`));
          return;
        }
        chunks.push(c);
      });
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 299) {
          reject(new ProviderError(`${status} ${res.statusMessage ?? ''}: ${body.slice(0, 200)}`.trim()));
          return;
        }
        resolve(body);
      });
    });
    req.on('timeout', () => req.destroy(new ProviderError(`${url}: request timed out after ${o.timeoutMs}ms`)));
    req.on('error', reject);
  });
}

/** GET returning parsed JSON. */
export async function getJson(url: string, o: GetOptions): Promise<unknown> {
  const body = await getText(url, o);
  try {
    return JSON.parse(body);
  } catch (e) {
    throw new ProviderError(`failed to decode provider response from ${url}: ${(e as Error).message}`);
  }
}

export class OidcProvider {
  private jwksUri?: string;
  private keys: readonly Jwk[] = [];
  private keysFetched = false;
  private fetching?: Promise<readonly Jwk[]>;
  private readonly abort = new AbortController();
  private readonly timeoutMs: number;

  constructor(private readonly o: ProviderOptions) {
    this.timeoutMs = o.timeoutMs ?? 30_000;
  }

  get initialized(): boolean {
    return this.jwksUri !== undefined;
  }

  /** Discovery; throws with go-oidc's wording when the provider answers for another issuer. */
  async discover(): Promise<void> {
    const url = this.o.discoveryUrl ?? `${this.o.issuerUrl.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const doc = await getJson(url, { caPem: this.o.caPem, timeoutMs: this.timeoutMs, signal: this.abort.signal }) as Record<string, unknown>;
    if (!doc || typeof doc !== 'object') throw new ProviderError(`oidc: failed to decode provider discovery object`);
    const issuer = doc.issuer;
    if (issuer !== this.o.issuerUrl) {
      throw new ProviderError(`oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(this.o.issuerUrl)} got ${JSON.stringify(issuer)}`);
    }
    if (typeof doc.jwks_uri !== 'string' || !doc.jwks_uri) throw new ProviderError('oidc: provider discovery document has no jwks_uri');
    this.jwksUri = doc.jwks_uri;
  }

  /** The cached keys, fetching them the first time. */
  async currentKeys(): Promise<readonly Jwk[]> {
    if (this.keysFetched) return this.keys;
    return this.refreshKeys();
  }

  /** Fetches the key set again (one request however many callers ask at once). */
  refreshKeys(): Promise<readonly Jwk[]> {
    if (!this.jwksUri) return Promise.reject(new ProviderError('oidc: provider not discovered yet'));
    this.fetching ??= (async () => {
      try {
        const set = await getJson(this.jwksUri!, { caPem: this.o.caPem, timeoutMs: this.timeoutMs, signal: this.abort.signal }) as { keys?: unknown };
        if (!set || !Array.isArray(set.keys)) throw new ProviderError('oidc: failed to decode keys: no "keys" array');
        this.keys = set.keys.filter((k): k is Jwk => !!k && typeof k === 'object' && !Array.isArray(k));
        this.keysFetched = true;
        return this.keys;
      } finally {
        this.fetching = undefined;
      }
    })();
    return this.fetching;
  }

  stop(): void {
    this.abort.abort();
  }
}
