/**
 * The etcd side of `npm run bench:storage`: our etcd backend against the raw etcd3 client doing the same
 * work on the same throwaway etcd (the baseline). Target: within 20% of raw, i.e. ratio ≥ 0.8. Measured:
 * create throughput (1 serial and 64 concurrent writers), p99 latency and client CPU per create, a range
 * of 10k keys, and write → watch event latency. For times, ratio = raw / ours (higher is better too).
 *
 * Each phase runs for a fixed wall-clock window; raw and ours alternate three times (switching who goes
 * first) and the best run of each counts, which evens out disk and scheduler noise on a small machine. Returns undefined when no
 * etcd binary is installed.
 *
 * Run alone: `node --import tsx src/storage/etcd/testing/bench-etcd.ts`
 */
import { pathToFileURL } from 'node:url';
import { Etcd3 } from 'etcd3';
import { startEtcd } from '../../../../test/support/etcd.ts';
import type { Store } from '../../interface.ts';
import { openEtcdStore } from '../etcd-store.ts';

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
  /** Keys in the range measurement (default 10,000). */
  readonly rangeKeys?: number;
  /** Writes in the watch latency measurement (default 200). */
  readonly watchWrites?: number;
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

/** Creates: serial and 64 concurrent writers, ours vs raw, best of three alternating rounds each. */
async function createRows(raw: Etcd3, store: Store, value: Buffer, phaseMs: number): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  // Warm both clients' connections.
  await measure(rawCreate(raw, '/raw', value), 4, 200, 'warm-raw');
  await measure(storeCreate(store, value), 4, 200, 'warm-ours');
  for (const [label, workers] of [['1 serial writer', 1], ['64 concurrent writers', 64]] as const) {
    let bestRaw: Measurement = { rate: 0, p99: 0, cpuUs: 0 };
    let bestOurs: Measurement = { rate: 0, p99: 0, cpuUs: 0 };
    for (let round = 0; round < 3; round++) {
      // Alternate who goes first so a slow patch of the disk does not always hit the same side.
      const runRaw = () => measure(rawCreate(raw, '/raw', value), workers, phaseMs, `raw-${workers}-${round}`);
      const runOurs = () => measure(storeCreate(store, value), workers, phaseMs, `ours-${workers}-${round}`);
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
    rows.push({
      name: `etcd: creates/s, ${label}`,
      value: Math.round(bestOurs.rate),
      unit: 'creates/s',
      baseline: Math.round(bestRaw.rate),
      ratio: r2(bestOurs.rate / bestRaw.rate),
      target: '≥ 0.8 × raw etcd3 client',
    });
    rows.push({ name: `etcd: commit latency p99, ${label}`, value: r2(bestOurs.p99), unit: 'ms', baseline: r2(bestRaw.p99) });
    rows.push({ name: `etcd: client CPU per create, ${label}`, value: Math.round(bestOurs.cpuUs), unit: 'µs', baseline: Math.round(bestRaw.cpuUs) });
  }
  return rows;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** A range of `count` keys read through our store and through the raw client (same etcd keys). */
async function rangeRow(raw: Etcd3, store: Store, storePrefix: string, value: Buffer, count: number): Promise<BenchRow> {
  const dir = '/registry/bench-range/';
  // Load with the raw client, 100 puts per transaction (etcd allows 128 operations per txn).
  for (let i = 0; i < count; i += 100) {
    const ops = [];
    for (let j = i; j < Math.min(count, i + 100); j++) {
      ops.push({ request_put: { key: Buffer.from(`${storePrefix}${dir}${String(j).padStart(6, '0')}`), value } });
    }
    await raw.kv.txn({ success: ops });
  }
  const key = Buffer.from(storePrefix + dir);
  const rangeEnd = Buffer.from(storePrefix + dir.slice(0, -1) + '0');
  const ours: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < 7; i++) {
    let t0 = performance.now();
    const r = await raw.kv.range({ key, range_end: rangeEnd });
    base.push(performance.now() - t0);
    t0 = performance.now();
    const o = await store.range(dir);
    ours.push(performance.now() - t0);
    if (r.kvs.length !== count || o.items.length !== count) throw new Error(`range returned ${r.kvs.length}/${o.items.length} of ${count}`);
  }
  return {
    name: `etcd: range of ${count.toLocaleString('en-US')} keys (1 KiB values), median`,
    value: r2(median(ours)),
    unit: 'ms',
    baseline: r2(median(base)),
    ratio: r2(median(base) / median(ours)),
  };
}

/** Write → event latency at our watch and at a raw etcd3 watcher, both watching the same writes. */
async function watchRow(raw: Etcd3, store: Store, storePrefix: string, value: Buffer, writes: number): Promise<BenchRow> {
  const dir = '/registry/bench-watch/';
  const ours: number[] = [];
  const base: number[] = [];
  let t0 = 0;
  let pending: { ours: boolean; raw: boolean; done: () => void; fail: (err: Error) => void } | undefined;
  const settle = (): void => {
    if (pending && pending.ours && pending.raw) pending.done();
  };
  const handle = store.watch(dir, { fromRevision: await store.currentRevision() }, {
    onEvents: () => {
      ours.push(performance.now() - t0);
      if (pending) pending.ours = true;
      settle();
    },
    onError: (err) => pending?.fail(err),
  });
  const watcher = await raw.watch().prefix(storePrefix + dir).create();
  watcher.on('put', () => {
    base.push(performance.now() - t0);
    if (pending) pending.raw = true;
    settle();
  });
  try {
    for (let i = 0; i < writes; i++) {
      const both = new Promise<void>((done, fail) => {
        pending = { ours: false, raw: false, done, fail };
      });
      t0 = performance.now();
      await raw.kv.put({ key: Buffer.from(`${storePrefix}${dir}${i}`), value });
      await both;
    }
  } finally {
    handle.dispose();
    await watcher.cancel();
  }
  return {
    name: 'etcd: write → watch event latency, median',
    value: r2(median(ours)),
    unit: 'ms',
    baseline: r2(median(base)),
    ratio: r2(median(base) / median(ours)),
  };
}

export async function runEtcdBench(opts: EtcdBenchOptions = {}): Promise<BenchRow[] | undefined> {
  const etcd = await startEtcd();
  if (!etcd) return undefined;
  const phaseMs = opts.phaseMs ?? 2000;
  const value = Buffer.alloc(opts.valueBytes ?? 1024, 0x61);
  const storePrefix = '/ours';
  // Like ours (and kube-apiserver's client), the baseline accepts large range responses (grpc default: 4 MiB).
  const raw = new Etcd3({ hosts: etcd.endpoint, grpcOptions: { 'grpc.max_receive_message_length': 2 ** 31 - 1 } });
  const store = await openEtcdStore({ servers: [etcd.endpoint], prefix: storePrefix });
  try {
    return [
      ...(await createRows(raw, store, value, phaseMs)),
      await rangeRow(raw, store, storePrefix, value, opts.rangeKeys ?? 10_000),
      await watchRow(raw, store, storePrefix, value, opts.watchWrites ?? 200),
    ];
  } finally {
    raw.close();
    await store.close();
    await etcd.stop();
  }
}

const r2 = (x: number): number => Math.round(x * 100) / 100;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await runEtcdBench();
  if (!rows) console.log('etcd bench skipped: no etcd binary');
  else console.table(rows);
}
