/**
 * Load from a generator written in C, so the client is not what saturates: `wrk` for HTTP/1.1 and `h2load`
 * (nghttp2-client) for HTTP/2, both over TLS with keep-alive connections. Each run reports requests/s, p99,
 * and the CPU the generator itself used (read from this process's reaped-children counters), so a reader can
 * see whether the generator, not the server, was the limit. When a tool is missing the caller falls back to
 * the Node client in load.ts and says so loudly.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { percentile } from './load.ts';

export interface ExternalLoadOptions {
  /** https://127.0.0.1:port/path */
  url: string;
  headers?: Record<string, string>;
  threads: number;
  connections: number;
  durationS: number;
  warmupS?: number;
  /** Server process whose CPU is read over the same interval (optional). */
  serverPid?: number;
}

export interface ExternalLoadResult {
  tool: string;
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Non-2xx answers or socket errors. */
  errors: number;
  seconds: number;
  /** CPU seconds the generator used ÷ wall seconds (1.0 = one whole core). */
  generatorCores: number;
  /** The same for the server process, when serverPid was given. */
  serverCores?: number;
  loadavg1: number;
}

export function toolPath(name: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const TICK = 100; // USER_HZ on Linux

/** utime+stime and cutime+cstime of a process, in seconds. */
function cpuOf(pid: number | 'self'): { own: number; children: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields after the comm: state(0) ... utime(11) stime(12) cutime(13) cstime(14)
  return { own: (Number(f[11]) + Number(f[12])) / TICK, children: (Number(f[13]) + Number(f[14])) / TICK };
}

/**
 * Runs a generator to completion, killing it (by its PID) after `limitS`: h2load with -D has been seen to wait
 * forever for clients that never connected on a heavily loaded machine.
 */
function run(cmd: string, args: string[], limitS: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), limitS * 1000);
    child.stdout.setEncoding('utf8').on('data', (c: string) => { out += c; });
    child.stderr.setEncoding('utf8').on('data', (c: string) => { out += c; });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} ${signal ? `killed after ${limitS} s` : `exited ${code}`}:\n${out.slice(-2000)}`));
    });
  });
}

/** Generous bound on one generator run: its own duration plus time to connect on a loaded machine. */
const limitOf = (o: ExternalLoadOptions) => o.durationS + (o.warmupS ?? 0) + 60;

async function measured(o: ExternalLoadOptions, body: () => Promise<Omit<ExternalLoadResult, 'generatorCores' | 'serverCores' | 'loadavg1'>>): Promise<ExternalLoadResult> {
  const loadavg1 = os.loadavg()[0]!;
  const before = cpuOf('self');
  const serverBefore = o.serverPid ? cpuOf(o.serverPid).own : 0;
  const t0 = performance.now();
  const r = await body();
  const wall = (performance.now() - t0) / 1000;
  const after = cpuOf('self');
  const serverAfter = o.serverPid ? cpuOf(o.serverPid).own : 0;
  return {
    ...r,
    generatorCores: (after.children - before.children) / wall,
    ...(o.serverPid ? { serverCores: (serverAfter - serverBefore) / wall } : {}),
    loadavg1,
  };
}

function headerArgs(flag: string, headers: Record<string, string> | undefined): string[] {
  return Object.entries(headers ?? {}).flatMap(([k, v]) => [flag, `${k}: ${v}`]);
}

/** wrk's human units (e.g. 812.00us, 4.51ms, 1.02s) in milliseconds. */
function wrkMs(v: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(v.trim());
  if (!m) return NaN;
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : n * 60_000;
}

export async function runWrk(o: ExternalLoadOptions): Promise<ExternalLoadResult> {
  const wrk = toolPath('wrk')!;
  // A 10 s timeout (wrk's default is 2 s): TLS handshakes on a machine shared with other work can take that long.
  const base = ['-t', String(o.threads), '-c', String(o.connections), '--timeout', '10s', ...headerArgs('-H', o.headers)];
  // wrk has no warm-up option: a short unmeasured run opens the connections and warms the server's JIT.
  if (o.warmupS) await run(wrk, [...base, '-d', `${o.warmupS}s`, o.url], limitOf(o));
  return measured(o, async () => {
    const out = await run(wrk, [...base, '-d', `${o.durationS}s`, '--latency', o.url], limitOf(o));
    const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? NaN);
    const requests = num(/(\d+) requests in/);
    const seconds = wrkMs(/requests in ([\d.]+\w+),/.exec(out)?.[1] ?? '') / 1000;
    const errors = num(/Non-2xx or 3xx responses: (\d+)/) || 0;
    const sockErr = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
    return {
      tool: 'wrk',
      requests,
      perSecond: num(/Requests\/sec:\s+([\d.]+)/),
      p50Ms: wrkMs(/\n\s+50%\s+(\S+)/.exec(out)?.[1] ?? ''),
      p99Ms: wrkMs(/\n\s+99%\s+(\S+)/.exec(out)?.[1] ?? ''),
      errors: errors + (sockErr ? sockErr.slice(1).reduce((a, b) => a + Number(b), 0) : 0),
      seconds,
    };
  });
}

export async function runH2load(o: ExternalLoadOptions): Promise<ExternalLoadResult> {
  const h2load = toolPath('h2load')!;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'keelson-h2load-'));
  const log = path.join(dir, 'log.tsv');
  try {
    // One stream at a time per connection (-m 1), as wrk's keep-alive connections: 64 connections × 1 stream.
    const args = ['-t', String(o.threads), '-c', String(o.connections), '-m', '1', ...headerArgs('-H', o.headers),
      '-D', String(o.durationS), ...(o.warmupS ? ['--warm-up-time', String(o.warmupS)] : []), '--log-file', log, o.url];
    // Count mode (-n, 20 requests per connection, connection set-up included) is the fallback when timing
    // mode hangs: h2load 1.52's -D has waited forever after its window on a starved machine, against any server.
    const countArgs = ['-t', String(o.threads), '-c', String(o.connections), '-m', '1', ...headerArgs('-H', o.headers),
      '-n', String(o.connections * 20), '--log-file', log, o.url];
    let countMode = false;
    const timed = async (): Promise<string> => {
      try {
        return await run(h2load, args, limitOf(o));
      } catch (err) {
        if (!/killed after/.test((err as Error).message)) throw err;
        process.stderr.write('h2load hung in timing mode (-D); measuring this run in count mode (-n) instead\n');
        countMode = true;
        return run(h2load, countArgs, limitOf(o));
      }
    };
    return await measured(o, async () => {
      const out = await timed();
      const counts = /requests: \d+ total, \d+ started, (\d+) done, \d+ succeeded, (\d+) failed, (\d+) errored, (\d+) timeout/.exec(out);
      const requests = Number(counts?.[1] ?? NaN);
      // "status codes" also counts the warm-up's answers; the failed/errored/timeout counts are the window's.
      const non2xx = /status codes: \d+ 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/.exec(out);
      const finished = /finished in [\d.]+m?s, ([\d.]+) req\/s/.exec(out);
      // The log has one line per request: start time (µs), status, elapsed (µs). Warm-up requests are not logged.
      const lat = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => Number(l.split('\t')[2]) / 1000);
      const sorted = Float64Array.from(lat).sort();
      return {
        tool: countMode ? 'h2load -n' : 'h2load',
        requests,
        // h2load's req/s counts the measured window only (the warm-up is excluded), as its log does.
        perSecond: Number(finished?.[1] ?? NaN),
        p50Ms: percentile(sorted, 50),
        p99Ms: percentile(sorted, 99),
        errors: (counts ? Number(counts[2]) + Number(counts[3]) + Number(counts[4]) : NaN) + (non2xx ? non2xx.slice(1).reduce((a, b) => a + Number(b), 0) : 0),
        seconds: countMode ? wrkMs(/finished in ([\d.]+m?s),/.exec(out)?.[1] ?? '') / 1000 : o.durationS,
      };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
