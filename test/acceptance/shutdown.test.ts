/**
 * Graceful shutdown of the real process: with --shutdown-delay-duration, /readyz fails (the `shutdown` check)
 * while requests are still served; open watches end; the process exits 0 and the data is flushed.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { httpsGet, readKubeconfig, startKeelson, type KeelsonProcess } from './keelson-process.ts';

let dir = '';
let server: KeelsonProcess | undefined;
after(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

void test('SIGTERM: readyz fails during the shutdown delay, watches end, exit 0', async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-shutdown-'));
  const kc = path.join(dir, 'kc');
  server = await startKeelson({ dataDir: path.join(dir, 'data'), kubeconfig: kc, extraArgs: ['--shutdown-delay-duration=3s'] });
  const creds = readKubeconfig(kc);
  const u = new URL(creds.server);

  const watchEnded = new Promise<void>((resolve, reject) => {
    const req = https.get({ hostname: u.hostname, port: u.port, path: '/api/v1/namespaces/default/configmaps?watch=1', ca: creds.ca, cert: creds.cert, key: creds.key, servername: 'localhost', agent: false }, (res) => {
      assert.equal(res.statusCode, 200);
      res.resume();
      res.on('end', resolve);
      res.on('close', resolve);
    });
    req.on('error', reject);
  });
  await new Promise((r) => setTimeout(r, 200));

  const exited = server.stop('SIGTERM');
  let sawNotReady = false;
  const deadline = Date.now() + 2500;
  while (Date.now() < deadline && !sawNotReady) {
    try {
      const r = await httpsGet(creds, '/readyz?verbose');
      if (r.status === 500) {
        sawNotReady = true;
        assert.match(r.text, /\[-\]shutdown failed: reason withheld/);
        assert.match(r.text, /readyz check failed/);
        // Still serving everything else during the delay.
        assert.equal((await httpsGet(creds, '/livez')).status, 200);
      }
    } catch {
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(sawNotReady, '/readyz answered 500 during the shutdown delay');
  assert.equal(await exited, 0, server.output().slice(-2000));
  await watchEnded;
  server = undefined;
});
