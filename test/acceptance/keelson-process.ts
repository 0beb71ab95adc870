/**
 * Runs `node bin/keelson.mjs` as a user does, in a child process, and waits for /readyz 200 using the
 * admin credentials from the kubeconfig it writes. Stops it with SIGTERM by PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface AdminCreds {
  server: string;
  ca: string;
  cert: string;
  key: string;
}

export function readKubeconfig(file: string): AdminCreds {
  const kc = parseYaml(readFileSync(file, 'utf8'));
  const ctxName = kc['current-context'];
  const ctx = kc.contexts.find((c: any) => c.name === ctxName)?.context ?? kc.contexts[0].context;
  const cluster = kc.clusters.find((c: any) => c.name === ctx.cluster).cluster;
  const user = kc.users.find((u: any) => u.name === ctx.user).user;
  const b64 = (v: string | undefined, f: string | undefined) => v ? Buffer.from(v, 'base64').toString('utf8') : readFileSync(f!, 'utf8');
  return {
    server: cluster.server,
    ca: b64(cluster['certificate-authority-data'], cluster['certificate-authority']),
    cert: b64(user['client-certificate-data'], user['client-certificate']),
    key: b64(user['client-key-data'], user['client-key']),
  };
}

export function httpsGet(creds: AdminCreds, p: string, timeoutMs = 2000): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(p, creds.server);
    const req = https.get({ hostname: u.hostname, port: u.port, path: u.pathname + u.search, ca: creds.ca, cert: creds.cert, key: creds.key, agent: false, servername: 'localhost' }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => { text += c; }).on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

export interface KeelsonProcess {
  pid: number;
  port: number;
  kubeconfig: string;
  /** Milliseconds from spawn to the first /readyz 200. */
  readyMs: number;
  output(): string;
  /** SIGTERM and wait for exit; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `nodeArgs` go to node before the script (e.g. `--cpu-prof` for a profiling bench run). */
export async function startKeelson(opts: { dataDir: string; kubeconfig: string; port?: number; extraArgs?: string[]; nodeArgs?: string[]; readyTimeoutMs?: number }): Promise<KeelsonProcess> {
  const port = opts.port ?? await freePort();
  const args = [...(opts.nodeArgs ?? []), path.join(REPO_ROOT, 'bin/keelson.mjs'), `--secure-port=${port}`, `--data-dir=${opts.dataDir}`, `--write-kubeconfig=${opts.kubeconfig}`, ...(opts.extraArgs ?? [])];
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => { out += c; });
  child.stderr!.setEncoding('utf8').on('data', (c: string) => { out += c; });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  let exitCode: number | null | undefined;
  void exited.then((c) => { exitCode = c; });

  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (exitCode === undefined) process.kill(child.pid!, signal);
    const timer = setTimeout(() => { if (exitCode === undefined) process.kill(child.pid!, 'SIGKILL'); }, 15_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };

  const deadline = Date.now() + (opts.readyTimeoutMs ?? 120_000);
  for (;;) {
    if (exitCode !== undefined) throw new Error(`keelson exited with ${exitCode} before ready:\n${out}`);
    if (Date.now() > deadline) {
      await stop('SIGKILL');
      throw new Error(`keelson not ready within ${opts.readyTimeoutMs ?? 120_000} ms:\n${out}`);
    }
    if (existsSync(opts.kubeconfig)) {
      try {
        const creds = readKubeconfig(opts.kubeconfig);
        if (new URL(creds.server).port === String(port)) {
          const r = await httpsGet(creds, '/readyz');
          if (r.status === 200) break;
        }
      } catch {
        // not listening yet, or the kubeconfig is being written
      }
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return { pid: child.pid!, port, kubeconfig: opts.kubeconfig, readyMs: performance.now() - t0, output: () => out, stop };
}
