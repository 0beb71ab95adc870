/**
 * Cost of the metrics filter per request (`node --import tsx bench/metrics.ts`): the request families
 * (apiserver_request_total, _duration_seconds, _sli/_slo, response sizes) recorded for one request, measured
 * as the same handler run with and without `withMetrics` in front of it, in the same run. The physical baseline
 * is one plain HTTP/1.1 request to a Node server on 127.0.0.1 answering a fixed 200 (keep-alive), so the added
 * time is shown as a share of the cheapest possible request. In-process for the filter; each figure is the
 * median of 5 runs of N requests after a warm-up. Prints a markdown table for BENCHMARKS.md.
 * `BENCH_QUICK=1` shrinks N for a smoke run.
 */
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Metrics } from '../src/endpoints/metrics.ts';
import { withMetrics } from '../src/server/filters/metrics.ts';
import type { ServerContext, ServerHandler } from '../src/server/filters/types.ts';
import type { RequestInfo } from '../src/request/context.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const N = QUICK ? 5_000 : 100_000;
const HTTP_N = QUICK ? 500 : 5_000;

interface Case { name: string; method: string; info: RequestInfo; query: string; status: number; body: Buffer }

const base: RequestInfo = { isResourceRequest: true, path: '', verb: 'get', apiPrefix: 'api', apiGroup: '', apiVersion: 'v1', namespace: 'default', resource: 'configmaps', subresource: '', name: '', parts: [] };
const body = Buffer.alloc(600, 'x');
const CASES: Case[] = [
  { name: 'GET one ConfigMap (sized)', method: 'GET', info: { ...base, verb: 'get', name: 'c1' }, query: '', status: 200, body },
  { name: 'LIST ConfigMaps (sized)', method: 'GET', info: { ...base, verb: 'list' }, query: 'limit=500', status: 200, body: Buffer.alloc(20_000, 'x') },
  { name: 'POST create (dry run label)', method: 'POST', info: { ...base, verb: 'create' }, query: 'dryRun=All', status: 201, body },
  { name: 'GET /healthz (non-resource)', method: 'GET', info: { ...base, isResourceRequest: false, path: '/healthz', verb: 'get', apiVersion: '', namespace: '', resource: '' }, query: '', status: 200, body: Buffer.from('ok') },
];

/** A response that behaves enough like Node's: write/end, statusCode, and `close` once ended. */
class FakeRes extends EventEmitter {
  statusCode = 200;
  write(_c: unknown): boolean {
    return true;
  }
  end(_c?: unknown): this {
    this.emit('close');
    return this;
  }
}

function ctxFor(c: Case): ServerContext {
  const res = new FakeRes();
  res.statusCode = c.status;
  return {
    req: { method: c.method, headers: { 'content-type': 'application/json' } },
    res, info: c.info, query: new URLSearchParams(c.query), auditId: 'a', warnings: [],
  } as unknown as ServerContext;
}

const handler: ServerHandler = (ctx) => {
  const c = ctx as unknown as { res: FakeRes };
  c.res.end(CASES[0]!.body);
  return Promise.resolve();
};

async function perRequestUs(h: ServerHandler, c: Case, n: number): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await h(ctxFor(c));
  return Number(process.hrtime.bigint() - t0) / n / 1000;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function httpBaselineUs(): Promise<number> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '2' });
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const one = () => new Promise<void>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
      res.resume();
      res.on('end', resolve);
    }).on('error', reject);
  });
  for (let i = 0; i < 200; i++) await one();
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < HTTP_N; i++) await one();
    runs.push(Number(process.hrtime.bigint() - t0) / HTTP_N / 1000);
  }
  agent.destroy();
  await new Promise<void>((r) => server.close(() => r()));
  return median(runs);
}

async function main(): Promise<void> {
  const metrics = new Metrics({ processMetrics: false });
  const withIt = withMetrics(handler, { metrics });
  const rows: string[] = [];
  const baseline = await httpBaselineUs();
  for (const c of CASES) {
    await perRequestUs(withIt, c, Math.min(N, 10_000));
    await perRequestUs(handler, c, Math.min(N, 10_000));
    const on: number[] = [];
    const off: number[] = [];
    for (let r = 0; r < 5; r++) {
      off.push(await perRequestUs(handler, c, N));
      on.push(await perRequestUs(withIt, c, N));
    }
    const added = median(on) - median(off);
    rows.push(`| ${c.name} | ${median(on).toFixed(2)} µs | ${median(off).toFixed(2)} µs | ${added.toFixed(2)} µs | ${(added / baseline * 100).toFixed(1)} % |`);
  }
  console.log(`\nMetrics filter per request (N=${N}, median of 5); physical baseline: one keep-alive HTTP/1.1 request to a bare Node server = ${baseline.toFixed(1)} µs\n`);
  console.log('| request | with the metrics filter | without (same handler) | added | added / bare HTTP request |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows) console.log(r);
}

await main();
