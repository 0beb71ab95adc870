/**
 * Start → ready: `node bin/keelson.mjs` spawned on an empty data dir (CA, certificates, service account key
 * and the RBAC bootstrap policy included) and again on the same dir (restart), each timed from spawn to the
 * first `/readyz` 200. Baseline in the same run: spawning a bare node process that listens with TLS and
 * answers 200, polled the same way — what any Node server pays before its first answer. Medians of ROUNDS.
 *   node --import tsx bench/ready.ts   (part of `npm run bench`; builds dist/ first)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, REPO_ROOT } from '../test/acceptance/keelson-process.ts';
import { readyzStatus } from './http/readyz.ts';

const ROUNDS = process.env.BENCH_QUICK === '1' ? 1 : 3;
const TIMEOUT_MS = 300_000;

/**
 * CPU time (user + system, ms) the process has used so far, from /proc (Linux): on a shared machine the wall
 * time to ready mostly measures the neighbours, the CPU spent getting there does not.
 */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    // After the command name: state is field 3, utime 14 and stime 15 (1-based) → indexes 11 and 12 here.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
const CLOCK_TICKS = Number((() => { try { return execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }); } catch { return '100'; } })()) || 100;

/** CPU ms of the last timeToReady's child at the moment it answered 200. */
let lastCpu = NaN;

/** Spawns, polls /readyz every 5 ms until 200, returns the milliseconds since spawn; then stops the child by PID. */
async function timeToReady(args: string[], port: number): Promise<number> {
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (c: string) => { err += c; });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let done = false;
  void exited.then(() => { done = true; });
  try {
    for (;;) {
      if (done) throw new Error(`${args.join(' ')} exited before ready:\n${err}`);
      if (performance.now() - t0 > TIMEOUT_MS) throw new Error(`not ready within ${TIMEOUT_MS} ms`);
      if ((await readyzStatus(port)) === 200) {
        lastCpu = cpuMs(child.pid!);
        return performance.now() - t0;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    if (!done) child.kill('SIGTERM');
    const killer = setTimeout(() => { if (!done) child.kill('SIGKILL'); }, 15_000);
    await exited;
    clearTimeout(killer);
  }
}

const BARE = `
const https = require('node:https');
const s = https.createServer({ cert: process.env.C, key: process.env.K }, (q, r) => { r.writeHead(200); r.end('ok'); });
s.listen(Number(process.argv[1]), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts/build.mjs')], { stdio: 'inherit' });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'keelson-ready-'));
  const load0 = os.loadavg()[0]!;
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost',
      '-keyout', path.join(dir, 'b.key'), '-out', path.join(dir, 'b.crt')], { stdio: 'ignore' });
    process.env.C = readFileSync(path.join(dir, 'b.crt'), 'utf8');
    process.env.K = readFileSync(path.join(dir, 'b.key'), 'utf8');
    const empty: number[] = [];
    const restart: number[] = [];
    const bare: number[] = [];
    const cpu = { empty: [] as number[], restart: [] as number[], bare: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      const data = path.join(dir, `data-${round}`);
      const keelson = async () => {
        const port = await freePort();
        return timeToReady([path.join(REPO_ROOT, 'bin/keelson.mjs'), `--secure-port=${port}`, `--data-dir=${data}`, `--write-kubeconfig=${path.join(dir, 'kc')}`], port);
      };
      const bp = await freePort();
      bare.push(await timeToReady(['-e', BARE, String(bp)], bp));
      cpu.bare.push(lastCpu);
      empty.push(await keelson());
      cpu.empty.push(lastCpu);
      restart.push(await keelson());
      cpu.restart.push(lastCpu);
    }
    const b = median(bare);
    const rows = [
      ['Start → ready, empty data dir (certificates, SA key, RBAC bootstrap)', '≤ 300 ms', median(empty), empty],
      ['Start → ready, restart on the same data dir', '≤ 200 ms', median(restart), restart],
    ] as const;
    const lines = ['| metric | target | result | bare node:https spawn → first 200 (same run) | ratio | meets |', '|---|---|---:|---:|---:|---|'];
    for (const [metric, target, m, all] of rows) {
      const limit = Number(/\d+/.exec(target)![0]);
      lines.push(`| ${metric} | ${target} | ${m.toFixed(0)} ms (runs ${all.map((x) => x.toFixed(0)).join(', ')}) | ${b.toFixed(0)} ms | ${(m / b).toFixed(2)} | ${m <= limit ? 'yes' : 'no'} |`);
    }
    const c = median(cpu.bare);
    lines.push('', '| CPU (user+sys) until ready | Keelson | bare node:https | ratio |', '|---|---:|---:|---:|');
    for (const [metric, xs] of [['empty data dir', cpu.empty], ['restart', cpu.restart]] as const) {
      lines.push(`| ${metric} | ${median(xs).toFixed(0)} ms (runs ${xs.map((x) => x.toFixed(0)).join(', ')}) | ${c.toFixed(0)} ms | ${(median(xs) / c).toFixed(2)} |`);
    }
    process.stdout.write(`${lines.join('\n')}\n\nload average ${load0.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}; bare runs ${bare.map((x) => x.toFixed(0)).join(', ')} ms\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exitCode = 1;
});
