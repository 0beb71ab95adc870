/**
 * `--feature-gates` through the command and the server: flag errors worded as kube-apiserver's, klog warnings
 * for deprecated/GA gates, and APIResponseCompression=false turning gzip off.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from './main.ts';
import { startServer, type RunningServer } from '../controlplane/start.ts';

async function run(argv: string[]): Promise<{ code: number; stderr: string; stdout: string }> {
  let stderr = '';
  let stdout = '';
  const code = await main(argv, {
    stdout: (s) => { stdout += s; },
    stderr: (s) => { stderr += s; },
    untilSignal: () => Promise.resolve('SIGTERM'),
  });
  return { code, stderr, stdout };
}

/** The last line written (flag notices such as the AnonymousAuth reset may come first). */
const lastLine = (s: string): string | undefined => s.trimEnd().split('\n').at(-1);

void test('unknown and locked gates are flag errors (exit 1, kube wording)', async () => {
  const unknown = await run(['--feature-gates=NoSuchGate=true']);
  assert.equal(unknown.code, 1);
  assert.equal(lastLine(unknown.stderr), 'Error: unrecognized feature gate: NoSuchGate');
  const locked = await run(['--feature-gates=StructuredAuthorizationConfiguration=false']);
  assert.equal(locked.code, 1);
  assert.equal(lastLine(locked.stderr), 'Error: cannot set feature gate StructuredAuthorizationConfiguration to false, feature is locked to true');
});

void test('deprecated and GA gates start with a klog warning line', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-gates-'));
  try {
    const r = await run(['--secure-port=0', `--data-dir=${dir}`, '--feature-gates=KMSv1=false,BtreeWatchCache=true']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^W\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ feature_gate\.(?:go:\d+|ts)\] Setting deprecated feature gate KMSv1=false\. It will be removed in a future release\.$/m);
    assert.match(r.stderr, /^W\d{4} .*\] Setting GA feature gate BtreeWatchCache=true\. It will be removed in a future release\.$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

function get(s: RunningServer, p: string): Promise<{ status: number; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    const u = new URL(p, s.url);
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, ca: s.caPem, cert: s.adminCertPem, key: s.adminKeyPem,
      headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, encoding: res.headers['content-encoding'] }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function postConfigMap(s: RunningServer, name: string, size: number): Promise<number> {
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { big: 'x'.repeat(size) } });
  return new Promise((resolve, reject) => {
    const u = new URL('/api/v1/namespaces/default/configmaps', s.url);
    const req = request({ method: 'POST', host: u.hostname, port: u.port, path: u.pathname, ca: s.caPem, cert: s.adminCertPem, key: s.adminKeyPem,
      headers: { 'Content-Type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A list over kube's 128 KiB compression threshold, asked for with Accept-Encoding: gzip. */
async function largeListEncoding(featureGates: Record<string, boolean>): Promise<string | undefined> {
  const s = await startServer({ featureGates, controllers: true });
  try {
    for (const n of ['a', 'b']) assert.equal(await postConfigMap(s, `big-${n}`, 100_000), 201);
    const r = await get(s, '/api/v1/namespaces/default/configmaps');
    assert.equal(r.status, 200);
    return r.encoding;
  } finally {
    await s.stop();
  }
}

void test('APIResponseCompression gates gzip of large responses', { timeout: 60_000 }, async () => {
  assert.equal(await largeListEncoding({}), 'gzip');
  assert.equal(await largeListEncoding({ APIResponseCompression: false }), undefined);
});

void test('startServer refuses an unknown gate before serving', async () => {
  await assert.rejects(startServer({ featureGates: { Bogus: true } }), { message: 'unrecognized feature gate: Bogus' });
});
