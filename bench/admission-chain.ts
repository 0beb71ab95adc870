/**
 * Issue 13's chain target: the admission chain's server CPU on a create with no webhooks or policies configured is
 * ≤ 5% above the same create with admission disabled. Two keelson child processes (memory store) run side by
 * side: one with kube's default plugins, one with every default plugin disabled (`--disable-admission-plugins`),
 * which leaves an empty chain. Each round sends the same sequential ConfigMap creates to one and then the other
 * (order alternating per round, so drift in machine load hits both) and reads each server's CPU from /proc; the
 * figure is the median per-create CPU over the rounds, and the ratio of the two medians.
 * Run: `node --import tsx bench/admission-chain.ts` (`BENCH_QUICK=1` for a smoke run). The servers run from
 * dist/ when the bundle is fresh (`npm run build`), from the TypeScript sources otherwise.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ON_PLUGINS } from '../src/admission/plugin-catalog.ts';
import { readKubeconfig, startKeelson, type KeelsonProcess } from '../test/acceptance/keelson-process.ts';
import { client, median, serverCpuPerCall, type Client } from './http/server-cpu.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const N = QUICK ? 300 : 600;
const ROUNDS = QUICK ? 2 : 4;

interface Server { name: string; proc: KeelsonProcess; c: Client; dir: string; created: number; per: number[] }

async function start(name: string, extraArgs: string[]): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'keelson-chain-bench-'));
  const proc = await startKeelson({ dataDir: dir, kubeconfig: join(dir, 'kc'), extraArgs: ['--storage=memory', ...extraArgs] });
  const c = client(readKubeconfig(proc.kubeconfig));
  const ns = await c.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
  if (ns.status !== 201) throw new Error(`${name}: namespace: ${ns.status} ${ns.text}`);
  return { name, proc, c, dir, created: 0, per: [] };
}

async function round(s: Server): Promise<void> {
  s.per.push(await serverCpuPerCall(s.proc.pid, N, () => s.c.call('POST', '/api/v1/namespaces/bench/configmaps', {
    apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${s.created++}`, namespace: 'bench', labels: { app: 'web' } }, data: { a: '1', b: '2', c: '3' },
  })));
}

const load0 = loadavg();
const servers: Server[] = [];
try {
  servers.push(await start('default plugins, no webhooks or policies', []));
  servers.push(await start('admission disabled (every default plugin off)', [`--disable-admission-plugins=${[...DEFAULT_ON_PLUGINS].join(',')}`]));
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? servers : [...servers].reverse();
    for (const s of order) await round(s);
  }
  const [chain, none] = servers.map((s) => median(s.per)) as [number, number];
  const ratio = chain / none;
  console.log(`${ROUNDS} rounds × ${N} sequential ConfigMap creates per server, memory store, median server CPU per create; load average ${load0.map((x) => x.toFixed(1)).join(', ')} → ${loadavg().map((x) => x.toFixed(1)).join(', ')}`);
  console.log('');
  console.log('| server | CPU per create (median) | rounds |');
  console.log('|---|---:|---|');
  for (const s of servers) console.log(`| ${s.name} | ${median(s.per).toFixed(0)} µs | ${s.per.map((x) => x.toFixed(0)).join(', ')} |`);
  console.log('');
  console.log(`chain overhead: +${(chain - none).toFixed(0)} µs per create, ratio ${ratio.toFixed(3)} (target ≤ 1.05: ${ratio <= 1.05 ? 'met' : 'missed'})`);
} finally {
  for (const s of servers) {
    s.c.close();
    await s.proc.stop();
    rmSync(s.dir, { recursive: true, force: true });
  }
}
