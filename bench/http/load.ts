/**
 * Load generator: `concurrency` workers over a keep-alive HTTPS agent with that many sockets, each sending
 * requests back to back for a bounded time (or count). Latencies are recorded per request for percentiles.
 */
import https from 'node:https';

export interface TlsClient {
  ca: string;
  cert?: string;
  key?: string;
}

export interface LoadOptions {
  host: string;
  port: number;
  tls: TlsClient;
  method?: string;
  /** Path per request (the index lets callers vary names). */
  path: (i: number) => string;
  body?: (i: number) => Buffer | undefined;
  headers?: Record<string, string>;
  concurrency: number;
  /** Stop after this long… */
  durationMs?: number;
  /** …or after this many requests, whichever first. */
  count?: number;
  /** Expected status; anything else counts as an error. */
  expect?: number;
  warmupMs?: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  firstError?: string;
}

export function percentile(sorted: Float64Array | number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

function once(agent: https.Agent, o: LoadOptions, i: number): Promise<number> {
  const body = o.body?.(i);
  const headers: Record<string, string> = { ...o.headers };
  if (body) headers['Content-Length'] = String(body.byteLength);
  return new Promise((resolve, reject) => {
    const req = https.request({
      agent, host: o.host, port: o.port, method: o.method ?? 'GET', path: o.path(i), headers,
      ca: o.tls.ca, cert: o.tls.cert, key: o.tls.key, servername: 'localhost',
    }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const agent = new https.Agent({ keepAlive: true, maxSockets: o.concurrency, maxFreeSockets: o.concurrency });
  try {
    if (o.warmupMs) await runPhase(agent, { ...o, durationMs: o.warmupMs, count: undefined }, 0);
    return await runPhase(agent, o, o.warmupMs ? 1_000_000 : 0);
  } finally {
    agent.destroy();
  }
}

async function runPhase(agent: https.Agent, o: LoadOptions, offset: number): Promise<LoadResult> {
  const lat: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const t0 = performance.now();
  const end = o.durationMs ? t0 + o.durationMs : Infinity;
  const limit = o.count ?? Infinity;
  const worker = async () => {
    for (;;) {
      if (next >= limit || performance.now() >= end) return;
      const i = next++;
      const s = performance.now();
      try {
        const code = await once(agent, o, offset + i);
        if (o.expect && code !== o.expect) {
          errors++;
          firstError ??= `status ${code}`;
        }
      } catch (err) {
        errors++;
        firstError ??= (err as Error).message;
      }
      lat.push(performance.now() - s);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  const sorted = Float64Array.from(lat).sort();
  return {
    requests: lat.length, errors, seconds, perSecond: lat.length / seconds,
    p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), ...(firstError ? { firstError } : {}),
  };
}
