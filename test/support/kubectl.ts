/**
 * Locates kubectl 1.33 (the `kubectl.1.33` binary beside the resolved `kubectl` on PATH, else `kubectl`
 * itself) and runs it with a timeout. Tests skip with the printed reason when none is found.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

let cached: { bin?: string; reason?: string } | undefined;

function which(cmd: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, cmd);
    if (existsSync(p)) return p;
  }
  return undefined;
}

/** Path of the kubectl to use, or undefined with `kubectlMissingReason()` telling why. */
export function findKubectl(): string | undefined {
  if (cached) return cached.bin;
  const onPath = which('kubectl');
  if (!onPath) {
    cached = { reason: 'kubectl is not on PATH' };
    return undefined;
  }
  const resolved = realpathSync(onPath);
  const versioned = path.join(path.dirname(resolved), 'kubectl.1.33');
  const bin = existsSync(versioned) ? versioned : resolved;
  try {
    const out = execFileSync(bin, ['version', '--client', '-o', 'json'], { encoding: 'utf8', timeout: 20_000 });
    const minor = (JSON.parse(out) as { clientVersion?: { minor?: string } }).clientVersion?.minor ?? '';
    if (bin !== versioned && !minor.startsWith('33')) {
      process.stderr.write(`note: kubectl.1.33 not found beside ${resolved}; using kubectl 1.${minor}\n`);
    }
    cached = { bin };
  } catch (err) {
    cached = { reason: `${bin} does not run: ${(err as Error).message}` };
  }
  return cached.bin;
}

export function kubectlMissingReason(): string {
  findKubectl();
  return cached?.reason ?? '';
}

export interface KubectlOptions {
  kubeconfig: string;
  /** Written to stdin (e.g. a manifest for `-f -`). */
  input?: string;
  timeoutMs?: number;
}

export function kubectl(args: string[], opts: KubectlOptions): Promise<KubectlResult> {
  const bin = findKubectl();
  if (!bin) return Promise.reject(new Error(`no kubectl: ${kubectlMissingReason()}`));
  return new Promise((resolve, reject) => {
    // A private HOME keeps kubectl's discovery cache per run (stale caches hide discovery bugs).
    const child = spawn(bin, ['--kubeconfig', opts.kubeconfig, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, KUBECONFIG: opts.kubeconfig, KUBECACHEDIR: path.join(path.dirname(opts.kubeconfig), '.kube-cache') },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => { stdout += c; });
    child.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
    const timeoutMs = opts.timeoutMs ?? 30_000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kubectl ${args.join(' ')}: no exit within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', (err) => { clearTimeout(timer); reject(err); });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** A long-running kubectl (e.g. `get -w`): read its output as it comes, stop it by PID. */
export function kubectlBackground(args: string[], opts: { kubeconfig: string }) {
  const bin = findKubectl();
  if (!bin) throw new Error(`no kubectl: ${kubectlMissingReason()}`);
  const child = spawn(bin, ['--kubeconfig', opts.kubeconfig, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KUBECACHEDIR: path.join(path.dirname(opts.kubeconfig), '.kube-cache') },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => { stdout += c; });
  child.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
  const exited = new Promise<number>((r) => child.on('close', (code) => r(code ?? -1)));
  return {
    pid: child.pid!,
    output: () => stdout,
    errors: () => stderr,
    /** Resolves when stdout (or stderr) matches, rejects after the timeout (with what was read). */
    async waitFor(re: RegExp, timeoutMs = 20_000, stream: 'stdout' | 'stderr' = 'stdout'): Promise<RegExpMatchArray> {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const m = (stream === 'stdout' ? stdout : stderr).match(re);
        if (m) return m;
        if (Date.now() > end) throw new Error(`kubectl ${args.join(' ')}: ${re} not seen within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async stop(): Promise<void> {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGTERM');
      await exited;
    },
  };
}

/**
 * kubectl bound to one kubeconfig (read lazily: tests set it up in `before`): `k` runs and returns the result,
 * `ok` asserts success and returns stdout.
 */
export function kubectlFor(kubeconfig: () => string, timeoutMs = 30_000): {
  k(args: string[], input?: string): Promise<KubectlResult>;
  ok(args: string[], input?: string): Promise<string>;
} {
  const k = (args: string[], input?: string) => kubectl(args, { kubeconfig: kubeconfig(), ...(input !== undefined ? { input } : {}), timeoutMs });
  return {
    k,
    async ok(args, input) {
      const r = await k(args, input);
      assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
      return r.stdout;
    },
  };
}
