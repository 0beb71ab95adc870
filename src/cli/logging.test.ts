/**
 * The command's logs: `--logging-format=json` writes every line as a component-base JSON record, the default text
 * format klog lines, and `-v=3` adds the request lines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http2 from 'node:http2';
import { main } from './main.ts';

function get(url: string, dir: string, p: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = http2.connect(url, { ca: readFileSync(path.join(dir, 'ca.crt')), cert: readFileSync(path.join(dir, 'admin.crt')), key: readFileSync(path.join(dir, 'admin.key')) });
    s.on('error', reject);
    const r = s.request({ ':path': p });
    r.on('response', (h) => { r.resume(); r.on('end', () => { s.close(); resolve(Number(h[':status'])); }); });
    r.on('error', reject);
    r.end();
  });
}

async function run(flags: string[]): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-log-'));
  let err = '';
  let stop!: (s: string) => void;
  const stopped = new Promise<string>((r) => { stop = r; });
  try {
    const code = main(['--secure-port=0', `--data-dir=${dir}`, ...flags], {
      stdout: (s) => {
        if (!s.startsWith('export KUBECONFIG=')) return;
        const url = /Serving securely on (https:\/\/[^\s"]+)/.exec(err)?.[1];
        assert.ok(url, err);
        void get(url, dir, '/version').then(() => stop('SIGTERM'), () => stop('SIGTERM'));
      },
      stderr: (s) => { err += s; },
      untilSignal: () => stopped,
    });
    assert.equal(await code, 0, err);
    return err.split('\n').filter((l) => l !== '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void test('--logging-format=json -v=3: every stderr line is a JSON record, request lines included', async () => {
  const lines = await run(['--logging-format=json', '-v=3']);
  const recs = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  for (const r of recs) {
    assert.equal(typeof r.ts, 'number');
    assert.equal(typeof r.msg, 'string');
    assert.equal(typeof r.caller, 'string');
  }
  assert.ok(recs.some((r) => r.msg === 'HTTP' && r.v === 3 && r.URI === '/version' && r.resp === 200 && r.verb === 'GET'), lines.join('\n'));
});

void test('text format at -v=0: klog lines and no request lines', async () => {
  const lines = await run([]);
  for (const l of lines) assert.match(l, /^[IWE]\d{4} \d{2}:\d{2}:\d{2}\.\d{6} +\d+ \S+\] /);
  assert.ok(lines.some((l) => /^I\S+ \S+ +\d+ keelson\] Serving securely on https:\/\/127\.0\.0\.1:\d+$/.test(l)), lines.join('\n'));
  assert.ok(!lines.some((l) => l.includes('"HTTP"')));
});
