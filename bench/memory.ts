/**
 * Memory per object: whole-process RSS of a Keelson server (sqlite store in a fresh data dir, the watch cache
 * on) after a full GC, idle and then holding N ConfigMaps of 1 KiB created over HTTPS (admin client
 * certificate, keep-alive, CONCURRENCY in flight). Reported: MB per 10k objects above idle (cold; and above the
 * server after its first 200 objects, when its request path is compiled and its caches exist; and the slope
 * since the previous step), and by kind
 * (ConfigMaps and Secrets of the same payload). Baseline in the same run: the RSS of an empty Node process
 * after the same GC, and of the server idle. With the 100k step: time from spawn to /readyz 200 on a restart
 * holding 100k objects, and its RSS then.
 *   node --import tsx bench/memory.ts          (10k and 100k; part of `npm run bench`)
 *   BENCH_QUICK=1 node --import tsx bench/memory.ts   (10k only)
 *   BENCH_ROOT=/tmp/other-checkout ...                (measure another build, e.g. main, interleaved with this one)
 * The server runs the built library (dist/index.mjs) in a child with --expose-gc; the parent only sends
 * requests, so its own memory is not counted.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, freePort } from '../test/acceptance/keelson-process.ts';
import { readyzStatus } from './http/readyz.ts';

const QUICK = process.env.BENCH_QUICK === '1';
/** The checkout whose build is measured (its own scripts/build.mjs, dist/ and bin/). */
const ROOT = process.env.BENCH_ROOT ? path.resolve(process.env.BENCH_ROOT) : REPO_ROOT;
const STEPS = QUICK ? [10_000] : [10_000, 100_000];
const CONCURRENCY = 32;
/** Objects created before the "warm" idle measurement (see main). */
const WARM_OBJECTS = 200;
const PAYLOAD = 'x'.repeat(1024);
const TIMEOUT_MS = 15 * 60_000;

/**
 * How long RSS is read after the GC. V8 frees dead ArrayBuffers' memory (every request's body and answer
 * bytes) on a background sweeper thread and unmaps freed pages on another, so RSS read the moment gc()
 * returns still counts ≈ 20 MB at 10k objects that the process is already giving back (BENCHMARKS.md,
 * "Memory per object, second round"). Both readings are reported.
 */
const SETTLE_MS = 1000;

/**
 * The child: starts the server, answers 'measure' with memoryUsage after two full GCs (heap figures at the
 * GC; rss SETTLE_MS later, rssAtGc at the GC), stops on 'stop'.
 */
const CHILD = `
import { pathToFileURL } from 'node:url';
const gc = globalThis.gc;
const measure = async () => {
  gc(); gc();
  const m = process.memoryUsage();
  await new Promise((r) => setTimeout(r, ${SETTLE_MS}));
  return { ...m, rssAtGc: m.rss, rss: process.memoryUsage().rss };
};
if (process.env.BARE === '1') {
  process.send({ ready: true, mem: await measure() });
  process.on('message', (m) => { if (m === 'stop') process.exit(0); });
} else {
  const { startServer } = await import(pathToFileURL(process.env.LIB).href);
  const s = await startServer({ dataDir: process.env.DATA, port: Number(process.env.PORT), log: () => {} });
  process.send({ ready: true, port: s.port, cert: s.adminCertPem, key: s.adminKeyPem, mem: await measure() });
  process.on('message', async (m) => {
    if (m === 'measure') process.send({ mem: await measure() });
    if (m === 'stop') { await s.stop(); process.exit(0); }
  });
}
`;

interface Msg { ready?: boolean; port?: number; cert?: string; key?: string; mem?: NodeJS.MemoryUsage & { rssAtGc: number } }

function startChild(file: string, env: Record<string, string>): { child: ChildProcess; next: () => Promise<Msg> } {
  const child = fork(file, [], { execArgv: ['--expose-gc'], env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const queue: Msg[] = [];
  const waiters: ((m: Msg) => void)[] = [];
  child.on('message', (m: Msg) => {
    const w = waiters.shift();
    if (w) w(m);
    else queue.push(m);
  });
  const next = (): Promise<Msg> => {
    const m = queue.shift();
    if (m) return Promise.resolve(m);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('child did not answer in time')), TIMEOUT_MS);
      waiters.push((x) => { clearTimeout(t); resolve(x); });
      child.once('exit', (code) => reject(new Error(`child exited (${code})`)));
    });
  };
  return { child, next };
}

async function stopChild(c: ChildProcess): Promise<void> {
  if (c.exitCode !== null) return;
  const exited = new Promise<void>((r) => c.once('exit', () => r()));
  c.send('stop');
  const killer = setTimeout(() => c.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(killer);
}

function post(agent: https.Agent, port: number, p: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port, path: p, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.setTimeout(60_000, () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

/** Creates objects [from, to) of one kind, CONCURRENCY at a time; throws on any non-201. */
async function create(agent: https.Agent, port: number, kind: 'ConfigMap' | 'Secret', from: number, to: number): Promise<void> {
  const resource = kind === 'ConfigMap' ? 'configmaps' : 'secrets';
  let i = from;
  const worker = async (): Promise<void> => {
    while (i < to) {
      const n = i++;
      const body = kind === 'ConfigMap'
        ? { apiVersion: 'v1', kind, metadata: { name: `cm-${n}`, labels: { app: `app-${n % 10}`, tier: 'bench' } }, data: { payload: PAYLOAD } }
        : { apiVersion: 'v1', kind, metadata: { name: `s-${n}`, labels: { app: `app-${n % 10}`, tier: 'bench' } }, stringData: { payload: PAYLOAD } };
      const code = await post(agent, port, `/api/v1/namespaces/default/${resource}`, JSON.stringify(body));
      if (code !== 201) throw new Error(`create ${kind} ${n}: HTTP ${code}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

const mb = (bytes: number): number => bytes / 1024 / 1024;

/** Spawns `bin/keelson.mjs` on `dataDir`, returns ms to /readyz 200 and the RSS then (from /proc), then stops it. */
async function restartToReady(dataDir: string): Promise<{ ms: number; rssMb: number }> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/keelson.mjs'), `--secure-port=${port}`, `--data-dir=${dataDir}`, `--write-kubeconfig=${path.join(dataDir, '..', 'kc')}`], { stdio: 'ignore' });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error('keelson exited before ready');
      if (performance.now() - t0 > TIMEOUT_MS) throw new Error('not ready in time');
      if ((await readyzStatus(port)) === 200) {
        const ms = performance.now() - t0;
        const status = execFileSync('cat', [`/proc/${child.pid}/status`], { encoding: 'utf8' });
        const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
        return { ms, rssMb: rssKb / 1024 };
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(killer);
  }
}

async function main(): Promise<void> {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { stdio: 'inherit' });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'keelson-memory-'));
  const load0 = os.loadavg()[0]!;
  const childFile = path.join(dir, 'child.mjs');
  writeFileSync(childFile, CHILD);
  const lines: string[] = [];
  try {
    const bare = startChild(childFile, { BARE: '1' });
    const bareRss = mb((await bare.next()).mem!.rss);
    await stopChild(bare.child);

    // Kinds side by side: one server per kind, 10k objects each.
    const perKind: Array<[string, number, number]> = [];
    for (const kind of ['ConfigMap', 'Secret'] as const) {
      const data = path.join(dir, `data-${kind}`);
      const srv = startChild(childFile, { LIB: path.join(ROOT, 'dist/index.mjs'), DATA: data, PORT: String(await freePort()) });
      const hello = await srv.next();
      const idle = mb(hello.mem!.rss);
      const agent = new https.Agent({ keepAlive: true, maxSockets: CONCURRENCY, rejectUnauthorized: false, cert: hello.cert, key: hello.key });
      let done = 0;
      // A server that has answered a few hundred requests: its compiled request path, allocator arenas and
      // store caches exist. Measured against this as well, so the per-object figure is not the first
      // requests' one-time cost spread over the objects.
      await create(agent, hello.port!, kind, 0, WARM_OBJECTS);
      done = WARM_OBJECTS;
      srv.child.send('measure');
      const warm = mb((await srv.next()).mem!.rss);
      let previous = { n: WARM_OBJECTS, rss: warm };
      try {
        for (const n of kind === 'ConfigMap' ? STEPS : [10_000]) {
          const t = performance.now();
          await create(agent, hello.port!, kind, done, n);
          const createMs = performance.now() - t;
          done = n;
          srv.child.send('measure');
          const m = (await srv.next()).mem!;
          const perTenK = ((mb(m.rss) - idle) / n) * 10_000;
          const perTenKAtGc = ((mb(m.rssAtGc) - mb(hello.mem!.rssAtGc)) / n) * 10_000;
          const perTenKWarm = ((mb(m.rss) - warm) / (n - WARM_OBJECTS)) * 10_000;
          const slope = ((mb(m.rss) - previous.rss) / (n - previous.n)) * 10_000;
          previous = { n, rss: mb(m.rss) };
          lines.push(`| ${kind} | ${n.toLocaleString('en')} | ${idle.toFixed(0)} / ${warm.toFixed(0)} MB | ${mb(m.rss).toFixed(0)} MB (heap ${mb(m.heapUsed).toFixed(0)}, external ${mb(m.external).toFixed(0)}) | **${perTenK.toFixed(0)} MB** / ${perTenKWarm.toFixed(0)} MB / ${slope.toFixed(0)} MB | ${mb(m.rssAtGc).toFixed(0)} MB, ${perTenKAtGc.toFixed(0)} MB | ${((n - WARM_OBJECTS) / (createMs / 1000)).toFixed(0)}/s |`);
          if (n === 10_000) perKind.push([kind, perTenK, (mb(m.heapUsed) - mb(hello.mem!.heapUsed)) / n * 1024 * 1024]);
        }
      } finally {
        agent.destroy();
        await stopChild(srv.child);
      }
      if (kind === 'ConfigMap' && !QUICK) {
        const r = await restartToReady(data);
        lines.push(`| ConfigMap restart (bin/keelson.mjs) | ${done.toLocaleString('en')} | — | ${r.rssMb.toFixed(0)} MB at ready (no forced GC) | /readyz 200 after **${(r.ms / 1000).toFixed(1)} s** | — | — |`);
      }
    }
    const out = [
      `| kind | objects | server idle RSS: cold / after the first 200 objects | RSS after full GC (+${SETTLE_MS} ms) | per 10k: above cold idle / above the 200-object server / since the previous row | read at the GC: RSS, per 10k above cold idle | creates |`,
      '|---|---:|---:|---:|---:|---:|---:|',
      ...lines,
      '',
      `Baseline (same run): empty Node process ${bareRss.toFixed(0)} MB RSS after the same GC.`,
      `Heap per object (V8 heapUsed above idle / objects): ${perKind.map(([k, , b]) => `${k} ${(b / 1024).toFixed(1)} KiB`).join(', ')}.`,
      `load average ${load0.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}`,
    ];
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exitCode = 1;
});
