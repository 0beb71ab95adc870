/**
 * The etcd side of `npm run bench:storage`: our etcd backend against the raw etcd3 client doing the same
 * transactions on the same throwaway etcd (the baseline). Target: within 20% of raw, i.e. ratio ≥ 0.8.
 *
 * Each phase runs for a fixed wall-clock window; raw and ours alternate three times (switching who goes
 * first) and the best run of each counts, which evens out disk and scheduler noise on a small machine. Returns undefined when no
 * etcd binary is installed.
 *
 * Run alone: `node --import tsx src/storage/etcd/bench-etcd.ts`
 */
import { pathToFileURL } from 'node:url';
import { Etcd3 } from 'etcd3';
import { startEtcd } from '../../../test/support/etcd.ts';
import type { Store } from '../interface.ts';
import { openEtcdStore } from './etcd-store.ts';

/** Same shape as bench/storage.ts's BenchRow (declared here to keep the two independent). */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  target?: string;
}

export interface EtcdBenchOptions {
  /** Wall-clock length of one measured run (default 2000 ms). */
  readonly phaseMs?: number;
  /** Value size in bytes (default 1024, a typical small object). */
  readonly valueBytes?: number;
}

type CreateFn = (key: string) => Promise<void>;

interface Measurement {
  /** Completed creates per second. */
  rate: number;
  /** p99 latency, ms. */
  p99: number;
  /** Client-process CPU time per create, µs: our layer's overhead, independent of etcd's disk. */
  cpuUs: number;
}

/** Runs `workers` loops of `create` for `ms`. */
async function measure(create: CreateFn, workers: number, ms: number, tag: string): Promise<Measurement> {
  const latencies: number[] = [];
  const end = performance.now() + ms;
  let seq = 0;
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await create(`/registry/bench/${tag}/${seq++}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  latencies.sort((a, b) => a - b);
  return {
    rate: latencies.length / elapsed,
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    cpuUs: (cpu.user + cpu.system) / Math.max(1, latencies.length),
  };
}

function rawCreate(client: Etcd3, prefix: string, value: Buffer): CreateFn {
  return async (key) => {
    const k = Buffer.from(prefix + key);
    const res = await client.kv.txn({
      compare: [{ key: k, target: 'Create', result: 'Equal', create_revision: 0 }],
      success: [{ request_put: { key: k, value } }],
      failure: [{ request_range: { key: k } }],
    });
    if (!res.succeeded) throw new Error(`raw create of ${key} failed`);
  };
}

function storeCreate(store: Store, value: Uint8Array): CreateFn {
  return async (key) => {
    const res = await store.create(key, value);
    if (!res.succeeded) throw new Error(`create of ${key} failed`);
  };
}

export async function runEtcdBench(opts: EtcdBenchOptions = {}): Promise<BenchRow[] | undefined> {
  const etcd = await startEtcd();
  if (!etcd) return undefined;
  const phaseMs = opts.phaseMs ?? 2000;
  const value = Buffer.alloc(opts.valueBytes ?? 1024, 0x61);
  const raw = new Etcd3({ hosts: etcd.endpoint });
  const store = await openEtcdStore({ servers: [etcd.endpoint], prefix: '/ours' });
  const rows: BenchRow[] = [];
  try {
    // Warm both clients' connections.
    await measure(rawCreate(raw, '/raw', value), 4, 200, 'warm-raw');
    await measure(storeCreate(store, value), 4, 200, 'warm-ours');
    for (const [label, workers] of [['serial', 1], ['64-concurrent', 64]] as const) {
      let bestRaw: Measurement = { rate: 0, p99: 0, cpuUs: 0 };
      let bestOurs: Measurement = { rate: 0, p99: 0, cpuUs: 0 };
      for (let round = 0; round < 3; round++) {
        // Alternate who goes first so a slow patch of the disk does not always hit the same side.
        const runRaw = () => measure(rawCreate(raw, '/raw', value), workers, phaseMs, `raw-${label}-${round}`);
        const runOurs = () => measure(storeCreate(store, value), workers, phaseMs, `ours-${label}-${round}`);
        let r: Measurement;
        let o: Measurement;
        if (round % 2 === 0) {
          r = await runRaw();
          o = await runOurs();
        } else {
          o = await runOurs();
          r = await runRaw();
        }
        if (r.rate > bestRaw.rate) bestRaw = r;
        if (o.rate > bestOurs.rate) bestOurs = o;
      }
      rows.push({ name: `etcd ${label} creates (raw etcd3 client)`, value: round1(bestRaw.rate), unit: 'creates/s' });
      rows.push({
        name: `etcd ${label} creates (keelson etcd backend)`,
        value: round1(bestOurs.rate),
        unit: 'creates/s',
        baseline: round1(bestRaw.rate),
        ratio: Math.round((bestOurs.rate / bestRaw.rate) * 100) / 100,
        target: '≥ 0.8 × raw etcd3',
      });
      rows.push({
        name: `etcd ${label} create p99 (keelson etcd backend)`,
        value: round1(bestOurs.p99),
        unit: 'ms',
        baseline: round1(bestRaw.p99),
      });
      rows.push({
        name: `etcd ${label} client CPU per create (keelson etcd backend)`,
        value: round1(bestOurs.cpuUs),
        unit: 'µs',
        baseline: round1(bestRaw.cpuUs),
      });
    }
  } finally {
    raw.close();
    await store.close();
    await etcd.stop();
  }
  return rows;
}

const round1 = (x: number): number => Math.round(x * 10) / 10;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await runEtcdBench();
  if (!rows) console.log('etcd bench skipped: no etcd binary');
  else console.table(rows);
}
