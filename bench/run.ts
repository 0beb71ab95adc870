/**
 * `npm run bench`: the API server targets of issue 3, measured against a real `keelson` process (sqlite store
 * in a temp dir) with the load generator in this process, on the same machine:
 *   ready time (empty / 10k objects), GET of one object at 64 keep-alive connections vs a bare node:https
 *   baseline serving the same bytes, durable 1 KB ConfigMap creates, LIST of 10k, one change to 1,000 watchers,
 *   idle RSS. Prints a markdown table and rewrites the `## API server` section of BENCHMARKS.md.
 * Every phase is bounded in time or count. `BENCH_QUICK=1` shrinks counts for a smoke run (not recorded).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { freePort, readKubeconfig, REPO_ROOT, startKeelson, type AdminCreds, type KeelsonProcess } from '../test/acceptance/keelson-process.ts';
import { runLoad, type TlsClient } from './http/load.ts';
import { watchFanout } from './http/watch-fanout.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const OBJECTS = QUICK ? 1000 : 10_000;
const CONCURRENCY = 64;
const GET_SECONDS = QUICK ? 2 : 5;
const WATCHERS = QUICK ? 100 : 1000;
const NS = 'bench';

interface Row { metric: string; target: string; result: string; pass: boolean | undefined }
const rows: Row[] = [];
const startLoad = os.loadavg();
function record(metric: string, target: string, result: string, pass?: boolean): void {
  rows.push({ metric, target, result, pass });
  process.stderr.write(`${metric}: ${result}${pass === undefined ? '' : pass ? ' (meets target)' : ' (MISSES target)'}\n`);
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

function request(creds: AdminCreds, method: string, p: string, body?: unknown): Promise<{ status: number; raw: Buffer }> {
  const u = new URL(creds.server);
  const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = https.request({
      host: u.hostname, port: u.port, method, path: p, ca: creds.ca, cert: creds.cert, key: creds.key, servername: 'localhost', agent: false,
      headers: data ? { 'Content-Type': 'application/json', 'Content-Length': String(data.byteLength) } : {},
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, raw: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(120_000, () => req.destroy(new Error(`${method} ${p} timed out`)));
    req.on('error', reject);
    req.end(data);
  });
}

function tlsOf(c: AdminCreds): TlsClient {
  return { ca: c.ca, cert: c.cert, key: c.key };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'keelson-bench-'));
  const dataDir = path.join(dir, 'data');
  const kubeconfig = path.join(dir, 'kc');
  let server: KeelsonProcess | undefined;
  let baseline: ReturnType<typeof spawn> | undefined;
  try {
    // Ready time on an empty data dir (includes generating the CA and certificates on first start), then
    // a second start on the same (still empty) dir, which is what users see on every later start.
    server = await startKeelson({ dataDir, kubeconfig });
    const firstReady = server.readyMs;
    await server.stop();
    server = await startKeelson({ dataDir, kubeconfig });
    record('Ready, empty data dir', '≤ 300 ms', `${server.readyMs.toFixed(0)} ms (first start with cert generation: ${firstReady.toFixed(0)} ms)`, server.readyMs <= 300);
    await sleep(1000);
    const idleRss = rssMb(server.pid);
    record('RSS idle (empty)', '≤ 100 MB', `${idleRss.toFixed(0)} MB`, idleRss <= 100);

    let creds = readKubeconfig(kubeconfig);
    const u = () => new URL(creds.server);
    const ns = await request(creds, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    if (ns.status !== 201) throw new Error(`creating namespace: ${ns.status} ${ns.raw.toString()}`);

    // Durable creates of 1 KB ConfigMaps (also seeds the 10k objects for LIST and restart).
    const payload = 'x'.repeat(1024);
    const cmPath = `/api/v1/namespaces/${NS}/configmaps`;
    const creates = await runLoad({
      host: u().hostname, port: Number(u().port), tls: tlsOf(creds), method: 'POST', concurrency: CONCURRENCY, count: OBJECTS, expect: 201,
      path: () => cmPath, headers: { 'Content-Type': 'application/json' },
      body: (i) => Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${String(i).padStart(6, '0')}` }, data: { payload } })),
    });
    if (creates.errors) throw new Error(`creates failed: ${creates.errors} errors, first: ${creates.firstError}`);
    record(`Durable creates, 1 KB ConfigMaps, ${CONCURRENCY} concurrent`, '≥ 3,000/s', `${creates.perSecond.toFixed(0)}/s (p99 ${creates.p99Ms.toFixed(1)} ms, ${creates.requests} objects)`, creates.perSecond >= 3000);

    // GET of one object vs the bare baseline serving the same bytes.
    const one = `${cmPath}/cm-000001`;
    const getLoad = () => runLoad({ host: u().hostname, port: Number(u().port), tls: tlsOf(creds), concurrency: CONCURRENCY, durationMs: GET_SECONDS * 1000, warmupMs: 1000, expect: 200, path: () => one });
    const get = await getLoad();
    if (get.errors) throw new Error(`GET failed: ${get.errors} errors, first: ${get.firstError}`);
    const bytes = (await request(creds, 'GET', one)).raw;
    writeFileSync(path.join(dir, 'body.json'), bytes);
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', path.join(dir, 'b.key'), '-out', path.join(dir, 'b.crt')], { stdio: 'ignore' });
    const bport = await freePort();
    baseline = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'bench/http/baseline-server.ts'), String(bport), path.join(dir, 'b.crt'), path.join(dir, 'b.key'), path.join(dir, 'body.json')], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      baseline!.stdout!.once('data', () => resolve());
      baseline!.once('exit', (c) => reject(new Error(`baseline server exited ${c}`)));
    });
    const base = await runLoad({ host: '127.0.0.1', port: bport, tls: { ca: readFileSync(path.join(dir, 'b.crt'), 'utf8'), cert: creds.cert, key: creds.key }, concurrency: CONCURRENCY, durationMs: GET_SECONDS * 1000, warmupMs: 1000, expect: 200, path: () => one });
    process.kill(baseline.pid!, 'SIGTERM');
    baseline = undefined;
    record(`GET one object, ${CONCURRENCY} keep-alive connections`, '≥ 15,000 req/s, p99 ≤ 5 ms',
      `${get.perSecond.toFixed(0)} req/s, p99 ${get.p99Ms.toFixed(2)} ms; bare node:https baseline ${base.perSecond.toFixed(0)} req/s, p99 ${base.p99Ms.toFixed(2)} ms (ratio ${(get.perSecond / base.perSecond).toFixed(2)})`,
      get.perSecond >= 15_000 && get.p99Ms <= 5);

    // Full LIST of the 10k ConfigMaps (body fully received), best and median of 5.
    const times: number[] = [];
    let listRv = '';
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const r = await request(creds, 'GET', cmPath);
      times.push(performance.now() - t);
      if (r.status !== 200) throw new Error(`LIST: ${r.status}`);
      if (i === 0) {
        const parsed = JSON.parse(r.raw.toString());
        listRv = parsed.metadata.resourceVersion;
        const ours = parsed.items.filter((i: { metadata: { name: string } }) => i.metadata.name.startsWith('cm-')).length;
        if (ours !== OBJECTS) throw new Error(`LIST returned ${ours} of our ConfigMaps, expected ${OBJECTS}`);
      }
    }
    times.sort((a, b) => a - b);
    record(`LIST ${OBJECTS} ConfigMaps`, '≤ 200 ms', `median ${times[2]!.toFixed(0)} ms, best ${times[0]!.toFixed(0)} ms`, times[2]! <= 200);

    // One change delivered to 1,000 watchers.
    const fan = await watchFanout({
      url: creds.server, tls: tlsOf(creds), path: cmPath, name: 'cm-000002', resourceVersion: listRv, watchers: WATCHERS,
      change: async () => {
        const r = await request(creds, 'PUT', `${cmPath}/cm-000002`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-000002' }, data: { payload: 'changed' } });
        if (r.status !== 200) throw new Error(`PUT: ${r.status} ${r.raw.toString().slice(0, 200)}`);
      },
    });
    record(`One change to ${WATCHERS} watchers`, '≤ 50 ms', `all ${fan.received}/${fan.watchers} in ${fan.maxMs.toFixed(1)} ms (median ${fan.p50Ms.toFixed(1)} ms)`, fan.received === fan.watchers && fan.maxMs <= 50);

    await sleep(1000);
    record(`RSS idle with ${OBJECTS} objects`, '(no target)', `${rssMb(server.pid).toFixed(0)} MB`);

    // Restart on the data dir that now holds the objects.
    const code = await server.stop();
    if (code !== 0) throw new Error(`keelson exited ${code} on SIGTERM`);
    server = await startKeelson({ dataDir, kubeconfig });
    creds = readKubeconfig(kubeconfig);
    record(`Ready with ${OBJECTS} objects`, '≤ 1 s', `${server.readyMs.toFixed(0)} ms`, server.readyMs <= 1000);
  } finally {
    if (baseline?.pid) process.kill(baseline.pid, 'SIGTERM');
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function table(): string {
  const lines = ['| metric | target | result | meets |', '|---|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.metric} | ${r.target} | ${r.result} | ${r.pass === undefined ? '' : r.pass ? 'yes' : 'no'} |`);
  return lines.join('\n');
}

function writeSection(md: string): void {
  const file = path.join(REPO_ROOT, 'BENCHMARKS.md');
  const cpu = os.cpus();
  const section = [
    '## API server',
    '',
    `Measured by \`npm run bench\` (bench/run.ts) on ${new Date().toISOString().slice(0, 10)}: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, Node ${process.version}, ` +
      'keelson as a child process (`node bin/keelson.mjs`, sqlite store in a temp dir), the load generator in the bench process on the same cores. ' +
      'Ready = process spawn → first `/readyz` 200. The GET baseline is a bare `node:https` server in its own process answering the same bytes to the same client. ' +
      `Load average when the run started: ${startLoad.map((l) => l.toFixed(1)).join(', ')} (other work on the machine skews every figure; compare with the baseline ratio).`,
    '',
    md,
    '',
  ].join('\n');
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n\n';
  const start = text.indexOf('## API server');
  if (start >= 0) {
    const rest = text.slice(start + 1);
    const next = rest.search(/\n## /);
    text = text.slice(0, start) + section + (next >= 0 ? rest.slice(next + 1) : '');
  } else {
    text = `${text.trimEnd()}\n\n${section}`;
  }
  writeFileSync(file, text);
}

main().then(() => {
  const md = table();
  process.stdout.write(`${md}\n`);
  if (!QUICK) writeSection(md);
}, (err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error)?.stack ?? String(err)}\n`);
  if (rows.length) process.stdout.write(`${table()}\n`);
  process.exitCode = 1;
});
