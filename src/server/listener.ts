/**
 * The TLS listener: HTTP/2 and HTTP/1.1 on one port (ALPN h2, http/1.1). Client certificates are requested but
 * not enforced by TLS (`rejectUnauthorized: false`); the authentication filter verifies them, so a bad or
 * missing certificate ends in a Kubernetes 401/anonymous instead of a handshake failure.
 *
 * Invariants: every request gets an AbortSignal that fires when its client goes away or the server shuts down
 * (watches end on it); `close()` stops accepting, aborts those signals, lets in-flight requests finish up to a
 * grace period, then destroys what is left. Nothing (sockets, sessions, timers) outlives `close()`.
 */
import http2 from 'node:http2';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse, ServerHttp2Session } from 'node:http2';
import type { RequestInfo } from '../request/context.ts';
import type { ServerContext, ServerHandler } from './filters/types.ts';
import { commonHeaders } from '../request/respond.ts';

export interface ListenerOptions {
  readonly host: string;
  readonly port: number;
  readonly certPem: string;
  readonly keyPem: string;
  /** CAs offered to clients as acceptable client-certificate issuers. */
  readonly clientCaPems: readonly string[];
  readonly handler: ServerHandler;
  readonly log?: (line: string) => void;
  /** `--http2-max-streams-per-connection`; kube-apiserver uses 1000. */
  readonly maxStreamsPerConnection?: number;
  /** `--tls-min-version`; default TLSv1.2 as kube-apiserver. */
  readonly minTlsVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
}

export interface Listener {
  readonly port: number;
  readonly host: string;
  /** Requests currently being served. */
  inFlight(): number;
  /** Graceful close: stop accepting, end long-running requests, wait up to `graceMs` for the rest. */
  close(opts?: { graceMs?: number }): Promise<void>;
}

function placeholderInfo(method: string, path: string): RequestInfo {
  return { isResourceRequest: false, path, verb: method.toLowerCase(), apiPrefix: '', apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '', parts: [] };
}

function parseUrl(raw: string | undefined): URL | undefined {
  try {
    const u = new URL(`https://keelson${raw && raw.startsWith('/') ? raw : `/${raw ?? ''}`}`);
    return u;
  } catch {
    return undefined;
  }
}

/** Distinct request URLs remembered by urlOf; past this the memo starts over (URLs are client-chosen). */
const URL_MEMO_MAX = 4096;
const URL_MEMO_MAX_LENGTH = 512;
const urlMemo = new Map<string, URL>();

/**
 * The parsed request URL, shared by requests with the same URL: clients repeat a few URLs, and parsing one
 * costs more than the rest of routing. Nothing may modify `ctx.url` or `ctx.query` (nothing does).
 */
function urlOf(raw: string | undefined): URL | undefined {
  if (raw === undefined || raw.length > URL_MEMO_MAX_LENGTH) return parseUrl(raw);
  let u = urlMemo.get(raw);
  if (u) return u;
  u = parseUrl(raw);
  if (!u) return undefined;
  if (urlMemo.size >= URL_MEMO_MAX) urlMemo.clear();
  urlMemo.set(raw, u);
  return u;
}

export async function listen(o: ListenerOptions): Promise<Listener> {
  const log = o.log ?? (() => {});
  const sockets = new Set<TLSSocket>();
  const sessions = new Set<ServerHttp2Session>();
  const live = new Set<LazyAbort>();
  let inFlight = 0;
  let drained: (() => void) | undefined;
  let closing = false;

  const server = http2.createSecureServer({
    key: o.keyPem,
    cert: o.certPem,
    ca: [...o.clientCaPems],
    allowHTTP1: true,
    minVersion: o.minTlsVersion ?? 'TLSv1.2',
    requestCert: true,
    rejectUnauthorized: false,
    settings: { maxConcurrentStreams: o.maxStreamsPerConnection ?? 1000 },
    // kubectl multiplexes everything (large lists, many watches) over one connection; Node's 10 MB default
    // per session would answer ENHANCE_YOUR_CALM under that load.
    maxSessionMemory: 256,
  });
  server.setTimeout(0);

  server.on('secureConnection', (s: TLSSocket) => {
    sockets.add(s);
    s.setNoDelay(true);
    s.once('close', () => sockets.delete(s));
  });
  server.on('session', (session: ServerHttp2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
    session.on('error', () => {});
    if (closing) session.close();
  });
  server.on('tlsClientError', () => {});
  server.on('clientError', () => {});

  const onRequest = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse): void => {
    req.on('error', () => {});
    res.on('error', () => {});
    const url = urlOf(req.url);
    if (!url) {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
      res.end('400 Bad Request');
      return;
    }
    const abort = new LazyAbort();
    live.add(abort);
    if (closing) abort.abort();
    res.once('close', () => {
      live.delete(abort);
      // A response that closed before it finished: the client went away mid-request.
      if (!res.writableEnded) abort.abort();
    });
    const method = req.method ?? 'GET';
    const ctx: ServerContext = new ListenerContext(req, res, url, placeholderInfo(method, url.pathname), abort);
    // HTTP/1.1 keep-alive sockets stop being reused once we are closing.
    if (closing && 'shouldKeepAlive' in res) (res as ServerResponse).shouldKeepAlive = false;
    inFlight++;
    const failed = (err: unknown): void => {
      try {
        log(`unhandled error serving ${method} ${url.pathname}: ${(err as Error)?.stack ?? String(err)}`);
        if (!res.headersSent) res.writeHead(500, commonHeaders(ctx, {}));
        res.end();
      } catch {
        // The stream is gone; nothing left to tell the client.
      } finally {
        done();
      }
    };
    // One reaction per request (then with both callbacks), not a catch and a finally promise. The outer
    // filters are plain functions, so a throw can also arrive synchronously.
    let served: Promise<void>;
    try {
      served = o.handler(ctx);
    } catch (err) {
      failed(err);
      return;
    }
    served.then(done, failed);
  };
  const done = (): void => {
    inFlight--;
    if (inFlight === 0) drained?.();
  };
  server.on('request', onRequest);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => log(`listener error: ${err.message}`));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : o.port;

  return {
    port,
    host: o.host,
    inFlight: () => inFlight,
    async close(opts = {}): Promise<void> {
      if (closing) return;
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const a of live) a.abort();
      for (const s of sessions) s.close();
      // Idle HTTP/1.1 keep-alive sockets: nothing in flight on them can be lost.
      for (const s of sockets) {
        if ((s as TLSSocket).alpnProtocol !== 'h2' && !(s as Socket & { _httpMessage?: unknown })._httpMessage) s.destroySoon();
      }
      if (inFlight > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise<void>((resolve) => { drained = resolve; }),
          new Promise<void>((resolve) => { timer = setTimeout(resolve, opts.graceMs ?? 5000); }),
        ]);
        clearTimeout(timer);
      }
      // A handler resolves once it has called end(); its last bytes (a watch's final chunk) may still sit in
      // the socket's buffer. End the sockets after their writes flush and give that a moment before the
      // hard destroy, so a client sees a complete stream rather than a reset.
      await flushThenClose(sockets, 1000);
      for (const s of sessions) s.destroy();
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

/** Half-closes each socket once its pending writes are flushed; resolves when all closed or after `ms`. */
async function flushThenClose(sockets: ReadonlySet<TLSSocket>, ms: number): Promise<void> {
  const open = [...sockets].filter((s) => !s.destroyed);
  if (open.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(open.map((s) => new Promise<void>((resolve) => {
      s.once('close', () => resolve());
      // An HTTP/2 session closes its own socket once its streams end (session.close() above).
      if ((s as TLSSocket).alpnProtocol !== 'h2') s.destroySoon();
    }))),
    new Promise<void>((resolve) => { timer = setTimeout(resolve, ms); }),
  ]);
  clearTimeout(timer);
}

/**
 * The context each request starts with. A class, not an object literal: a literal with a getter and a closure
 * got a hidden class of its own per request, allocated in old space, and that map kept the request's objects
 * (req, res, buffers) reachable from old space until the next full GC: every request's garbage was promoted
 * (≈ 3 KB per request, 11–19 ms scavenges; BENCHMARKS.md, issue 16).
 */
class ListenerContext implements ServerContext {
  readonly query: URLSearchParams;
  user: ServerContext['user'] = { username: '', groups: [] };
  auditId = '';
  readonly warnings: string[] = [];
  readonly startTime = Date.now();
  constructor(readonly req: ServerContext['req'], readonly res: ServerContext['res'], readonly url: URL, public info: ServerContext['info'],
    private readonly abort: LazyAbort) {
    this.query = url.searchParams;
  }
  get signal(): AbortSignal {
    return this.abort.signal;
  }
  abortRequest(): void {
    this.abort.abort();
  }
}

/**
 * An AbortSignal made only when a handler asks for it: most requests never look, and creating and aborting
 * one per request is measurable at tens of thousands of requests per second. Once aborted, later readers get
 * an aborted signal.
 */
class LazyAbort {
  private ac: AbortController | undefined;
  private aborted = false;
  get signal(): AbortSignal {
    if (!this.ac) {
      this.ac = new AbortController();
      if (this.aborted) this.ac.abort();
    }
    return this.ac.signal;
  }
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.ac?.abort();
  }
}
