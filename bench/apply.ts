/**
 * Issue 5's targets, measured as the issue states them: server CPU per no-op server-side apply of a typical
 * Deployment (≤ 1 ms), and a strategic merge patch of a pod spec (≤ 200 µs). The apply runs over HTTPS against a
 * keelson child process; its CPU time comes from /proc/<pid>/stat, so the load generator's CPU is not counted.
 * The physical baseline is a GET of the same object on the same connection (the cheapest request that still
 * reads storage and encodes the object): its server CPU is reported beside the apply's.
 * Run: `node --import tsx bench/apply.ts` (also part of `npm run bench`).
 * `BENCH_PROFILE=<dir>`: the keelson child runs under `node --cpu-prof` and writes its profile there on exit
 * (summarize with `node --import tsx bench/profile-summary.ts <dir>`).
 */
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, Agent } from 'node:https';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readKubeconfig, startKeelson, type AdminCreds } from '../test/acceptance/keelson-process.ts';
import { applyStrategicMergePatch } from '../src/apply/strategic-merge.ts';
import { rootNodeFor } from '../src/apply/schema-view.ts';

export interface ApplyBenchRow { name: string; value: string; target: string; meets: string }

const DEPLOYMENT = {
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
  spec: {
    replicas: 3, selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }],
        resources: { requests: { cpu: '100m', memory: '64Mi' } }, readinessProbe: { httpGet: { path: '/', port: 80 } } }] },
    },
  },
};

/** utime + stime of a process in milliseconds (Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 10 ms (USER_HZ=100)
}

function call(creds: AdminCreds, agent: Agent, method: string, path: string, body?: string, type?: string): Promise<number> {
  const url = new URL(path, creds.server);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, agent, ca: creds.ca, cert: creds.cert, key: creds.key,
      headers: { Accept: 'application/json', ...(type ? { 'Content-Type': type } : {}) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Waits until the server is idle (under 5% of a core for two seconds in a row, at most 20 s): half a second
 * after /readyz it starts warming its OpenAPI documents (about a second of CPU), and that work must not be
 * charged to the requests measured.
 */
async function settled(pid: number): Promise<void> {
  const end = Date.now() + 20_000;
  let last = cpuMs(pid);
  let quiet = 0;
  while (Date.now() < end && quiet < 4) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpuMs(pid);
    quiet = now - last < 25 ? quiet + 1 : 0;
    last = now;
  }
}

async function serverCpuPerRequest(pid: number, n: number, fn: () => Promise<number>): Promise<number> {
  for (let i = 0; i < 200; i++) await fn(); // warm-up (the JIT settles)
  const before = cpuMs(pid);
  for (let i = 0; i < n; i++) {
    const code = await fn();
    if (code !== 200 && code !== 201) throw new Error(`unexpected status ${code}`);
  }
  return (cpuMs(pid) - before) / n;
}

export async function runApplyBench(): Promise<ApplyBenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'keelson-apply-bench-'));
  const profileDir = process.env.BENCH_PROFILE;
  const proc = await startKeelson({ dataDir: dir, kubeconfig: join(dir, 'kc'),
    ...(profileDir ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${resolve(profileDir)}`] } : {}) });
  try {
    const creds = readKubeconfig(proc.kubeconfig);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const path = '/apis/apps/v1/namespaces/default/deployments/web?fieldManager=bench';
    const body = JSON.stringify(DEPLOYMENT);
    const applyOnce = () => call(creds, agent, 'PATCH', path, body, 'application/apply-patch+yaml');
    const n = 1000;
    await settled(proc.pid);
    const applyMs = await serverCpuPerRequest(proc.pid, n, applyOnce);
    const getMs = await serverCpuPerRequest(proc.pid, n, () => call(creds, agent, 'GET', '/apis/apps/v1/namespaces/default/deployments/web'));
    agent.destroy();

    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: DEPLOYMENT.spec.template.spec };
    const patch = { spec: { containers: [{ name: 'web', image: 'nginx:1.28', env: [{ name: 'B', value: '2' }] }] } };
    const root = rootNodeFor('v1', 'Pod')!;
    for (let i = 0; i < 2000; i++) applyStrategicMergePatch(pod, patch, root);
    const m = 20_000;
    const t0 = performance.now();
    for (let i = 0; i < m; i++) applyStrategicMergePatch(pod, patch, root);
    const smpUs = ((performance.now() - t0) / m) * 1000;
    return [
      { name: 'server-side apply of a Deployment, no change: server CPU per request', value: `${applyMs.toFixed(2)} ms (GET of the same object: ${getMs.toFixed(2)} ms, ratio ${(applyMs / getMs).toFixed(1)})`, target: '≤ 1 ms', meets: applyMs <= 1 ? 'yes' : 'no' },
      { name: 'strategic merge patch of a pod spec (in-process)', value: `${smpUs.toFixed(0)} µs`, target: '≤ 200 µs', meets: smpUs <= 200 ? 'yes' : 'no' },
    ];
  } finally {
    await proc.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Adds this run's rows, dated and with the load average, to the end of the `## Patch and apply` table of
 * BENCHMARKS.md (earlier rows are history and stay; the other sections belong to other benches).
 */
function writeSection(rows: ApplyBenchRow[]): void {
  const file = join(import.meta.dirname, '..', 'BENCHMARKS.md');
  const stamp = `${new Date().toISOString().slice(0, 16).replace('T', ' ')}, load ${loadavg()[0]!.toFixed(1)}`;
  const lines = rows.map((r) => `| ${r.name} (${stamp}) | ${r.target} | ${r.value} | ${r.meets} |`);
  let text = readFileSync(file, 'utf8');
  const at = text.indexOf('## Patch and apply');
  const tableAt = at >= 0 ? text.indexOf('\n| metric | target | result | meets |', at) : -1;
  const next = at >= 0 ? text.indexOf('\n## ', at + 1) : -1;
  if (tableAt >= 0 && (next < 0 || tableAt < next)) {
    let end = tableAt + 1;
    while (end < text.length && text[end] === '|') end = text.indexOf('\n', end) + 1 || text.length;
    text = text.slice(0, end) + lines.map((l) => `${l}\n`).join('') + text.slice(end);
  } else {
    const table = ['| metric | target | result | meets |', '|---|---|---|---|', ...lines];
    text = `${text.trimEnd()}\n\n## Patch and apply\n\nMeasured by \`node --import tsx bench/apply.ts\`.\n\n${table.join('\n')}\n`;
  }
  writeFileSync(file, text);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runApplyBench();
  for (const r of rows) console.log(`| ${r.name} | ${r.target} | ${r.value} | ${r.meets} |`);
  console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  writeSection(rows);
}
