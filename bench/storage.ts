/**
 * Storage benchmark (`npm run bench:storage`): the sqlite backend against the physical baseline measured in
 * the same run (better-sqlite3 raw inserts, WAL + synchronous=FULL, one transaction per batch, in a worker),
 * plus the etcd backend's rows when `src/storage/etcd/testing/bench-etcd.ts` provides `runEtcdBench()`.
 * Prints a markdown table and rewrites the `## Storage` section of BENCHMARKS.md. Every phase is bounded in
 * time and count.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Store } from '../src/storage/interface.ts';
import { openSqliteStore } from '../src/storage/sqlite/sqlite-store.ts';

export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  target?: string;
}

/** A typical object size (a small Pod is 1–3 KiB of JSON). */
const VALUE = new Uint8Array(1024).fill(120);
const PHASE_MS = 3000;

const now = (): number => performance.now();

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function serialCreates(s: Store): Promise<number> {
  const start = now();
  let n = 0;
  while (now() - start < PHASE_MS && n < 20_000) {
    const r = await s.create(`/registry/bench/serial/${n}`, VALUE);
    if (!r.succeeded) throw new Error('create failed');
    n++;
  }
  return n / ((now() - start) / 1000);
}

async function concurrentCreates(s: Store, writers: number): Promise<{ perSec: number; p50: number; p99: number }> {
  const latencies: number[] = [];
  const start = now();
  let next = 0;
  await Promise.all(
    [...Array(writers).keys()].map(async () => {
      while (now() - start < PHASE_MS && next < 200_000) {
        const i = next++;
        const t = now();
        const r = await s.create(`/registry/bench/conc/${i}`, VALUE);
        latencies.push(now() - t);
        if (!r.succeeded) throw new Error('create failed');
      }
    }),
  );
  const secs = (now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSec: latencies.length / secs, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function rangeTime(s: Store, prefix: string, expected: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = now();
    const r = await s.range(prefix);
    times.push(now() - t);
    if (r.items.length !== expected) throw new Error(`range returned ${r.items.length}, expected ${expected}`);
  }
  return times.sort((a, b) => a - b)[3]!;
}

async function getMicros(s: Store): Promise<number> {
  const n = 20_000;
  const t = now();
  for (let i = 0; i < n; i++) await s.get(`/registry/bench/range/${i % 10_000}`);
  return ((now() - t) * 1000) / n;
}

/** Time from issuing one write until all `watchers` watchers received its event (median of 5). */
async function fanOut(s: Store, watchers: number): Promise<number> {
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    let pending = watchers;
    let done!: () => void;
    const all = new Promise<void>((r) => (done = r));
    const handles = [...Array(watchers).keys()].map(() =>
      s.watch('/registry/bench/fan/', { fromRevision: 0 }, {
        onEvents: () => {
          if (--pending === 0) done();
        },
        onError: (e) => {
          throw e;
        },
      }),
    );
    const t = now();
    await s.create(`/registry/bench/fan/${round}`, VALUE);
    await all;
    times.push(now() - t);
    for (const h of handles) h.dispose();
  }
  return times.sort((a, b) => a - b)[2]!;
}

/** The physical baseline: raw better-sqlite3 inserts, WAL + synchronous=FULL, one transaction per batch, in a worker. */
function rawBaseline(path: string, batch: number): Promise<number> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const Database = require(workerData.sqlite);
    const db = new Database(workerData.path);
    db.pragma('journal_mode = WAL'); db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, k TEXT, v BLOB)');
    const ins = db.prepare('INSERT INTO t (k, v) VALUES (?, ?)');
    const tx = db.transaction((n, base) => { for (let i = 0; i < n; i++) ins.run('/registry/raw/' + (base + i), workerData.value); });
    const start = performance.now(); let rows = 0;
    while (performance.now() - start < workerData.ms && rows < 500000) { tx(workerData.batch, rows); rows += workerData.batch; }
    parentPort.postMessage(rows / ((performance.now() - start) / 1000));
    db.close();`;
  const sqlite = fileURLToPath(import.meta.resolve('better-sqlite3'));
  return new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true, workerData: { path, batch, ms: PHASE_MS, value: Buffer.from(VALUE), sqlite } });
    w.once('message', (v: number) => resolve(v));
    w.once('error', reject);
  });
}

async function sqliteRows(dir: string): Promise<BenchRow[]> {
  const s = await openSqliteStore({ path: join(dir, 'keelson.db') });
  try {
    const serial = await serialCreates(s);
    const conc = await concurrentCreates(s, 64);
    const seed: Promise<unknown>[] = [];
    for (let i = 0; i < 10_000; i++) seed.push(s.create(`/registry/bench/range/${i}`, VALUE));
    await Promise.all(seed);
    const range = await rangeTime(s, '/registry/bench/range/', 10_000);
    const get = await getMicros(s);
    const fan = await fanOut(s, 1000);
    const rawSerial = await rawBaseline(join(dir, 'raw-serial.db'), 1);
    const rawBatch = await rawBaseline(join(dir, 'raw-batch.db'), 64);
    const integrity = await s.checkIntegrity!();
    if (integrity.length > 0) throw new Error(`integrity after the benchmark: ${integrity.join('; ')}`);
    const r2 = (x: number): number => Math.round(x * 100) / 100;
    return [
      { name: 'sqlite: durable creates/s, 1 serial writer', value: Math.round(serial), unit: 'creates/s', baseline: Math.round(rawSerial), ratio: r2(serial / rawSerial), target: '≥ 800/s' },
      { name: 'sqlite: durable creates/s, 64 concurrent writers', value: Math.round(conc.perSec), unit: 'creates/s', baseline: Math.round(rawBatch), ratio: r2(conc.perSec / rawBatch), target: '≥ 10,000/s' },
      { name: 'sqlite: commit latency p50, 64 writers', value: r2(conc.p50), unit: 'ms' },
      { name: 'sqlite: commit latency p99, 64 writers', value: r2(conc.p99), unit: 'ms', target: '≤ 25 ms' },
      { name: 'sqlite: range of 10k keys (1 KiB values), median', value: r2(range), unit: 'ms' },
      { name: 'sqlite: get of one key (main-thread read)', value: r2(get), unit: 'µs' },
      { name: 'sqlite: 1 event to 1,000 watchers, median', value: r2(fan), unit: 'ms' },
    ];
  } finally {
    await s.close();
  }
}

async function etcdRows(): Promise<BenchRow[]> {
  const url = new URL('../src/storage/etcd/testing/bench-etcd.ts', import.meta.url);
  if (!existsSync(fileURLToPath(url))) return [];
  const mod = (await import(url.href)) as { runEtcdBench?: () => Promise<BenchRow[] | undefined> };
  return (await mod.runEtcdBench?.()) ?? [];
}

function table(rows: BenchRow[]): string {
  const lines = ['| measurement | value | baseline | ratio | target |', '|---|---:|---:|---:|---|'];
  for (const r of rows) {
    lines.push(`| ${r.name} | ${r.value.toLocaleString('en-US')} ${r.unit} | ${r.baseline === undefined ? '' : `${r.baseline.toLocaleString('en-US')} ${r.unit}`} | ${r.ratio ?? ''} | ${r.target ?? ''} |`);
  }
  return lines.join('\n');
}

/** Replaces (or appends) the `## Storage` section of BENCHMARKS.md, leaving other sections alone. */
function writeSection(markdown: string): void {
  const file = fileURLToPath(new URL('../BENCHMARKS.md', import.meta.url));
  const section = `## Storage\n\n${markdown}\n`;
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const start = old.search(/^## Storage\s*$/m);
  let next: string;
  if (start < 0) next = old === '' ? section : `${old.trimEnd()}\n\n${section}`;
  else {
    const rest = old.slice(start + 1);
    const end = rest.search(/^## /m);
    next = old.slice(0, start) + section + (end < 0 ? '' : `\n${rest.slice(end)}`);
  }
  writeFileSync(file, next);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'keelson-bench-storage-'));
  const loadStart = loadavg()[0]!;
  try {
    const rows = await sqliteRows(dir);
    let etcdNote = '';
    try {
      rows.push(...(await etcdRows()));
    } catch (err) {
      // The etcd part is another module's; its failure must not cost the sqlite figures.
      etcdNote = `\n\netcd rows unavailable in this run: ${(err as Error).message.split('\n')[0]}`;
    }
    const md = [
      `Measured by \`npm run bench:storage\` on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, temp dir on the local disk; load average ${loadStart.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end (other work on the machine skews absolute numbers; the baseline ran in the same conditions).`,
      'Every create is durable when acknowledged (WAL, synchronous=FULL, group commit in the writer thread); values are 1 KiB.',
      'Baseline: raw better-sqlite3 inserts in a worker with the same durability, 1 row per transaction (serial) or 64 rows per transaction (concurrent); ratio = store / baseline. The baseline checkpoints the WAL inline (SQLite\'s default) while the store checkpoints in a background thread, so the ratio can exceed 1.',
      '',
      table(rows) + etcdNote,
    ].join('\n');
    console.log(md);
    writeSection(md);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
