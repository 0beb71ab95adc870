/**
 * The one HTTPS JSON client every outgoing webhook uses (token review, authorization, admission, conversion,
 * OIDC discovery): POST a JSON body, get the status code and the parsed reply. node:https only, no pooling
 * across calls with different credentials (each call gets its own agent-less request with its own TLS options).
 *
 * Invariants:
 * - the returned promise settles exactly once: with the reply, or with an Error (network, TLS, timeout, abort);
 * - a timeout or abort destroys the socket, nothing keeps running after the promise settles;
 * - `body` in the result is the parsed JSON when the reply is JSON, else the reply text (callers decide what a
 *   non-JSON reply means); an empty reply is `undefined`.
 */
import https from 'node:https';
import http from 'node:http';

export interface PostJsonOptions {
  readonly url: string;
  /** PEM bundle the server certificate must chain to (else the system roots). */
  readonly caPem?: string;
  /** Client certificate and key (PEM) for mutual TLS. */
  readonly certPem?: string;
  readonly keyPem?: string;
  /** Sent as `Authorization: Bearer <token>`. */
  readonly tokenBearer?: string;
  /** Whole-call deadline: connect, send, and read the reply. */
  readonly timeoutMs: number;
  readonly body: unknown;
  readonly signal?: AbortSignal;
  /** SNI / name checked in the server certificate when it differs from the URL host (kubeconfig tls-server-name). */
  readonly serverName?: string;
  /** kubeconfig insecure-skip-tls-verify. */
  readonly insecureSkipTlsVerify?: boolean;
  /** Extra request headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Refuse replies larger than this many bytes (default 3 MiB, kube's webhook response limit ballpark). */
  readonly maxResponseBytes?: number;
}

export interface PostJsonResult {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** Thrown for timeouts, so callers can tell them from other failures (`err.timeout`). */
export class WebhookTimeoutError extends Error {
  readonly timeout = true;
  constructor(url: string, ms: number) {
    super(`Post "${url}": context deadline exceeded (timeout ${ms}ms)`);
    this.name = 'WebhookTimeoutError';
  }
}

const DEFAULT_MAX_RESPONSE = 3 * 1024 * 1024;

export function postJson(o: PostJsonOptions): Promise<PostJsonResult> {
  let target: URL;
  try {
    target = new URL(o.url);
  } catch {
    return Promise.reject(new Error(`invalid webhook URL ${JSON.stringify(o.url)}`));
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') {
    return Promise.reject(new Error(`unsupported webhook URL scheme ${JSON.stringify(target.protocol)}`));
  }
  const payload = Buffer.from(JSON.stringify(o.body ?? null));
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    accept: 'application/json, */*',
    'content-length': payload.length,
    ...o.headers,
  };
  if (o.tokenBearer) headers.authorization = `Bearer ${o.tokenBearer}`;
  const max = o.maxResponseBytes ?? DEFAULT_MAX_RESPONSE;

  return new Promise<PostJsonResult>((resolve, reject) => {
    let settled = false;
    const finish = (err: Error | undefined, res?: PostJsonResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve(res!);
    };
    const common = {
      method: 'POST',
      hostname: target.hostname.replace(/^\[|\]$/g, ''),
      port: target.port || undefined,
      path: `${target.pathname}${target.search}`,
      headers,
      agent: false as const,
    };
    const req = target.protocol === 'https:'
      ? https.request({
        ...common,
        ca: o.caPem,
        cert: o.certPem,
        key: o.keyPem,
        servername: o.serverName,
        rejectUnauthorized: !o.insecureSkipTlsVerify,
      })
      : http.request(common);
    const timer = setTimeout(() => {
      finish(new WebhookTimeoutError(o.url, o.timeoutMs));
      req.destroy();
    }, o.timeoutMs);
    const onAbort = (): void => {
      finish(new Error(`Post "${o.url}": request aborted`));
      req.destroy();
    };
    if (o.signal?.aborted) {
      onAbort();
      return;
    }
    o.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (e) => finish(new Error(`Post "${o.url}": ${e.message}`)));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > max) {
          finish(new Error(`Post "${o.url}": response body larger than ${max} bytes`));
          req.destroy();
          return;
        }
        chunks.push(c);
      });
      res.on('error', (e) => finish(new Error(`Post "${o.url}": ${e.message}`)));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        if (text.trim() !== '') {
          try {
            body = JSON.parse(text);
          } catch {
            body = text;
          }
        }
        finish(undefined, { status: res.statusCode ?? 0, body, headers: res.headers });
      });
    });
    req.end(payload);
  });
}

export { loadKubeconfigConnection } from './kubeconfig.ts';
export type { WebhookConnection } from './kubeconfig.ts';
