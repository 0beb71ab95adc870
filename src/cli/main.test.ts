import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http2 from 'node:http2';
import { parse } from 'yaml';

const BIN = new URL('../../bin/keelson.mjs', import.meta.url).pathname;

function readyz(url: string, dir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = http2.connect(url, { ca: readFileSync(path.join(dir, 'ca.crt')), cert: readFileSync(path.join(dir, 'admin.crt')), key: readFileSync(path.join(dir, 'admin.key')) });
    s.on('error', reject);
    const r = s.request({ ':path': '/readyz' });
    r.on('response', (h) => { s.close(); resolve(Number(h[':status'])); });
    r.on('error', reject);
    r.end();
  });
}

/** Runs the README invocation, waits for the kubeconfig line, checks readiness, sends SIGTERM. */
async function runOnce(dir: string, kubeconfig: string): Promise<{ server: string; code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, '--secure-port=0', `--data-dir=${dir}`, `--write-kubeconfig=${kubeconfig}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no kubeconfig line within 60s; stderr: ${stderr}`)), 60_000);
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
        if (stdout.includes('\n')) { clearTimeout(timer); resolve(); }
      });
      void exited.then((code) => { clearTimeout(timer); reject(new Error(`exited ${code}: ${stderr}`)); });
    });
    assert.equal(stdout, `export KUBECONFIG=${kubeconfig}\n`);
    const server = parse(readFileSync(kubeconfig, 'utf8')).clusters[0].cluster.server as string;
    assert.equal(await readyz(server, dir), 200);
    return { server, code: null, stderr };
  } finally {
    child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) throw new Error(`exit code ${code}; stderr: ${stderr}`);
  }
}

void test('keelson CLI: README invocation serves, SIGTERM exits 0, restart reuses the PKI', { timeout: 180_000 }, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-cli-'));
  try {
    const kubeconfig = path.join(dir, 'out', 'admin.kubeconfig');
    await runOnce(dir, kubeconfig);
    const ca = readFileSync(path.join(dir, 'ca.crt'), 'utf8');
    await runOnce(dir, kubeconfig);
    assert.equal(readFileSync(path.join(dir, 'ca.crt'), 'utf8'), ca);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('keelson CLI: unknown flag exits 1 with pflag\'s message', { timeout: 60_000 }, async () => {
  const child = spawn(process.execPath, [BIN, '--nope'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  assert.equal(code, 1);
  assert.equal(stderr, 'Error: unknown flag: --nope\n');
});

void test('keelson CLI: a bad --runtime-config prints Error: <message> and exits 1 before anything starts', async () => {
  const { main } = await import('./main.ts');
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-cli-rc-'));
  try {
    const cases: Array<[string, string]> = [
      ['foo.example/v9=true', 'unknown api groups foo.example/v9'],
      ['api/all=maybe', 'invalid value of api/all: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax'],
      ['apps/v1/deployments=false', 'runtime-config setting apps/v1/deployments is a resource, not a group version: per-resource settings are not supported'],
    ];
    for (const [setting, message] of cases) {
      let out = '';
      let err = '';
      const code = await main(['--secure-port=0', `--data-dir=${dir}`, `--runtime-config=${setting}`], {
        stdout: (s) => { out += s; },
        stderr: (s) => { err += s; },
        untilSignal: () => new Promise<string>(() => {}),
      });
      assert.equal(code, 1, setting);
      assert.equal(out, '', setting);
      const lines = err.split('\n').filter((l) => l && !l.startsWith('W '));
      assert.deepEqual(lines, [`Error: ${message}`], setting);
      // Nothing started: no PKI was written into the data dir.
      assert.equal(existsSync(path.join(dir, 'ca.crt')), false, setting);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
