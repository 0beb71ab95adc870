/**
 * A bare HTTPS client for priority-and-fairness tests and the benchmark: one keep-alive agent per caller with
 * room for many parallel requests (the shared test agents cap at 16 sockets, which would queue a flood in the
 * client instead of the server), and the status, headers and latency of each answer.
 */
import https from 'node:https';

export interface ApfAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  ms: number;
}

export interface ApfCaller {
  call(method: string, path: string, body?: unknown): Promise<ApfAnswer>;
  close(): void;
}

/** `auth`: a bearer token, or the admin client certificate. */
export function apfCaller(url: string, caPem: string, auth: { token: string } | { certPem: string; keyPem: string }, maxSockets = 256): ApfCaller {
  const base = new URL(url);
  const agent = new https.Agent({ keepAlive: true, maxSockets, ...('certPem' in auth ? { cert: auth.certPem, key: auth.keyPem } : {}) });
  return {
    call(method, path, body) {
      const started = performance.now();
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      return new Promise((resolve, reject) => {
        const req = https.request({
          agent, ca: caPem, servername: 'localhost', hostname: base.hostname, port: base.port, method, path,
          headers: {
            ...('token' in auth ? { Authorization: `Bearer ${auth.token}` } : {}),
            ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } : {}),
          },
          timeout: 60_000,
        }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString(), ms: performance.now() - started }));
          res.on('error', reject);
        });
        req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 60 s`)));
        req.on('error', reject);
        req.end(payload);
      });
    },
    close: () => agent.destroy(),
  };
}
