/**
 * Audit cost (`node --import tsx bench/audit.ts`, part of `npm run bench`): server CPU per request with every
 * request audited at Metadata to a JSON-lines log file (`--audit-policy-file`, `--audit-log-path`, blocking mode,
 * kube's defaults) against the same server without auditing, both running in this run with the memory store (so
 * storage does not dilute the difference). CPU is the server process's utime+stime from /proc over a fixed number
 * of requests; GETs of one ConfigMap and ConfigMap creates, 16 keep-alive connections. The two servers are measured
 * back to back in each round (the order alternating between rounds, so drift in the machine's load cancels), 6
 * rounds; reported: the median per-request CPU of each and the median of the per-round ratios.
 * Target: ≤ 1.10. Prints a markdown table for BENCHMARKS.md. `BENCH_QUICK=1` shrinks counts for a smoke run.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readKubeconfig, startKeelson, type AdminCreds, type KeelsonProcess } from '../test/acceptance/keelson-process.ts';
import { runLoad } from './http/load.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const GETS = QUICK ? 1000 : 8000;
const CREATES = QUICK ? 400 : 3000;
const ROUNDS = QUICK ? 2 : 6;
const CONCURRENCY = 16;
/** Linux reports process CPU in clock ticks of 10 ms (USER_HZ = 100). */
const TICK_MS = 10;

function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command.
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

interface Target {
  name: string;
  proc: KeelsonProcess;
  creds: AdminCreds;
  get: number[];
  create: number[];
}

async function measure(t: Target, kind: 'get' | 'create', round: number): Promise<void> {
  const u = new URL(t.creds.server);
  const tls = { ca: t.creds.ca, cert: t.creds.cert, key: t.creds.key };
  const before = cpuMs(t.proc.pid);
  const r = kind === 'get'
    ? await runLoad({ host: u.hostname, port: Number(u.port), tls, path: () => '/api/v1/namespaces/default/configmaps/target', concurrency: CONCURRENCY, count: GETS, expect: 200 })
    : await runLoad({
      host: u.hostname, port: Number(u.port), tls, method: 'POST', path: () => '/api/v1/namespaces/default/configmaps', concurrency: CONCURRENCY, count: CREATES, expect: 201,
      headers: { 'Content-Type': 'application/json' },
      body: (i) => Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${round}-${i}`, labels: { app: 'bench' } }, data: { a: 'x'.repeat(200), b: 'y' } })),
    });
  if (r.errors) throw new Error(`${t.name} ${kind}: ${r.errors} errors, first: ${r.firstError}`);
  const perRequestUs = ((cpuMs(t.proc.pid) - before) * 1000) / r.requests;
  (kind === 'get' ? t.get : t.create).push(perRequestUs);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'keelson-bench-audit-'));
  const policy = path.join(dir, 'policy.yaml');
  const log = path.join(dir, 'audit.log');
  writeFileSync(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
  const targets: Target[] = [];
  try {
    for (const [name, extra] of [['without audit', []], ['audit at Metadata', [`--audit-policy-file=${policy}`, `--audit-log-path=${log}`]]] as const) {
      const kubeconfig = path.join(dir, `${targets.length}.kubeconfig`);
      const proc = await startKeelson({ dataDir: path.join(dir, `data-${targets.length}`), kubeconfig, extraArgs: ['--storage=memory', ...extra] });
      targets.push({ name, proc, creds: readKubeconfig(kubeconfig), get: [], create: [] });
    }
    for (const t of targets) {
      const u = new URL(t.creds.server);
      const tls = { ca: t.creds.ca, cert: t.creds.cert, key: t.creds.key };
      await runLoad({
        host: u.hostname, port: Number(u.port), tls, method: 'POST', path: () => '/api/v1/namespaces/default/configmaps', concurrency: 1, count: 1, expect: 201,
        headers: { 'Content-Type': 'application/json' }, body: () => Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'target' }, data: { a: 'b' } })),
      });
      // Warm-up: JIT and caches, not measured.
      await runLoad({ host: u.hostname, port: Number(u.port), tls, path: () => '/api/v1/namespaces/default/configmaps/target', concurrency: CONCURRENCY, count: GETS / 4, expect: 200 });
    }
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      for (const t of order) await measure(t, 'get', round);
      for (const t of order) await measure(t, 'create', round);
    }
    const [base, audited] = targets as [Target, Target];
    const lines = readFileSync(log, 'utf8').split('\n').length - 1;
    const ratios = (a: number[], b: number[]): number => median(a.map((x, i) => x / b[i]!));
    const rows = [
      ['GET one ConfigMap', median(audited.get), median(base.get), ratios(audited.get, base.get)],
      ['create a ConfigMap', median(audited.create), median(base.create), ratios(audited.create, base.create)],
    ] as const;
    const load = os.loadavg()[0]!.toFixed(1);
    const out = [
      `Server CPU per request, audit at Metadata to a log file vs no audit (${ROUNDS} rounds of ${GETS} GETs / ${CREATES} creates each; load average ${load}; ${lines} audit lines, ${(statSync(log).size / 1e6).toFixed(1)} MB written)`,
      '',
      '| metric | with audit | without (same run) | ratio (median of rounds) | target ≤ 1.10 |',
      '|---|---:|---:|---:|---|',
      ...rows.map(([m, a, b, r]) => `| ${m} | ${a.toFixed(0)} µs | ${b.toFixed(0)} µs | ${r.toFixed(2)} | ${r <= 1.1 ? 'yes' : 'no'} |`),
    ].join('\n');
    process.stdout.write(`${out}\n`);
    process.stderr.write(`rounds: ${JSON.stringify(targets.map((t) => ({ name: t.name, get: t.get.map((x) => Math.round(x)), create: t.create.map((x) => Math.round(x)) })))}\n`);
  } finally {
    for (const t of targets) await t.proc.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
