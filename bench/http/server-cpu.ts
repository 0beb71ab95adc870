/**
 * Server CPU per request for a keelson child process: utime + stime from /proc/<pid>/stat around a run of
 * sequential requests on one keep-alive connection, so the load generator's own CPU is never counted.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import type { AdminCreds } from '../../test/acceptance/keelson-process.ts';

/** utime + stime of a process in milliseconds (Linux; clock ticks of 10 ms, USER_HZ=100). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

export interface Client {
  call(method: string, path: string, body?: unknown, contentType?: string): Promise<{ status: number; text: string }>;
  close(): void;
}

/** An admin client with one keep-alive connection. */
export function client(creds: AdminCreds): Client {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return {
    call(method, path, body, contentType = 'application/json') {
      const url = new URL(path, creds.server);
      const data = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
      return new Promise((resolve, reject) => {
        const req = request({
          host: url.hostname, port: url.port, path: url.pathname + url.search, method, agent, ca: creds.ca, cert: creds.cert, key: creds.key, servername: 'localhost',
          headers: { Accept: 'application/json', ...(data ? { 'Content-Type': contentType, 'Content-Length': String(data.byteLength) } : {}) },
        }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (c: string) => { text += c; }).on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.setTimeout(60_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
        req.on('error', reject);
        req.end(data);
      });
    },
    close() {
      agent.destroy();
    },
  };
}

/** Server CPU in µs per call of `fn` (n calls after a short warm-up); every call must answer `expect`. */
export async function serverCpuPerCall(pid: number, n: number, fn: (i: number) => Promise<{ status: number; text: string }>, expect = 201, warmup = 100): Promise<number> {
  let i = 0;
  for (let w = 0; w < warmup; w++) {
    const r = await fn(i++);
    if (r.status !== expect) throw new Error(`warm-up: unexpected status ${r.status}: ${r.text.slice(0, 300)}`);
  }
  const before = cpuMs(pid);
  for (let k = 0; k < n; k++) {
    const r = await fn(i++);
    if (r.status !== expect) throw new Error(`unexpected status ${r.status}: ${r.text.slice(0, 300)}`);
  }
  return ((cpuMs(pid) - before) * 1000) / n;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
