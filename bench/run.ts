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
import { runH2load, runWrk, toolPath, type ExternalLoadResult } from './http/external-load.ts';
import { watchFanout } from './http/watch-fanout.ts';

const QUICK = process.env.BENCH_QUICK === '1';
/** `BENCH_ONLY=get`: only the GET comparison (one object), for profiling rounds; not recorded. */
const GET_ONLY = process.env.BENCH_ONLY === 'get';
/**
 * `BENCH_PROFILE=<dir>`: the Keelson process runs under `node --cpu-prof` and writes its profile there on exit;
 * summarize it with `node --import tsx bench/profile-summary.ts <dir>` (self and inclusive time by function).
 * `BENCH_PROTOCOL=HTTP/1.1` (or `HTTP/2`) with BENCH_ONLY=get: only that protocol's GET comparison.
 */
const PROFILE_DIR = process.env.BENCH_PROFILE;
const OBJECTS = GET_ONLY ? 2 : QUICK ? 1000 : 10_000;
const CONCURRENCY = 64;
const GET_SECONDS = QUICK ? 2 : 4;
const WATCHERS = QUICK ? 100 : 1000;
const NS = 'bench';
/** Rounds of (Keelson, bare) per protocol, interleaved so drift in the machine's load hits both alike. */
const GET_ROUNDS = QUICK ? 1 : 3;
const WRK_THREADS = 2;
// The GET phase authenticates as this user with a bearer token (--token-auth-file) and is allowed by a Role
// through RBAC: the path a client-go or kubectl request takes, not the system:masters short cut.
const TOKEN = 'bench-token-0123456789abcdef';
const USER = 'bench-reader';
/** Headers the bare baseline must not replay verbatim (its own framing sets them). */
const HOP_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

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

function request(creds: AdminCreds, method: string, p: string, body?: unknown, extra: Record<string, string> = {}): Promise<{ status: number; raw: Buffer; headers: Record<string, string | string[] | undefined> }> {
  const u = new URL(creds.server);
  const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = https.request({
      host: u.hostname, port: u.port, method, path: p, ca: creds.ca, servername: 'localhost', agent: false,
      // A bearer token replaces the admin's client certificate.
      ...(extra.Authorization ? {} : { cert: creds.cert, key: creds.key }),
      headers: { ...(data ? { 'Content-Type': 'application/json', 'Content-Length': String(data.byteLength) } : {}), ...extra },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, raw: Buffer.concat(chunks), headers: res.headers }));
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

/** A Role that lets the bench user read ConfigMaps in the bench namespace, bound to it. */
async function grantReader(creds: AdminCreds): Promise<void> {
  const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}`;
  const role = await request(creds, 'POST', `${rbac}/roles`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'cm-reader' },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }] });
  const binding = await request(creds, 'POST', `${rbac}/rolebindings`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'cm-reader' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-reader' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: USER }] });
  if (role.status !== 201 || binding.status !== 201) throw new Error(`RBAC setup: role ${role.status}, binding ${binding.status}`);
}

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** The Node client from load.ts, in the same result shape; only when wrk/h2load are missing. */
async function nodeClientGet(url: URL, ca: string, serverPid: number): Promise<ExternalLoadResult> {
  const loadavg1 = os.loadavg()[0]!;
  const cpu0 = process.cpuUsage();
  const s0 = cpuSeconds(serverPid);
  const t0 = performance.now();
  const r = await runLoad({ host: url.hostname, port: Number(url.port), tls: { ca }, concurrency: CONCURRENCY, durationMs: GET_SECONDS * 1000, warmupMs: 1000,
    expect: 200, path: () => url.pathname, headers: { Authorization: `Bearer ${TOKEN}` } });
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { tool: 'node client', requests: r.requests, perSecond: r.perSecond, p50Ms: r.p50Ms, p99Ms: r.p99Ms, errors: r.errors, seconds: r.seconds,
    generatorCores: (cpu.user + cpu.system) / 1e6 / wall, serverCores: (cpuSeconds(serverPid) - s0) / wall, loadavg1 };
}

/** Server CPU µs per answered request over a set of runs. */
function cpuPerReq(rs: ExternalLoadResult[]): number {
  const cpu = rs.reduce((a, r) => a + (r.serverCores ?? NaN) * r.seconds, 0);
  return (cpu / rs.reduce((a, r) => a + r.requests, 0)) * 1e6;
}

function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/**
 * GET of one object over HTTP/1.1 (wrk) and HTTP/2 (h2load), Keelson and the bare servers alternating in the
 * same run with the same tool. Records req/s, p99, the ratio to bare and what the generator and the server used.
 */
async function compareGet(creds: AdminCreds, keelsonPid: number, barePid: number, p: string, h1Port: number, h2Port: number, bareCa: string): Promise<void> {
  const keelson = new URL(p, creds.server);
  const protocols = [
    { name: 'HTTP/1.1', tool: 'wrk', run: runWrk, barePort: h1Port },
    { name: 'HTTP/2', tool: 'h2load', run: runH2load, barePort: h2Port },
  ];
  for (const proto of protocols) {
    // BENCH_PROTOCOL=HTTP/1.1 or HTTP/2: one of the two (a profile of one protocol's hot path).
    if (process.env.BENCH_PROTOCOL && process.env.BENCH_PROTOCOL !== proto.name) continue;
    const external = toolPath(proto.tool) !== undefined;
    if (!external) {
      process.stderr.write(`\n*** ${proto.tool} is not installed: measuring ${proto.name} GET with the Node client, which saturates before the servers do.\n` +
        `*** These figures measure the client, not Keelson. Install ${proto.tool === 'wrk' ? 'wrk' : 'nghttp2-client'} for honest figures. ***\n\n`);
      if (proto.name === 'HTTP/2') continue; // the Node fallback speaks HTTP/1.1 only
    }
    const once = (url: URL, pid: number) => external
      ? proto.run({ url: url.href, headers: { Authorization: `Bearer ${TOKEN}` }, threads: WRK_THREADS, connections: CONCURRENCY, durationS: GET_SECONDS, warmupS: 1, serverPid: pid })
      : nodeClientGet(url, url.port === String(proto.barePort) ? bareCa : creds.ca, pid);
    const bareUrl = new URL(`https://127.0.0.1:${proto.barePort}${p}`);
    const ks: ExternalLoadResult[] = [];
    const bs: ExternalLoadResult[] = [];
    // A round whose generator failed (h2load -D has hung on this shared machine, and is then killed) is
    // dropped as a pair; the phase fails only when no round completed.
    const failures: string[] = [];
    for (let round = 0; round < GET_ROUNDS; round++) {
      try {
        const kr = await once(keelson, keelsonPid);
        const br = await once(bareUrl, barePid);
        for (const r of [kr, br]) if (r.errors || !(r.requests > 0)) throw new Error(`${r.errors} errors of ${r.requests} requests`);
        ks.push(kr);
        bs.push(br);
      } catch (err) {
        failures.push((err as Error).message.split('\n')[0]!);
        process.stderr.write(`${proto.name} GET round ${round + 1} dropped: ${(err as Error).message.slice(0, 500)}\n`);
      }
    }
    if (!ks.length) {
      record(`GET one object, ${proto.name}, ${CONCURRENCY} connections`, '≥ 0.5× bare req/s, p99 ≤ 2× bare', `no round completed: ${failures.join('; ')}`, false);
      continue;
    }
    // Each round's Keelson run is paired with the bare run right after it: the machine's load drifts between
    // rounds, so the ratio of each pair (and their median) is the figure; means are shown for scale.
    const ratios = ks.map((r, i) => r.perSecond / bs[i]!.perSecond).sort((a, b) => a - b);
    const p99Ratios = ks.map((r, i) => r.p99Ms / bs[i]!.p99Ms).sort((a, b) => a - b);
    const ratio = ratios[Math.floor(ratios.length / 2)]!;
    const p99Ratio = p99Ratios[Math.floor(p99Ratios.length / 2)]!;
    const k = { rps: mean(ks.map((r) => r.perSecond)), p99: mean(ks.map((r) => r.p99Ms)), gen: mean(ks.map((r) => r.generatorCores)), srv: mean(ks.map((r) => r.serverCores ?? NaN)) };
    const b = { rps: mean(bs.map((r) => r.perSecond)), p99: mean(bs.map((r) => r.p99Ms)), gen: mean(bs.map((r) => r.generatorCores)), srv: mean(bs.map((r) => r.serverCores ?? NaN)) };
    const loads = [...ks, ...bs].map((r) => r.loadavg1);
    const tool = external ? `${proto.tool}${proto.tool === 'wrk' ? ` ${WRK_THREADS} threads` : ' 1 stream/conn'}` : 'NODE CLIENT (saturated, not comparable)';
    record(`GET one object, ${proto.name}, ${CONCURRENCY} connections, bearer token + RBAC (${tool}, ${GET_ROUNDS}×${GET_SECONDS} s each)`,
      '≥ 0.5× bare req/s, p99 ≤ 2× bare',
      `${k.rps.toFixed(0)} req/s, p99 ${k.p99.toFixed(2)} ms; bare ${b.rps.toFixed(0)} req/s, p99 ${b.p99.toFixed(2)} ms: **${ratio.toFixed(2)}× bare** ` +
        `(median of the rounds' ratios ${ratios.map((r) => r.toFixed(2)).join(', ')}), p99 ${p99Ratio.toFixed(2)}× bare. ` +
        `Server CPU per request ${cpuPerReq(ks).toFixed(0)} µs vs bare ${cpuPerReq(bs).toFixed(0)} µs (${(cpuPerReq(bs) / cpuPerReq(ks)).toFixed(2)}×, the figure least moved by other work). ` +
        `Generator CPU ${(k.gen * 100).toFixed(0)}% of a core vs Keelson ${(k.srv * 100).toFixed(0)}% (bare run: generator ${(b.gen * 100).toFixed(0)}%, server ${(b.srv * 100).toFixed(0)}%); ` +
        `load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}` +
        (failures.length ? `; ${failures.length} round(s) dropped (${failures.join('; ')})` : ''),
      ratio >= 0.5 && p99Ratio <= 2);
  }
}

async function main(): Promise<void> {
  // Measure the product (the bundle), never the tsx fallback bin/keelson.mjs takes when dist/ is stale.
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts/build.mjs')], { stdio: 'inherit' });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'keelson-bench-'));
  const dataDir = path.join(dir, 'data');
  const kubeconfig = path.join(dir, 'kc');
  let server: KeelsonProcess | undefined;
  let baseline: ReturnType<typeof spawn> | undefined;
  try {
    // Ready time on an empty data dir (includes generating the CA and certificates on first start), then
    // a second start on the same (still empty) dir, which is what users see on every later start.
    writeFileSync(path.join(dir, 'tokens.csv'), `${TOKEN},${USER},bench-uid\n`);
    const extraArgs = [`--token-auth-file=${path.join(dir, 'tokens.csv')}`];
    server = await startKeelson({ dataDir, kubeconfig, extraArgs, ...(PROFILE_DIR ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${path.resolve(PROFILE_DIR)}`] } : {}) });
    const firstReady = server.readyMs;
    if (!GET_ONLY) {
      await server.stop();
      server = await startKeelson({ dataDir, kubeconfig, extraArgs });
    }
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

    // GET of one object as a token-authenticated user allowed by RBAC, vs bare servers answering the same bytes.
    const one = `${cmPath}/cm-000001`;
    await grantReader(creds);
    const got = await request(creds, 'GET', one, undefined, { Authorization: `Bearer ${TOKEN}` });
    if (got.status !== 200) throw new Error(`GET as ${USER}: ${got.status} ${got.raw.toString().slice(0, 200)}`);
    writeFileSync(path.join(dir, 'body.json'), got.raw);
    const replay: Record<string, string> = {};
    for (const [k, v] of Object.entries(got.headers)) if (!HOP_HEADERS.has(k) && typeof v === 'string') replay[k] = v;
    writeFileSync(path.join(dir, 'headers.json'), JSON.stringify(replay));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', path.join(dir, 'b.key'), '-out', path.join(dir, 'b.crt')], { stdio: 'ignore' });
    baseline = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'bench/http/baseline-server.ts'), path.join(dir, 'b.crt'), path.join(dir, 'b.key'),
      path.join(dir, 'body.json'), path.join(dir, 'headers.json')], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const [h1Port, h2Port] = await new Promise<number[]>((resolve, reject) => {
      baseline!.stdout!.setEncoding('utf8').once('data', (line: string) => resolve(line.trim().split(' ').map(Number)));
      baseline!.once('exit', (c) => reject(new Error(`baseline server exited ${c}`)));
    });
    await compareGet(creds, server.pid, baseline.pid!, one, h1Port!, h2Port!, readFileSync(path.join(dir, 'b.crt'), 'utf8'));
    process.kill(baseline.pid!, 'SIGTERM');
    baseline = undefined;
    if (GET_ONLY) return;

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
    server = await startKeelson({ dataDir, kubeconfig, extraArgs });
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
  if (!QUICK && !GET_ONLY) writeSection(md);
}, (err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error)?.stack ?? String(err)}\n`);
  if (rows.length) process.stdout.write(`${table()}\n`);
  process.exitCode = 1;
});
