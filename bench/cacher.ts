/**
 * Watch cache benchmark (`node --import tsx bench/cacher.ts`): the issue-2 cache targets, measured in-process
 * over the memory store and the sqlite store —
 *   startup (load + decode the current state) of 10k and 100k objects   ≤ 1 s / ≤ 5 s
 *   full LIST of 10k objects from the cache (consistent read)            ≤ 50 ms
 *   one change delivered to 1,000 watchers (write ack → last sink)       ≤ 50 ms
 * Objects are ~1.2 KiB Pod-like JSON. Prints a markdown table for the integrator to merge into
 * BENCHMARKS.md. Every phase is bounded in count; `BENCH_QUICK=1` shrinks it for a smoke run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KObject } from '../src/machinery/objects.ts';
import { makePredicate } from '../src/registry/predicate.ts';
import { Cacher } from '../src/storage/cacher/cacher.ts';
import type { ObjectAttrs, ObjectCodec, ObjectEvent } from '../src/storage/cacher/types.ts';
import type { KeyValue, Store } from '../src/storage/interface.ts';
import { MemoryStore } from '../src/storage/memory/memory-store.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const SMALL = QUICK ? 1000 : 10_000;
const LARGE = QUICK ? 5000 : 100_000;
const WATCHERS = QUICK ? 100 : 1000;
const PREFIX = '/registry/pods/';
const now = (): number => performance.now();

const codec: ObjectCodec = {
  decode(kv: KeyValue): KObject {
    const o = JSON.parse(Buffer.from(kv.value.buffer, kv.value.byteOffset, kv.value.byteLength).toString('utf8')) as KObject;
    o.metadata.resourceVersion = String(kv.modRevision);
    return o;
  },
  attrs(o: KObject): ObjectAttrs {
    const name = o.metadata.name ?? '';
    const namespace = o.metadata.namespace ?? '';
    const spec = o['spec'] as { nodeName?: string } | undefined;
    return { name, namespace, labels: o.metadata.labels ?? {}, fields: { 'metadata.name': name, 'metadata.namespace': namespace, 'spec.nodeName': spec?.nodeName ?? '' } };
  },
};

function pod(i: number): Uint8Array {
  const ns = `ns-${i % 20}`;
  return Buffer.from(JSON.stringify({
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: `pod-${i}`, namespace: ns, uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`, creationTimestamp: '2026-01-01T00:00:00Z', labels: { app: `app-${i % 50}`, tier: i % 2 ? 'web' : 'db' } },
    spec: { nodeName: `node-${i % 100}`, containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '10m', memory: '16Mi' } }, env: [...Array(8).keys()].map((k) => ({ name: `VAR_${k}`, value: 'x'.repeat(40) })) }] },
    status: { phase: 'Running', podIP: `10.0.${(i >> 8) & 255}.${i & 255}`, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  }));
}

async function fill(store: Store, n: number): Promise<void> {
  const CONC = 64;
  let next = 0;
  await Promise.all([...Array(CONC).keys()].map(async () => {
    while (next < n) {
      const i = next++;
      const r = await store.create(`${PREFIX}ns-${i % 20}/pod-${i}`, pod(i));
      if (!r.succeeded) throw new Error('create failed');
    }
  }));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
function p99(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.99))]!;
}

interface Row { metric: string; backend: string; target: string; result: string; pass: boolean }
const rows: Row[] = [];
function record(metric: string, backend: string, target: number, value: number, unit: string, extra = ''): void {
  const row = { metric, backend, target: `≤ ${target} ${unit}`, result: `${value.toFixed(1)} ${unit}${extra}`, pass: value <= target };
  rows.push(row);
  process.stderr.write(`${backend} ${metric}: ${row.result}${row.pass ? '' : ' (MISSES target)'}\n`);
}

async function startupTime(store: Store): Promise<{ ms: number; cache: Cacher }> {
  const t = now();
  const cache = await Cacher.start({ store, prefix: PREFIX, codec });
  return { ms: now() - t, cache };
}

async function listTimes(cache: Cacher, backend: string, n: number): Promise<void> {
  const full: number[] = [];
  const selected: number[] = [];
  const pred = makePredicate({ labelSelector: 'tier=web', allowedFields: new Set(['metadata.name', 'metadata.namespace', 'spec.nodeName']) });
  for (let i = 0; i < 30; i++) {
    let t = now();
    const r = await cache.list(PREFIX, { read: { kind: 'consistent' } });
    full.push(now() - t);
    if (r.items.length !== n) throw new Error(`listed ${r.items.length}, want ${n}`);
    t = now();
    await cache.list(PREFIX, { read: { kind: 'consistent' }, predicate: pred });
    selected.push(now() - t);
  }
  record(`LIST ${n} from cache (consistent, median; p99 ${p99(full).toFixed(1)} ms)`, backend, 50, median(full), 'ms');
  // The serve-once payoff: the HTTP layer's JSON body from per-object encoded bytes (first time vs. warm).
  const encodeAll = async (): Promise<number> => {
    const t = now();
    const r = await cache.list(PREFIX, { read: { kind: 'consistent' } });
    const parts: Uint8Array[] = [];
    for (const o of r.items) {
      let b = o.encoded.get('application/json');
      if (!b) {
        b = Buffer.from(JSON.stringify(o.object));
        o.encoded.set('application/json', b);
      }
      parts.push(b);
    }
    Buffer.concat(parts);
    return now() - t;
  };
  const cold = await encodeAll();
  const warm: number[] = [];
  for (let i = 0; i < 10; i++) warm.push(await encodeAll());
  record(`LIST ${n} + JSON body, first encode (once per object revision)`, backend, 1000, cold, 'ms');
  record(`LIST ${n} + JSON body from encoded cache (median)`, backend, 50, median(warm), 'ms');
  record(`LIST ${n} with label selector tier=web (median)`, backend, 50, median(selected), 'ms');
}

async function fanOut(store: Store, cache: Cacher, backend: string): Promise<void> {
  let received = 0;
  let done: (() => void) | undefined;
  const sink = {
    onEvent(ev: ObjectEvent): boolean {
      // What the HTTP layer does: encode once per event and media type, reuse for every watcher.
      let bytes = ev.encoded.get('application/json');
      if (!bytes) {
        bytes = Buffer.from(`${JSON.stringify({ type: ev.type, object: ev.object?.object })}\n`);
        ev.encoded.set('application/json', bytes);
      }
      if (++received === WATCHERS) done?.();
      return true;
    },
    onClose(): void {},
  };
  const rev = await cache.currentRevision();
  const handles = [...Array(WATCHERS).keys()].map(() => cache.watch(PREFIX, { fromRevision: rev }, sink));
  while (cache.stats.watchers < WATCHERS) await new Promise((r) => setTimeout(r, 5));
  const times: number[] = [];
  for (let i = 0; i < (QUICK ? 5 : 30); i++) {
    received = 0;
    const all = new Promise<void>((r) => (done = r));
    const t = now();
    const w = await store.create(`${PREFIX}fanout/f-${i}`, pod(1_000_000 + i));
    if (!w.succeeded) throw new Error('create failed');
    await all;
    times.push(now() - t);
  }
  for (const h of handles) h.dispose();
  record(`one change → ${WATCHERS} watchers (write → last sink, median; p99 ${p99(times).toFixed(1)} ms)`, backend, 50, median(times), 'ms');
}

async function runBackend(backend: string, open: () => Promise<{ store: Store; cleanup: () => Promise<void> }>): Promise<void> {
  for (const n of [SMALL, LARGE]) {
    const { store, cleanup } = await open();
    try {
      await fill(store, n);
      const { ms, cache } = await startupTime(store);
      record(`startup: load ${n} objects`, backend, n === SMALL ? 1000 : 5000, ms, 'ms');
      if (n === SMALL) {
        await listTimes(cache, backend, n);
        await fanOut(store, cache, backend);
      }
      await cache.stop();
    } finally {
      await cleanup();
    }
  }
}

async function main(): Promise<void> {
  await runBackend('memory', async () => {
    const store = new MemoryStore();
    return { store, cleanup: () => store.close() };
  });
  let sqlite: typeof import('../src/storage/sqlite/sqlite-store.ts') | undefined;
  try {
    sqlite = await import('../src/storage/sqlite/sqlite-store.ts');
  } catch (err) {
    process.stderr.write(`sqlite store unavailable, skipped: ${err instanceof Error ? err.message : String(err)}\n`);
  }
  if (sqlite) {
    const open = sqlite.openSqliteStore;
    await runBackend('sqlite', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'keelson-bench-cache-'));
      const store = await open({ path: join(dir, 'db.sqlite') });
      return { store, cleanup: async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); } };
    });
  }
  const lines = ['## Watch cache', '', '| metric | backend | target | result | meets |', '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.metric} | ${r.backend} | ${r.target} | ${r.result} | ${r.pass ? 'yes' : 'no'} |`)];
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
