/**
 * Watch fan-out: N watches of one object over HTTP/2 sessions (streams spread over several sessions, as many
 * clients would), then one change; reports how long until every watcher has the event.
 */
import http2 from 'node:http2';
import type { TlsClient } from './load.ts';
import { percentile } from './load.ts';

export interface FanoutOptions {
  url: string;
  tls: TlsClient;
  /** Watch path without the query (e.g. /api/v1/namespaces/bench/configmaps). */
  path: string;
  name: string;
  resourceVersion: string;
  watchers: number;
  perSession?: number;
  /** Makes the change; resolves when the server accepted it. */
  change(): Promise<void>;
  timeoutMs?: number;
}

export interface FanoutResult {
  watchers: number;
  received: number;
  p50Ms: number;
  maxMs: number;
}

export async function watchFanout(o: FanoutOptions): Promise<FanoutResult> {
  const perSession = o.perSession ?? 100;
  const sessions: http2.ClientHttp2Session[] = [];
  const arrivals: number[] = [];
  let t0 = 0;
  const established: Array<Promise<void>> = [];
  const streams: http2.ClientHttp2Stream[] = [];
  try {
    for (let i = 0; i < o.watchers; i++) {
      if (i % perSession === 0) {
        const s = http2.connect(o.url, { ca: o.tls.ca, cert: o.tls.cert, key: o.tls.key, servername: 'localhost' });
        s.on('error', () => {});
        sessions.push(s);
      }
      const session = sessions.at(-1)!;
      const q = `?watch=1&resourceVersion=${o.resourceVersion}&fieldSelector=${encodeURIComponent(`metadata.name=${o.name}`)}`;
      const st = session.request({ ':path': o.path + q, ':method': 'GET' });
      streams.push(st);
      st.setEncoding('utf8');
      let seen = false;
      let buf = '';
      st.on('data', (c: string) => {
        buf += c;
        if (!seen && buf.includes('\n')) {
          seen = true;
          arrivals.push(performance.now() - t0);
        }
      });
      st.on('error', () => {});
      established.push(new Promise((resolve, reject) => {
        st.on('response', (h) => (h[':status'] === 200 ? resolve() : reject(new Error(`watch answered ${h[':status']}`))));
        st.on('error', reject);
      }));
    }
    await Promise.all(established);
    t0 = performance.now();
    await o.change();
    const deadline = Date.now() + (o.timeoutMs ?? 10_000);
    while (arrivals.length < o.watchers && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
    const sorted = [...arrivals].sort((a, b) => a - b);
    return { watchers: o.watchers, received: arrivals.length, p50Ms: percentile(sorted, 50), maxMs: sorted.at(-1) ?? NaN };
  } finally {
    for (const st of streams) st.close();
    for (const s of sessions) s.destroy();
  }
}
