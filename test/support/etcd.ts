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

/** One etcd process: spawned and health-checked, restartable on the same data dir and ports. */
class Member implements EtcdProcess {
  private child: ChildProcess | undefined;
  private stderrTail = '';
  private stopped = false;

  constructor(
    private readonly bin: string,
    private readonly args: readonly string[],
    readonly endpoint: string,
    readonly dataDir: string,
    private readonly healthBase: string,
    private readonly readyTimeoutMs: number,
  ) {}

  get pid(): number {
    const c = this.child;
    return c && c.exitCode === null && c.signalCode === null ? (c.pid ?? 0) : 0;
  }

  spawn(): void {
    this.stderrTail = '';
    const c = spawn(this.bin, [...this.args], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = c;
    live.add(c);
    c.once('exit', () => live.delete(c));
    c.stderr?.setEncoding('utf8');
    c.stderr?.on('data', (s: string) => {
      this.stderrTail = (this.stderrTail + s).slice(-4000);
    });
  }

  /** Polls `/health` until etcd reports healthy (it needs a leader, so a cluster needs its quorum up). */
  async waitHealthy(): Promise<void> {
    const c = this.child!;
    const deadline = Date.now() + this.readyTimeoutMs;
    for (;;) {
      if (c.exitCode !== null || c.signalCode !== null) {
        throw new Error(`etcd exited early (${c.exitCode ?? c.signalCode}): ${this.stderrTail}`);
      }
      try {
        const res = await fetch(`${this.healthBase}/health`, { signal: AbortSignal.timeout(1000) });
        const body = (await res.json()) as { health?: string };
        if (body.health === 'true') return;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) {
        await terminate(c, 'SIGKILL', 1000);
        throw new Error(`etcd did not become healthy within ${this.readyTimeoutMs} ms: ${this.stderrTail}`);
      }
      await sleep(50);
    }
  }

  async kill(): Promise<void> {
    if (this.child) await terminate(this.child, 'SIGKILL', 1000);
  }

  async restart(): Promise<void> {
    if (this.stopped) throw new Error('etcd was stopped');
    await this.kill();
    this.spawn();
    await this.waitHealthy();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.child) await terminate(this.child, 'SIGTERM', 5000);
    await rm(this.dataDir, { recursive: true, force: true });
  }
}

interface MemberPlan {
  readonly name: string;
  readonly dataDir: string;
  readonly endpoint: string;
  readonly peerUrl: string;
  readonly healthBase: string;
}

async function planMember(name: string, tls: boolean): Promise<MemberPlan> {
  const dataDir = await mkdtemp(join(tmpdir(), 'keelson-etcd-'));
  const ports = new Set<number>();
  while (ports.size < (tls ? 3 : 2)) ports.add(await freePort());
  const [client, peer, metrics] = [...ports];
  const endpoint = `${tls ? 'https' : 'http'}://127.0.0.1:${client}`;
  return {
    name,
    dataDir,
    endpoint,
    peerUrl: `http://127.0.0.1:${peer}`,
    healthBase: tls ? `http://127.0.0.1:${metrics}` : endpoint,
  };
}

function memberArgs(m: MemberPlan, cluster: { initial: string; token: string }, opts: StartEtcdOptions): string[] {
  const tlsArgs = opts.tls
    ? [
        '--cert-file', opts.tls.certFile,
        '--key-file', opts.tls.keyFile,
        '--trusted-ca-file', opts.tls.caFile,
        '--client-cert-auth',
        '--listen-metrics-urls', m.healthBase,
      ]
    : [];
  return [
    '--name', m.name,
    '--data-dir', m.dataDir,
    '--listen-client-urls', m.endpoint,
    '--advertise-client-urls', m.endpoint,
    '--listen-peer-urls', m.peerUrl,
    '--initial-advertise-peer-urls', m.peerUrl,
    '--initial-cluster', cluster.initial,
    '--initial-cluster-state', 'new',
    '--initial-cluster-token', cluster.token,
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
}

export async function startEtcd(opts: StartEtcdOptions = {}): Promise<EtcdProcess | undefined> {
  const cluster = await startEtcdCluster({ ...opts, members: 1 });
  return cluster?.members[0];
}

export interface EtcdCluster {
  /** Client URLs of every member, in member order. */
  readonly endpoints: readonly string[];
  readonly members: readonly EtcdProcess[];
  /** Stops every member and removes their data dirs. */
  stop(): Promise<void>;
}

/**
 * Starts an etcd cluster of `members` processes on loopback (3 for fault tests: one member can be
 * killed and restarted while the other two keep quorum). Undefined when no etcd binary is installed.
 */
export async function startEtcdCluster(opts: StartEtcdOptions & { readonly members: number }): Promise<EtcdCluster | undefined> {
  const bin = findEtcdBinary();
  if (!bin) return undefined;
  installExitHook();
  // A port found free can be taken by a parallel test before etcd binds it: then try fresh ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await launchCluster(bin, opts);
    } catch (err) {
      if (attempt >= 3 || !/address already in use/.test(String(err))) throw err;
    }
  }
}

async function launchCluster(bin: string, opts: StartEtcdOptions & { readonly members: number }): Promise<EtcdCluster> {
  const plans: MemberPlan[] = [];
  for (let i = 0; i < opts.members; i++) plans.push(await planMember(`keelson-test-${i}`, opts.tls !== undefined));
  const cluster = {
    initial: plans.map((m) => `${m.name}=${m.peerUrl}`).join(','),
    // Shared by the members of this cluster only.
    token: `keelson-test-${process.pid}-${plans[0]!.dataDir}`,
  };
  const members = plans.map(
    (m) => new Member(bin, memberArgs(m, cluster, opts), m.endpoint, m.dataDir, m.healthBase, opts.readyTimeoutMs ?? 15_000),
  );
  try {
    for (const m of members) m.spawn();
    await Promise.all(members.map((m) => m.waitHealthy()));
  } catch (err) {
    await Promise.all(members.map((m) => m.stop()));
    throw err;
  }
  return {
    endpoints: members.map((m) => m.endpoint),
    members,
    stop: async () => {
      await Promise.all(members.map((m) => m.stop()));
    },
  };
}
