/**
 * A minimal HTTPS client for the HA tests and benchmark: JSON requests with a hard client-side timeout (a
 * request that hangs is reported as status 0, never waited on forever), and a watch reader that records
 * each event and how the stream ended (cleanly after a whole event, or reset / cut mid-event).
 */
import https from 'node:https';
import type { AdminCreds } from '../acceptance/keelson-process.ts';

export interface HaResponse {
  /** HTTP status; 0 when the request failed (connection error) or timed out. */
  status: number;
  text: string;
  ms: number;
  error?: string;
}

/** A keep-alive agent: connections through the load balancer are spread over replicas when opened. */
export function keepAliveAgent(maxSockets: number): https.Agent {
  return new https.Agent({ keepAlive: true, maxSockets });
}

export function haRequest(creds: AdminCreds, method: string, p: string, opts: { body?: unknown; timeoutMs?: number; agent?: https.Agent } = {}): Promise<HaResponse> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const u = new URL(p, creds.server);
    const body = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
    const req = https.request(
      {
        method, hostname: u.hostname, port: u.port, path: u.pathname + u.search, ca: creds.ca, cert: creds.cert, key: creds.key,
        servername: 'localhost', agent: opts.agent ?? false,
        headers: body ? { 'content-type': 'application/json', 'content-length': body.length } : {},
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, ms: performance.now() - t0 }));
        res.on('error', (err) => resolve({ status: 0, text, ms: performance.now() - t0, error: String(err) }));
      },
    );
    req.setTimeout(opts.timeoutMs ?? 10_000, () => req.destroy(new Error('client timeout')));
    req.on('error', (err) => resolve({ status: 0, text: '', ms: performance.now() - t0, error: String(err) }));
    req.end(body);
  });
}

export interface WatchEvent {
  type: string;
  object: { metadata: { name: string; resourceVersion: string; [k: string]: unknown }; [k: string]: unknown };
}

export interface HaWatch {
  readonly status: Promise<number>;
  readonly events: WatchEvent[];
  /** Resolves when the stream ends: `clean` when it ended after a whole event (no partial line, no reset). */
  readonly done: Promise<{ clean: boolean; error?: string; partial: string }>;
  onEvent(fn: (e: WatchEvent) => void): void;
  close(): void;
}

export function haWatch(creds: AdminCreds, p: string): HaWatch {
  const u = new URL(p, creds.server);
  const events: WatchEvent[] = [];
  const listeners: ((e: WatchEvent) => void)[] = [];
  let resolveStatus!: (s: number) => void;
  const status = new Promise<number>((r) => (resolveStatus = r));
  let finish!: (r: { clean: boolean; error?: string; partial: string }) => void;
  const done = new Promise<{ clean: boolean; error?: string; partial: string }>((r) => (finish = r));
  let buf = '';
  const req = https.get(
    { hostname: u.hostname, port: u.port, path: u.pathname + u.search, ca: creds.ca, cert: creds.cert, key: creds.key, servername: 'localhost', agent: false },
    (res) => {
      resolveStatus(res.statusCode ?? 0);
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        buf += c;
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (!line.trim()) continue;
          const e = JSON.parse(line) as WatchEvent;
          events.push(e);
          for (const l of listeners) l(e);
        }
      });
      // 'end' only follows a complete chunked body; an abort or reset emits 'error'/'aborted' instead.
      res.on('end', () => finish({ clean: buf.trim() === '', partial: buf }));
      res.on('error', (err) => finish({ clean: false, error: String(err), partial: buf }));
      res.on('aborted', () => finish({ clean: false, error: 'aborted', partial: buf }));
    },
  );
  req.on('error', (err) => {
    resolveStatus(0);
    finish({ clean: false, error: String(err), partial: buf });
  });
  return { status, events, done, onEvent: (fn) => listeners.push(fn), close: () => req.destroy() };
}

/** The etcd member currently leading, found through each member's status endpoint (gRPC gateway). */
export async function etcdLeaderIndex(endpoints: readonly string[]): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    for (let i = 0; i < endpoints.length; i++) {
      try {
        const r = await fetch(`${endpoints[i]}/v3/maintenance/status`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(1000) });
        const s = (await r.json()) as { header?: { member_id?: string }; leader?: string };
        if (s.leader && s.header?.member_id === s.leader) return i;
      } catch {
        // member down or not answering: ask the next
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no etcd leader found');
}

/**
 * Moves etcd leadership to member `to` (MoveLeader through the leader's gRPC gateway) and waits until it
 * leads, so a test can put the leader first in the endpoint list.
 */
export async function moveEtcdLeader(endpoints: readonly string[], to: number): Promise<void> {
  const leader = await etcdLeaderIndex(endpoints);
  if (leader === to) return;
  const status = (await (await fetch(`${endpoints[to]}/v3/maintenance/status`, { method: 'POST', body: '{}' })).json()) as { header: { member_id: string } };
  const r = await fetch(`${endpoints[leader]}/v3/maintenance/transfer-leadership`, {
    method: 'POST', body: JSON.stringify({ targetID: status.header.member_id }), signal: AbortSignal.timeout(10_000),
  });
  if (!r.ok) throw new Error(`MoveLeader failed: ${r.status} ${await r.text()}`);
  for (let i = 0; i < 100 && (await etcdLeaderIndex(endpoints)) !== to; i++) await new Promise((res) => setTimeout(res, 100));
  if ((await etcdLeaderIndex(endpoints)) !== to) throw new Error(`etcd member ${to} did not become leader`);
}
