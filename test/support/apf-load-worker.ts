/**
 * The load half of the overload scenario, run in a worker thread: the listers and the flooder. Their TLS
 * decryption and body handling then load a core of their own instead of the server's event loop, as real
 * clients in other processes would; the exempt samplers stay on the server's thread, so their latency
 * includes every stall of the server's loop. Bodies of lists are counted, not kept.
 */
import https from 'node:https';
import { parentPort, workerData } from 'node:worker_threads';

export interface LoadWorkerInput {
  readonly url: string;
  readonly caPem: string;
  readonly listers: number;
  readonly floodConcurrency: number;
  readonly durationMs: number;
  readonly floodBodyBytes: number;
  /** Path the listers read. */
  readonly listPath: string;
}

export interface LoadWorkerOutput {
  readonly listsPerLister: number[];
  /** Bytes of the last successful list (to check it was the whole list). */
  readonly lastListBytes: number;
  readonly listerStatuses: Record<string, number>;
  readonly floodStatuses: Record<string, number>;
  readonly floodRetryAfter: number;
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  bytes: number;
}

const count = (m: Record<string, number>, k: number | string): void => {
  m[k] = (m[k] ?? 0) + 1;
};

function caller(input: LoadWorkerInput, token: string, sockets: number) {
  const base = new URL(input.url);
  const agent = new https.Agent({ keepAlive: true, maxSockets: sockets });
  const call = (method: string, path: string, body?: unknown): Promise<Answer | undefined> => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve) => {
      const req = https.request({
        agent, ca: input.caPem, servername: 'localhost', hostname: base.hostname, port: base.port, method, path,
        headers: { Authorization: `Bearer ${token}`, ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } : {}) },
        timeout: 60_000,
      }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], bytes }));
        res.on('error', () => resolve(undefined));
      });
      req.on('timeout', () => req.destroy(new Error('no answer in 60 s')));
      req.on('error', () => resolve(undefined));
      req.end(payload);
    });
  };
  return { call, close: () => agent.destroy() };
}

async function run(input: LoadWorkerInput): Promise<LoadWorkerOutput> {
  const flooder = caller(input, 'flooder-token', Math.max(1, input.floodConcurrency));
  const listerCallers = Array.from({ length: input.listers }, (_, i) => caller(input, `lister-${i}-token`, 1));
  // Open every connection before the clock starts: a storm of TLS handshakes is not what is measured.
  await Promise.all([
    ...Array.from({ length: input.floodConcurrency }, () => flooder.call('GET', '/version')),
    ...listerCallers.map((c) => c.call('GET', '/version')),
  ]);
  parentPort!.postMessage({ ready: true });
  const end = performance.now() + input.durationMs;
  const live = () => performance.now() < end;
  const listerStatuses: Record<string, number> = {};
  const floodStatuses: Record<string, number> = {};
  const listsPerLister = Array.from({ length: input.listers }, () => 0);
  let floodRetryAfter = 0;
  let lastListBytes = 0;
  const listers = listerCallers.map(async (c, i) => {
    while (live()) {
      const r = await c.call('GET', input.listPath);
      count(listerStatuses, r?.status ?? 'error');
      if (r?.status === 200) {
        listsPerLister[i]!++;
        lastListBytes = r.bytes;
      } else if (r?.status === 429) await new Promise((res) => setTimeout(res, 100));
    }
  });
  let seq = 0;
  const pad = 'y'.repeat(input.floodBodyBytes);
  const floods = Array.from({ length: input.floodConcurrency }, async () => {
    while (live()) {
      const r = await flooder.call('POST', '/api/v1/namespaces/flood/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `f-${seq++}` }, data: { v: pad } });
      count(floodStatuses, r?.status ?? 'error');
      if (r?.status === 429 && /^\d+$/.test(String(r.retryAfter))) floodRetryAfter++;
    }
  });
  await Promise.all([...listers, ...floods]);
  flooder.close();
  for (const c of listerCallers) c.close();
  return { listsPerLister, lastListBytes, listerStatuses, floodStatuses, floodRetryAfter };
}

if (parentPort && workerData) {
  run(workerData as LoadWorkerInput).then((out) => parentPort!.postMessage({ out }), (err: unknown) => parentPort!.postMessage({ error: String(err) }));
}
