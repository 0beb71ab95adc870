/**
 * How kube-apiserver's webhook REST client reaches an admission webhook (apiserver util/webhook ClientManager
 * and client-go's rest client), over node:https:
 * - `url` webhooks: the URL's host; `service` webhooks: `https://<name>.<namespace>.svc:<port><path>`, TLS
 *   server name `<name>.<namespace>.svc`, dialled at the address the service resolver gives (kube resolves on
 *   dial too, so a pooled connection keeps its endpoint);
 * - the path cleaned as Go's path.Join cleans it, `?timeout=<n>s` appended (the webhook's timeout, rounded up
 *   to whole seconds), POST with `Content-Type: application/json`, `Accept: application/json, *\/*`,
 *   `User-Agent: kube-apiserver-admission`, `Accept-Encoding: gzip`;
 * - the CA is the configuration's caBundle (system roots without one); client credentials come from the
 *   plugin's kubeconfig ({@link AuthInfoResolver});
 * - connections are kept alive and reused (one pool per client configuration, at most 200 configurations, as
 *   kube's client cache); a request that fails on a reused connection before any answer is sent again once;
 * - failures are {@link CallError}s whose message is Go's `Post "<url>": <reason>` (`context deadline exceeded`
 *   when the webhook's timeout passed, Go's dial/TLS wording for the common network and certificate failures).
 */
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import { isIP } from 'node:net';
import type { PeerCertificate } from 'node:tls';
import { gunzipSync } from 'node:zlib';
import { posix } from 'node:path';
import type { AuthInfo, AuthInfoResolver } from './config.ts';

/** admissionregistration WebhookClientConfig as stored. */
export interface ClientConfig {
  readonly url?: string;
  readonly service?: { readonly namespace?: string; readonly name?: string; readonly path?: string; readonly port?: number };
  /** base64 PEM bundle. */
  readonly caBundle?: string;
}

/** Where a Service's traffic goes (kube's ServiceResolver); throws an Error worded as kube's resolver. */
export interface ServiceResolver {
  resolve(namespace: string, name: string, port: number): Promise<{ host: string; port: number }>;
}

export interface WebhookReply {
  readonly status: number;
  readonly contentType: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** A failed call (no HTTP answer): Go's url.Error text. */
export class CallError extends Error {
  override name = 'CallError';
  constructor(message: string, readonly timeout = false) {
    super(message);
  }
}

/** The client could not be built (bad CA bundle, unusable URL): kube's `could not get REST client` cases. */
export class ClientConfigError extends Error {
  override name = 'ClientConfigError';
}

const USER_AGENT = 'kube-apiserver-admission';
const MAX_CLIENTS = 200;
const MAX_REPLY_BYTES = 64 * 1024 * 1024;

/** Go's time.Duration.String() for whole seconds. */
export function goSeconds(total: number): string {
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h) return `${h}h${m}m${s}s`;
  if (m) return `${m}m${s}s`;
  return `${s}s`;
}

/** The path as client-go builds it: path.Join("/", p), so `/a/` → `/a` and '' → `/`. */
const cleanPath = (p: string | undefined): string => posix.join('/', p ?? '');

interface Target {
  /** The URL kube shows (with `?timeout=`). */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Host header (Go sends the URL's host, port included). */
  readonly hostHeader: string;
  readonly path: string;
  readonly servername?: string;
  readonly service?: { namespace: string; name: string; port: number };
}

/** Targets per configuration object (compiled once per configuration revision) and timeout: parsed once. */
const targets = new WeakMap<ClientConfig, Map<number, Target>>();

function targetOf(cc: ClientConfig, timeoutSeconds: number): Target {
  let byTimeout = targets.get(cc);
  if (!byTimeout) targets.set(cc, (byTimeout = new Map()));
  let t = byTimeout.get(timeoutSeconds);
  if (!t) byTimeout.set(timeoutSeconds, (t = parseTarget(cc, timeoutSeconds)));
  return t;
}

function parseTarget(cc: ClientConfig, timeoutSeconds: number): Target {
  const query = `?timeout=${goSeconds(timeoutSeconds)}`;
  if (cc.service) {
    const port = cc.service.port || 443;
    const name = cc.service.name ?? '';
    const namespace = cc.service.namespace ?? '';
    const host = `${name}.${namespace}.svc`;
    const path = `${cleanPath(cc.service.path)}${query}`;
    return { url: `https://${host}:${port}${path}`, host, port, hostHeader: `${host}:${port}`, path, servername: host, service: { namespace, name, port } };
  }
  if (!cc.url) throw new ClientConfigError('webhook configuration must have either service or URL');
  let u: URL;
  try {
    u = new URL(cc.url);
  } catch {
    throw new ClientConfigError(`Unparsable URL: parse ${JSON.stringify(cc.url)}: invalid URI for request`);
  }
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const port = u.port ? Number(u.port) : 443;
  const path = `${cleanPath(decodeURIComponent(u.pathname))}${query}`;
  const shown = `${u.protocol}//${u.host}${path}`;
  return { url: shown, host, port, hostHeader: u.host, path, ...(isIP(host) ? {} : { servername: host }) };
}

/** The CA bundle as PEM, or the error client-go gives for one it cannot load. */
function caPem(cc: ClientConfig): string | undefined {
  if (!cc.caBundle) return undefined;
  const pem = Buffer.from(cc.caBundle, 'base64').toString('utf8');
  if (!pem.includes('-----BEGIN')) throw new ClientConfigError('unable to load root certificates: unable to parse bytes as PEM block');
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new ClientConfigError('unable to load root certificates: no valid certificate authority data seen');
  return pem;
}

/** Go's x509.HostnameError text for a certificate that does not name `host`. */
function hostnameError(host: string, cert: PeerCertificate | undefined): string {
  const sans = (cert?.subjectaltname ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (isIP(host)) {
    const ips = sans.filter((s) => s.startsWith('IP Address:')).map((s) => s.slice('IP Address:'.length));
    if (!ips.length) return `x509: cannot validate certificate for ${host} because it doesn't contain any IP SANs`;
    return `x509: certificate is valid for ${ips.join(', ')}, not ${host}`;
  }
  const dns = sans.filter((s) => s.startsWith('DNS:')).map((s) => s.slice('DNS:'.length));
  if (!dns.length) return `x509: certificate is not valid for any names, but wanted to match ${host}`;
  return `x509: certificate is valid for ${dns.join(', ')}, not ${host}`;
}

const UNKNOWN_AUTHORITY = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT', 'CERT_SIGNATURE_FAILURE',
]);

/** A Node network/TLS error in Go's words (what follows `Post "<url>": `). */
export function goNetworkError(e: NodeJS.ErrnoException & { host?: string; cert?: PeerCertificate; address?: string; port?: number; hostname?: string }, t: Pick<Target, 'host' | 'port'>): string {
  const addr = `${e.address ?? t.host}:${e.port ?? t.port}`;
  if (e.code && UNKNOWN_AUTHORITY.has(e.code)) return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
  switch (e.code) {
    case 'ERR_TLS_CERT_ALTNAME_INVALID': return `tls: failed to verify certificate: ${hostnameError(e.host ?? t.host, e.cert)}`;
    case 'CERT_HAS_EXPIRED': return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    case 'CERT_NOT_YET_VALID': return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    case 'ECONNREFUSED': return `dial tcp ${addr}: connect: connection refused`;
    case 'EHOSTUNREACH': return `dial tcp ${addr}: connect: no route to host`;
    case 'ENETUNREACH': return `dial tcp ${addr}: connect: network is unreachable`;
    case 'ENOTFOUND': case 'EAI_AGAIN': return `dial tcp: lookup ${e.hostname ?? t.host}: no such host`;
    case 'ERR_SSL_WRONG_VERSION_NUMBER': return 'http: server gave HTTP response to HTTPS client';
    case 'ECONNRESET': return e.message === 'socket hang up' ? 'EOF' : 'read: connection reset by peer';
    case 'EPIPE': return 'write: broken pipe';
    default: return e.message;
  }
}

/** A keep-alive pool whose connections go where the service resolver says (kube's service dialer). */
class ServiceAgent extends https.Agent {
  constructor(opts: https.AgentOptions, private readonly resolver: ServiceResolver, private readonly svc: NonNullable<Target['service']>) {
    super(opts);
  }

  override createConnection(options: https.RequestOptions, cb?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    this.resolver.resolve(this.svc.namespace, this.svc.name, this.svc.port).then((to) => {
      const create = https.Agent.prototype.createConnection as (this: https.Agent, o: https.RequestOptions) => Duplex;
      cb?.(null, create.call(this, { ...options, host: to.host, port: to.port, servername: options.servername }));
    }, (err: Error) => cb?.(err, undefined as unknown as Duplex));
    return undefined;
  }
}

/** Marks errors the resolver raised, so they are reported as they are (kube's dialer returns them unwrapped). */
class ResolveError extends Error {}

export class WebhookTransport {
  readonly #clients = new Map<string, https.Agent>();
  /** The pool key of a configuration object (its CA bundle is long: serialized once). */
  readonly #keys = new WeakMap<ClientConfig, string>();

  constructor(private readonly resolver: ServiceResolver, private readonly auth: AuthInfoResolver) {}

  /** The URL a call with this configuration and timeout goes to (kube shows it in errors). */
  urlOf(cc: ClientConfig, timeoutSeconds: number): string {
    return targetOf(cc, timeoutSeconds).url;
  }

  #agent(cc: ClientConfig, t: Target, auth: AuthInfo): https.Agent {
    let key = this.#keys.get(cc);
    if (key === undefined) this.#keys.set(cc, (key = JSON.stringify([cc.url ?? null, cc.service ?? null, cc.caBundle ?? '', auth])));
    const cached = this.#clients.get(key);
    if (cached) {
      // Most recently used last.
      this.#clients.delete(key);
      this.#clients.set(key, cached);
      return cached;
    }
    const opts: https.AgentOptions = {
      keepAlive: true, maxFreeSockets: 25, timeout: 90_000, scheduling: 'lifo', noDelay: true,
      ca: caPem(cc), cert: auth.certPem, key: auth.keyPem,
    };
    let agent: https.Agent;
    if (t.service) {
      const resolver = this.resolver;
      agent = new ServiceAgent(opts, {
        resolve: (ns, name, port) => resolver.resolve(ns, name, port).catch((e: Error) => { throw new ResolveError(e.message); }),
      }, t.service);
    } else {
      agent = new https.Agent(opts);
    }
    this.#clients.set(key, agent);
    while (this.#clients.size > MAX_CLIENTS) {
      const [oldest, a] = this.#clients.entries().next().value!;
      this.#clients.delete(oldest);
      a.destroy();
    }
    return agent;
  }

  /**
   * POSTs `body`; resolves with any HTTP answer, rejects with a {@link CallError} (or {@link ClientConfigError})
   * when there is none within `timeoutSeconds`.
   */
  async post(cc: ClientConfig, body: Buffer, timeoutSeconds: number): Promise<WebhookReply> {
    const t = targetOf(cc, timeoutSeconds);
    const auth = this.auth.forTarget(`${t.host.includes(':') ? `[${t.host}]` : t.host}:${t.port}`);
    const agent = this.#agent(cc, t, auth);
    const deadline = Date.now() + timeoutSeconds * 1000;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#once(agent, t, auth, body, deadline);
      } catch (e) {
        if (!(e instanceof RetryableError) || attempt > 0) throw e instanceof RetryableError ? e.cause : e;
      }
    }
  }

  #once(agent: https.Agent, t: Target, auth: AuthInfo, body: Buffer, deadline: number): Promise<WebhookReply> {
    const headers: Record<string, string | number> = {
      host: t.hostHeader,
      'user-agent': USER_AGENT,
      'content-type': 'application/json',
      accept: 'application/json, */*',
      'content-length': body.length,
      'accept-encoding': 'gzip',
    };
    if (auth.token) headers['authorization'] = `Bearer ${auth.token.trim()}`;
    else if (auth.username || auth.password) headers['authorization'] = `Basic ${Buffer.from(`${auth.username ?? ''}:${auth.password ?? ''}`).toString('base64')}`;
    return new Promise<WebhookReply>((resolve, reject) => {
      let settled = false;
      let answered = false;
      const finish = (err: Error | undefined, reply?: WebhookReply): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(reply!);
      };
      const fail = (reason: string, timeout = false): CallError => new CallError(`Post ${JSON.stringify(t.url)}: ${reason}`, timeout);
      const req = https.request({
        agent, method: 'POST', host: t.host, port: t.port, path: t.path, headers,
        ...(t.servername ? { servername: t.servername } : {}),
      });
      const timer = setTimeout(() => {
        finish(fail('context deadline exceeded', true));
        req.destroy();
      }, Math.max(0, deadline - Date.now()));
      req.on('error', (e: NodeJS.ErrnoException) => {
        if (e instanceof ResolveError) return finish(fail(e.message));
        const err = fail(goNetworkError(e, t));
        // A kept-alive connection the server closed meanwhile: nothing was answered, send once more.
        if (req.reusedSocket && !answered && (e.code === 'ECONNRESET' || e.code === 'EPIPE')) return finish(new RetryableError(err));
        finish(err);
      });
      req.on('response', (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_REPLY_BYTES) {
            finish(fail(`response body larger than ${MAX_REPLY_BYTES} bytes`));
            req.destroy();
            return;
          }
          chunks.push(c);
        });
        res.on('error', (e: NodeJS.ErrnoException) => finish(fail(goNetworkError(e, t))));
        res.on('end', () => {
          let buf = Buffer.concat(chunks);
          if (res.headers['content-encoding'] === 'gzip') {
            try {
              buf = gunzipSync(buf);
            } catch (e) {
              return finish(fail(`gzip: ${(e as Error).message}`));
            }
          }
          finish(undefined, { status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? 'application/json'), headers: res.headers, body: buf });
        });
      });
      req.end(body);
    });
  }

  /** Closes every pooled connection. */
  close(): void {
    for (const a of this.#clients.values()) a.destroy();
    this.#clients.clear();
  }
}

class RetryableError extends Error {
  constructor(override readonly cause: CallError) {
    super(cause.message);
  }
}
