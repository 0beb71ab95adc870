/**
 * A throwaway etcd for tests and benchmarks: its own temporary data dir, two free loopback ports
 * (client + peer), stopped by PID. Callers skip (with a printed reason) when `startEtcd()` resolves undefined,
 * i.e. no `etcd` binary is installed (`KEELSON_ETCD_BIN` overrides the lookup).
 *
 * The process is also killed when the test process exits, so an aborted test run leaves nothing behind.
 *
 * Example:
 * ```ts
 * const etcd = await startEtcd();
 * if (!etcd) return t.skip('no etcd binary');
 * try { ...use etcd.endpoint... } finally { await etcd.stop(); }
 * ```
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants as fsConstants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface EtcdProcess {
  /** `http://127.0.0.1:<clientPort>` */
  readonly endpoint: string;
  /** PID of the running etcd (changes after `restart()`); 0 while stopped. */
  readonly pid: number;
  readonly dataDir: string;
  /** Kill etcd (SIGKILL) without removing its data: simulates a crash / lost connection. */
  kill(): Promise<void>;
  /** Start etcd again on the same data dir and ports (after `kill()`), and wait until it is healthy. */
  restart(): Promise<void>;
  /** Stop etcd and remove its data dir. Idempotent. */
  stop(): Promise<void>;
}

export interface StartEtcdOptions {
  /** Extra etcd flags, e.g. `--experimental-watch-progress-notify-interval=1s`. */
  readonly extraArgs?: readonly string[];
  /** How long to wait for `/health` (default 15 s). */
  readonly readyTimeoutMs?: number;
  /**
   * Serve clients over TLS and require client certificates signed by `caFile` (the endpoint becomes
   * `https://`). Health is then polled on a separate plain-HTTP metrics port.
   */
  readonly tls?: { readonly certFile: string; readonly keyFile: string; readonly caFile: string };
}

/** The `etcd` binary on PATH (or `KEELSON_ETCD_BIN`), or undefined. */
export function findEtcdBinary(): string | undefined {
  const explicit = process.env['KEELSON_ETCD_BIN'];
  const candidates = explicit
    ? [explicit]
    : [...(process.env['PATH'] ?? '').split(delimiter).filter(Boolean).map((d) => join(d, 'etcd')), '/usr/bin/etcd'];
  for (const c of candidates) {
    try {
      accessSync(c, fsConstants.X_OK);
      return c;
    } catch {
      // not here
    }
  }
  return undefined;
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Every etcd started here, killed synchronously if the test process exits without stopping them. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) {
      try {
        child.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

/** Waits for the child to exit, SIGKILLing it after `graceMs`. */
async function terminate(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}

export async function startEtcd(opts: StartEtcdOptions = {}): Promise<EtcdProcess | undefined> {
  const bin = findEtcdBinary();
  if (!bin) return undefined;
  installExitHook();
  const dataDir = await mkdtemp(join(tmpdir(), 'keelson-etcd-'));
  const clientPort = await freePort();
  let peerPort = await freePort();
  while (peerPort === clientPort) peerPort = await freePort();
  const endpoint = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${clientPort}`;
  const peerUrl = `http://127.0.0.1:${peerPort}`;
  const healthBase = opts.tls ? `http://127.0.0.1:${await freePort()}` : endpoint;
  const tlsArgs = opts.tls
    ? [
        '--cert-file', opts.tls.certFile,
        '--key-file', opts.tls.keyFile,
        '--trusted-ca-file', opts.tls.caFile,
        '--client-cert-auth',
        '--listen-metrics-urls', healthBase,
      ]
    : [];
  const args = [
    '--name', 'keelson-test',
    '--data-dir', dataDir,
    '--listen-client-urls', endpoint,
    '--advertise-client-urls', endpoint,
    '--listen-peer-urls', peerUrl,
    '--initial-advertise-peer-urls', peerUrl,
    '--initial-cluster', `keelson-test=${peerUrl}`,
    '--initial-cluster-state', 'new',
    '--logger', 'zap',
    '--log-level', 'error',
    // Room for a value of exactly MAX_VALUE_BYTES plus its key and framing (etcd's default limit is the
    // value limit itself, so at the default a 1.5 MiB value is refused as "request is too large").
    '--max-request-bytes', String(1.5 * 1024 * 1024 + 64 * 1024),
    // Frequent progress notifications, so watches asking for them see some in tests.
    '--experimental-watch-progress-notify-interval', '1s',
    ...tlsArgs,
    ...(opts.extraArgs ?? []),
  ];
  const readyTimeoutMs = opts.readyTimeoutMs ?? 15_000;
  let child: ChildProcess | undefined;
  let stderrTail = '';

  const launch = async (): Promise<void> => {
    stderrTail = '';
    const c = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child = c;
    live.add(c);
    c.once('exit', () => live.delete(c));
    c.stderr?.setEncoding('utf8');
    c.stderr?.on('data', (s: string) => {
      stderrTail = (stderrTail + s).slice(-4000);
    });
    const deadline = Date.now() + readyTimeoutMs;
    for (;;) {
      if (c.exitCode !== null || c.signalCode !== null) {
        throw new Error(`etcd exited early (${c.exitCode ?? c.signalCode}): ${stderrTail}`);
      }
      try {
        const res = await fetch(`${healthBase}/health`, { signal: AbortSignal.timeout(1000) });
        const body = (await res.json()) as { health?: string };
        if (body.health === 'true') return;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) {
        await terminate(c, 'SIGKILL', 1000);
        throw new Error(`etcd did not become healthy within ${readyTimeoutMs} ms: ${stderrTail}`);
      }
      await sleep(50);
    }
  };

  try {
    await launch();
  } catch (err) {
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }

  let stopped = false;
  return {
    endpoint,
    dataDir,
    get pid() {
      return child && child.exitCode === null && child.signalCode === null ? (child.pid ?? 0) : 0;
    },
    async kill() {
      if (child) await terminate(child, 'SIGKILL', 1000);
    },
    async restart() {
      if (stopped) throw new Error('etcd was stopped');
      if (child) await terminate(child, 'SIGKILL', 1000);
      await launch();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      if (child) await terminate(child, 'SIGTERM', 5000);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
