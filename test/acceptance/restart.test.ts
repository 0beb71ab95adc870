/**
 * Restart after kill -9, at the server level: a real `keelson` process taking concurrent creates over HTTP has
 * its process group SIGKILLed and the next one is started on the same --data-dir at once; every start
 * succeeds and every create that was answered 201 is there afterwards. The killed servers run under a parent
 * that never reaps them, so each is still a zombie (its pid alive to kill(pid, 0)) when the next one opens the
 * store, as in the reported failure. A second live server on the data dir is refused: the CLI prints why and
 * exits 1, and startServer() in one process rejects a second one.
 */
import { after, test } from 'node:test';
import { createInterface } from 'node:readline';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer } from '../../src/index.ts';
import { StorageUnavailableError } from '../../src/storage/interface.ts';
import { freePort, httpsGet, readKubeconfig, REPO_ROOT, startKeelson, type AdminCreds, type KeelsonProcess } from './keelson-process.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'keelson-restart-'));
const dataDir = path.join(dir, 'data');
const running: KeelsonProcess[] = [];
const unreaped: Unreaped[] = [];
after(async () => {
  await Promise.all([...running.map((s) => s.stop('SIGKILL')), ...unreaped.map((s) => s.end())]);
  rmSync(dir, { recursive: true, force: true });
});

interface Unreaped {
  /** The server's pid, also its process group. */
  pid: number;
  readyMs: number;
  output(): string;
  /** SIGKILLs the server's process group; the server stays a zombie until end(). */
  killGroup(): void;
  /** Kills the server if still alive and its non-reaping parent, so it is reaped; resolves when output ended. */
  end(): Promise<void>;
}

/**
 * Starts `keelson` as a session leader (setsid) in the background of `sh`, which then execs `sleep`: a parent
 * that never reaps it. Waits for /readyz 200 as startKeelson does.
 */
async function startUnreaped(kubeconfig: string): Promise<Unreaped> {
  const port = await freePort();
  const args = [path.join(REPO_ROOT, 'bin/keelson.mjs'), `--secure-port=${port}`, `--data-dir=${dataDir}`, `--write-kubeconfig=${kubeconfig}`];
  const t0 = performance.now();
  const parent = spawn('/bin/sh', ['-c', 'setsid "$@" & echo "pid $!"; exec sleep 600', 'sh', process.execPath, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  parent.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
  const closed = new Promise<void>((r) => parent.on('close', () => r()));
  const parentAlive = (): boolean => parent.exitCode === null && parent.signalCode === null;
  const pid = await new Promise<number>((resolve) => {
    createInterface({ input: parent.stdout }).on('line', (l) => {
      if (l.startsWith('pid ')) resolve(Number(l.slice(4)));
      else out += `${l}\n`;
    });
  });
  // Its pid cannot have been reused: the parent is alive and has not reaped it.
  const killGroup = (): void => {
    if (parentAlive()) process.kill(-pid, 'SIGKILL');
  };
  const server: Unreaped = {
    pid,
    readyMs: 0,
    output: () => out,
    killGroup,
    end: async () => {
      killGroup();
      parent.kill('SIGKILL');
      await closed;
    },
  };
  unreaped.push(server);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (/^Error: /m.test(out) || procState(pid) === 'Z' || !parentAlive()) throw new Error(`keelson ended before ready:\n${out}`);
    if (Date.now() > deadline) throw new Error(`keelson not ready within 60 s:\n${out}`);
    if (existsSync(kubeconfig)) {
      try {
        const creds = readKubeconfig(kubeconfig);
        if (new URL(creds.server).port === String(port) && (await httpsGet(creds, '/readyz')).status === 200) break;
      } catch {
        // not listening yet, or the kubeconfig is being written
      }
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  server.readyMs = performance.now() - t0;
  return server;
}

/** The process state letter from /proc (Z = zombie), or undefined without /proc. */
function procState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0];
  } catch {
    return undefined;
  }
}

function post(creds: AdminCreds, agent: https.Agent, p: string, body: unknown): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const u = new URL(p, creds.server);
    const data = JSON.stringify(body);
    const req = https.request(
      { method: 'POST', hostname: u.hostname, port: u.port, path: u.pathname, ca: creds.ca, cert: creds.cert, key: creds.key, agent, servername: 'localhost', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }));
        res.on('error', reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(data);
  });
}

const expectedRefusal = `another Keelson is using the data directory ${dataDir} (the store ${path.join(dataDir, 'keelson.db')} is locked)`;

void test('keelson killed with -9 starts again at once on the same data dir (5 cycles, 16 concurrent creators), nothing acknowledged lost', { timeout: 300_000 }, async () => {
  const acked = new Map<string, { resourceVersion: string; value: string }>();
  const t0 = performance.now();
  let zombies = 0;
  for (let cycle = 1; cycle <= 5; cycle++) {
    // Throws when the server ends before it is ready: a refused start fails the test here.
    const kubeconfig = path.join(dir, `kc-${cycle}`);
    const server = await startUnreaped(kubeconfig);
    const previous = unreaped.at(-2);
    if (previous && procState(previous.pid) === 'Z') zombies++;
    const creds = readKubeconfig(kubeconfig);
    const agent = new https.Agent({ keepAlive: true, maxSockets: 16 });
    let killed = false;
    let errors = 0;
    const creator = async (w: number): Promise<void> => {
      for (let i = 0; !killed; i++) {
        const name = `c${cycle}-w${w}-${i}`;
        const value = `${cycle}.${w}.${i}`;
        try {
          const r = await post(creds, agent, '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: value } });
          assert.equal(r.status, 201, JSON.stringify(r.json));
          acked.set(name, { resourceVersion: r.json.metadata.resourceVersion, value });
        } catch (err) {
          if (!killed) throw err;
          errors++; // in flight at the kill: never acknowledged
        }
      }
    };
    const before = acked.size;
    const creators = Promise.all([...Array(16).keys()].map(creator));
    // Kill once some creates were acknowledged (a loaded machine may need a while to get there), then a little later.
    const deadline = Date.now() + 30_000;
    while (acked.size - before < 16 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 300)));
    killed = true;
    server.killGroup(); // the next start does not wait for this one to exit, let alone to be reaped
    await creators;
    agent.destroy();
    assert.ok(acked.size - before >= 16, `cycle ${cycle}: only ${acked.size - before} creates acknowledged`);
    console.log(`# cycle ${cycle}: ready in ${server.readyMs.toFixed(0)} ms, ${acked.size - before} creates acknowledged, ${errors} cut off by the kill`);
  }
  console.log(`# 5 kill -9/restart cycles in ${((performance.now() - t0) / 1000).toFixed(1)} s, ${zombies} over the unreaped previous server`);
  if (existsSync('/proc/self/stat')) assert.equal(zombies, 4, 'each killed server was still unreaped when the next one started');

  const last = await startKeelson({ dataDir, kubeconfig: path.join(dir, 'kc-last') });
  running.push(last);
  await Promise.all(unreaped.map((s) => s.end()));
  const creds = readKubeconfig(last.kubeconfig);
  const list = await httpsGet(creds, '/api/v1/namespaces/default/configmaps', 30_000);
  assert.equal(list.status, 200, list.text);
  const stored = new Map<string, any>(JSON.parse(list.text).items.map((cm: any) => [cm.metadata.name, cm]));
  for (const [name, a] of acked) {
    const cm = stored.get(name);
    assert.ok(cm, `acknowledged configmap ${name} (resourceVersion ${a.resourceVersion}) is missing`);
    assert.equal(cm.data.v, a.value, name);
    assert.equal(cm.metadata.resourceVersion, a.resourceVersion, name);
  }

  // A second server on the data dir of a live one is refused: printed, exit 1.
  const port = await freePort();
  const second = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/keelson.mjs'), `--secure-port=${port}`, `--data-dir=${dataDir}`, `--write-kubeconfig=${path.join(dir, 'kc-second')}`], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  second.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  second.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
  const guard = setTimeout(() => second.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((r) => second.on('exit', (c) => r(c)));
  clearTimeout(guard);
  assert.equal(code, 1, out);
  assert.ok(out.includes(`Error: ${expectedRefusal}\n`), out);
  assert.equal((await httpsGet(creds, '/readyz')).status, 200, 'the running server is undisturbed');

  running.pop();
  assert.equal(await last.stop('SIGTERM'), 0, last.output().slice(-2000));
});

void test('startServer() on a data dir that a server in this process uses rejects with the lock error and starts nothing', { timeout: 60_000 }, async () => {
  const first = await startServer({ dataDir, writeKubeconfig: false });
  try {
    await assert.rejects(startServer({ dataDir, writeKubeconfig: false }), (e: unknown) => e instanceof StorageUnavailableError && e.message === expectedRefusal);
    const cred = { ca: first.caPem, cert: first.adminCertPem, key: first.adminKeyPem, server: first.url };
    assert.equal((await httpsGet(cred, '/readyz')).status, 200);
  } finally {
    await first.stop();
  }
  const again = await startServer({ dataDir, writeKubeconfig: false });
  await again.stop();
});
