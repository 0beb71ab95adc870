/**
 * Test harness: a real Keelson server in-process on 127.0.0.1 and a random port, plus a small HTTPS client
 * authenticated with the admin client certificate (or anonymous / a bearer token).
 *
 * ```ts
 * const srv = await startTestServer();
 * const r = await srv.request('GET', '/api/v1/namespaces');
 * assert.equal(r.status, 200);
 * await srv.stop();
 * ```
 */
import http2 from 'node:http2';
import https from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { startServer } from '../../src/index.ts';
import type { ServerOptions } from '../../src/controlplane/options.ts';

export type Caller = 'admin' | 'anonymous' | { token: string } | { certPem: string; keyPem: string };

export interface RequestOptions {
  /** Object (sent as JSON unless a Content-Type header says otherwise), string or bytes. */
  body?: unknown;
  headers?: Record<string, string>;
  user?: Caller;
  /** Give up after this long (default 15 s). */
  timeoutMs?: number;
  /** Send over HTTP/2 (as kubectl does) instead of HTTP/1.1; admin credentials only. */
  http2?: boolean;
}

export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Raw body bytes as received (still gzip-compressed when the server compressed them). */
  raw: Buffer;
  /** Body decoded (gunzipped when Content-Encoding: gzip) as text. */
  text: string;
  /** Parsed JSON body; throws when the body is not JSON. */
  json<T = any>(): T;
}

export interface WatchStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Next decoded event (`{ type, object }`); rejects after `timeoutMs` or when the stream ends first. */
  next(timeoutMs?: number): Promise<{ type: string; object: any }>;
  /** Events read so far that `next` has not returned yet. */
  pending(): number;
  /** True once the server ended the stream. */
  ended(): boolean;
  close(): void;
}

export interface TestServer {
  url: string;
  port: number;
  kubeconfigPath: string;
  dataDir: string;
  caPem: string;
  request(method: string, path: string, opts?: RequestOptions): Promise<TestResponse>;
  /** Opens a watch (`path` must include `watch=1` or be a watch URL) and reads its events one by one. */
  watch(path: string, opts?: RequestOptions): Promise<WatchStream>;
  stop(): Promise<void>;
}

export interface TestServerOptions extends Omit<ServerOptions, 'port'> {
  /** Default 'memory'. 'sqlite' uses a fresh temp dir unless `dataDir` is given. */
  storage?: ServerOptions['storage'];
  /** Listen here instead of 127.0.0.1 on a random port (replicas on 127.0.0.x sharing one port). */
  listen?: { host: string; port: number };
}

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const ownDir = opts.dataDir ? undefined : mkdtempSync(path.join(tmpdir(), 'keelson-test-'));
  const dataDir = opts.dataDir ?? ownDir!;
  const server = await startServer({ storage: 'memory', ...opts, port: opts.listen?.port ?? 0, bindAddress: opts.listen?.host ?? '127.0.0.1', dataDir, writeKubeconfig: opts.writeKubeconfig ?? path.join(dataDir, 'kubeconfig') });
  const agent = new https.Agent({ keepAlive: true, maxSockets: 16 });
  const anonAgent = new https.Agent({ keepAlive: true, maxSockets: 16 });
  const base = new URL(server.url);

  function options(method: string, p: string, o: RequestOptions): https.RequestOptions {
    const headers: Record<string, string> = { ...o.headers };
    const user = o.user ?? 'admin';
    const tls: https.RequestOptions = { ca: server.caPem, servername: 'localhost' };
    let agentFor: https.Agent | false = anonAgent;
    if (user === 'admin') {
      Object.assign(tls, { cert: server.adminCertPem, key: server.adminKeyPem });
      agentFor = agent;
    } else if (typeof user === 'object' && 'token' in user) {
      headers['Authorization'] ??= `Bearer ${user.token}`;
    } else if (typeof user === 'object') {
      Object.assign(tls, { cert: user.certPem, key: user.keyPem });
      agentFor = false;
    }
    return { ...tls, agent: agentFor, method, hostname: opts.listen?.host ?? '127.0.0.1', port: base.port, path: p, headers };
  }

  function bodyOf(o: RequestOptions): Buffer | undefined {
    if (o.body === undefined) return undefined;
    if (Buffer.isBuffer(o.body)) return o.body;
    if (o.body instanceof Uint8Array) return Buffer.from(o.body);
    if (typeof o.body === 'string') return Buffer.from(o.body);
    return Buffer.from(JSON.stringify(o.body));
  }

  function request2(method: string, p: string, o: RequestOptions): Promise<TestResponse> {
    const body = bodyOf(o);
    return new Promise((resolve, reject) => {
      const session = http2.connect(server.url, { ca: server.caPem, cert: server.adminCertPem, key: server.adminKeyPem, servername: 'localhost' });
      session.on('error', reject);
      const headers: http2.OutgoingHttpHeaders = { ':method': method, ':path': p, ...o.headers };
      if (body && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
      // Node ends DELETE (and GET/HEAD) streams at once unless told otherwise: a body must still go out.
      const st = session.request(headers, body ? { endStream: false } : {});
      const timer = setTimeout(() => { session.destroy(); reject(new Error(`${method} ${p}: no answer within ${o.timeoutMs ?? 15_000} ms`)); }, o.timeoutMs ?? 15_000);
      let resHeaders: http2.IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      st.on('response', (h) => { resHeaders = h; });
      st.on('data', (c: Buffer) => chunks.push(c));
      // The server may answer before reading the whole body (413) and reset the stream: keep the answer.
      st.on('error', () => {});
      st.on('close', () => {
        clearTimeout(timer);
        session.close();
        const status = Number(resHeaders[':status'] ?? 0);
        if (!status) {
          reject(new Error(`${method} ${p}: stream closed without an answer (rst code ${st.rstCode})`));
          return;
        }
        const raw = Buffer.concat(chunks);
        const decoded = resHeaders['content-encoding'] === 'gzip' ? zlib.gunzipSync(raw) : raw;
        const text = decoded.toString('utf8');
        resolve({ status, headers: resHeaders as TestResponse['headers'], raw, text, json: () => JSON.parse(text) });
      });
      st.end(body);
    });
  }

  function request(method: string, p: string, o: RequestOptions = {}): Promise<TestResponse> {
    if (o.http2) return request2(method, p, o);
    const body = bodyOf(o);
    const ro = options(method, p, o);
    const headers = ro.headers as Record<string, string>;
    if (body) {
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(body.byteLength);
    }
    return new Promise((resolve, reject) => {
      const req = https.request(ro, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const decoded = res.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(raw) : raw;
          const text = decoded.toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, text, json: () => JSON.parse(text) });
        });
      });
      req.setTimeout(o.timeoutMs ?? 15_000, () => req.destroy(new Error(`${method} ${p}: no answer within ${o.timeoutMs ?? 15_000} ms`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  function watch(p: string, o: RequestOptions = {}): Promise<WatchStream> {
    const ro = options('GET', p, o);
    ro.agent = false;
    return new Promise((resolve, reject) => {
      const req = https.request(ro, (res) => {
        const queue: Array<{ type: string; object: unknown }> = [];
        const waiters: Array<(e: Error | undefined) => void> = [];
        let buf = '';
        let done = false;
        const wake = (err?: Error) => { for (const w of waiters.splice(0)) w(err); };
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          buf += c;
          let i: number;
          while ((i = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, i).trim();
            buf = buf.slice(i + 1);
            if (line) queue.push(JSON.parse(line) as { type: string; object: unknown });
          }
          wake();
        });
        const end = () => { done = true; wake(); };
        res.on('end', end);
        res.on('close', end);
        res.on('error', end);
        const stream: WatchStream = {
          status: res.statusCode ?? 0,
          headers: res.headers,
          pending: () => queue.length,
          ended: () => done,
          async next(timeoutMs = 10_000) {
            const deadline = Date.now() + timeoutMs;
            for (;;) {
              const e = queue.shift();
              if (e) return e as { type: string; object: any };
              if (done) throw new Error(`watch ${p} ended before the next event${buf ? ` (unparsed: ${buf.slice(0, 200)})` : ''}`);
              const left = deadline - Date.now();
              if (left <= 0) throw new Error(`watch ${p}: no event within ${timeoutMs} ms`);
              await new Promise<void>((r) => {
                const t = setTimeout(r, left);
                waiters.push(() => { clearTimeout(t); r(); });
              });
            }
          },
          close() {
            done = true;
            req.destroy();
            res.destroy();
            wake();
          },
        };
        resolve(stream);
      });
      req.on('error', reject);
      req.end();
    });
  }

  let stopped: Promise<void> | undefined;
  return {
    url: server.url,
    port: server.port,
    kubeconfigPath: server.kubeconfigPath ?? path.join(dataDir, 'kubeconfig'),
    dataDir,
    caPem: server.caPem,
    request,
    watch,
    stop() {
      stopped ??= (async () => {
        agent.destroy();
        anonAgent.destroy();
        await server.stop();
        if (ownDir) rmSync(ownDir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}

/** Polls `check` until it returns something truthy; bounded so a broken controller fails the test instead of hanging. */
export async function eventually<T>(what: string, check: () => Promise<T> | T, timeoutMs = 15_000): Promise<Exclude<T, undefined | false | null>> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as Exclude<T, undefined | false | null>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A namespace name unique within the run (DNS-1123 label). */
let seq = 0;
export function uniqueName(prefix = 't'): string {
  return `${prefix}-${process.pid.toString(36)}-${(seq++).toString(36)}`;
}

/**
 * A cert dir (CA, serving certificate, service-account key) for several servers on one store: replicas must share
 * their trust material, or the later ones are refused at start (src/controlplane/replica-check.ts). Made by starting
 * and stopping a throwaway server on it; the caller removes the dir.
 */
export async function sharedCertDir(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-certs-'));
  const s = await startTestServer({ certDir: dir });
  await s.stop();
  return dir;
}
