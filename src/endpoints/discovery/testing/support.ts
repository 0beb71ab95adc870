/**
 * A minimal in-memory RequestContext for endpoint unit tests: records status, headers and body.
 */
import { EventEmitter } from 'node:events';
import type { RequestContext } from '../../../request/context.ts';

export interface Captured { status: number; headers: Record<string, string | string[]>; body: Buffer }

export function fakeContext(path: string, opts: { method?: string; headers?: Record<string, string> } = {}): { ctx: RequestContext; done: () => Captured } {
  const url = new URL(`https://127.0.0.1:6443${path}`);
  const req = Object.assign(new EventEmitter(), {
    method: opts.method ?? 'GET',
    url: path,
    headers: Object.fromEntries(Object.entries(opts.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    socket: { localAddress: '127.0.0.1', localPort: 6443 },
  });
  const cap: Captured = { status: 0, headers: {}, body: Buffer.alloc(0) };
  const res = {
    headersSent: false,
    writeHead(code: number, h: Record<string, string | string[]>) {
      cap.status = code;
      for (const [k, v] of Object.entries(h ?? {})) cap.headers[k.toLowerCase()] = v;
      this.headersSent = true;
      return this;
    },
    setHeader(k: string, v: string | string[]) { cap.headers[k.toLowerCase()] = v; },
    end(b?: Uint8Array | string) { if (b) cap.body = Buffer.from(b); },
  };
  const ctx = {
    req, res, url, query: url.searchParams,
    info: { isResourceRequest: false, path, verb: 'get', apiPrefix: '', apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '', parts: [] },
    user: { username: 'admin', groups: ['system:masters'] },
    auditId: 'test', warnings: [], signal: new AbortController().signal, startTime: 0,
  } as unknown as RequestContext;
  return { ctx, done: () => cap };
}
