/**
 * Issue 12's figures for objects in kube's JSON shape:
 * - encoding a 10k-object list (ConfigMaps, Pods) as JSON the way a LIST answer is built (src/endpoints/negotiation/
 *   render.ts `jsonListChunks`: items without kind/apiVersion from the per-revision encodings), first encode
 *   (nothing cached yet, as after a write) and from the cache; baseline: `JSON.stringify` of the same list value
 *   (items as the canonical objects, type fields removed) in the same run;
 * - the canonicalizer's cost per write (src/api/canonical.ts through src/registry/codec.ts `canonicalObject`) for a
 *   ConfigMap and a Pod sent with keys out of order and non-canonical quantities; baseline: `JSON.stringify` of the
 *   same object, which every write pays anyway.
 * - what canonicalizing on every read would add to decoding a stored Pod (reads do not canonicalize; this row is
 *   why); baseline: its JSON.parse.
 * Medians of repeated runs. Run: `node --import tsx bench/canonical.ts` (also part of `npm run bench`).
 */
import { loadavg } from 'node:os';
import '../src/api/protobuf/messages/index.ts';
import type { KObject } from '../src/machinery/objects.ts';
import type { CachedObject } from '../src/storage/cacher/types.ts';
import { canonicalObject } from '../src/registry/codec.ts';
import { jsonListChunks } from '../src/endpoints/negotiation/render.ts';
import { withoutTypeMeta } from '../src/endpoints/negotiation/encode.ts';

const N = 10_000;

function configMap(i: number): KObject {
  return {
    data: { 'z.conf': `value-${i}`, 'a.conf': 'x'.repeat(200), [`key-${i % 7}`]: 'v' },
    metadata: { labels: { tier: 'web', app: `app-${i % 10}` }, uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`, namespace: 'bench', name: `cm-${i}`, creationTimestamp: '2026-01-01T00:00:00Z' },
    apiVersion: 'v1', kind: 'ConfigMap',
  } as KObject;
}

function pod(i: number): KObject {
  return {
    status: { qosClass: 'Burstable', phase: 'Pending' },
    spec: {
      schedulerName: 'default-scheduler', securityContext: {}, dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, restartPolicy: 'Always',
      containers: [{
        imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', terminationMessagePath: '/dev/termination-log',
        resources: { requests: { memory: '0.0625Gi', cpu: '0.1' }, limits: { memory: '128Mi', cpu: '1000m' } },
        ports: [{ protocol: 'TCP', containerPort: 8080, name: 'http' }], env: [{ value: String(i), name: 'INDEX' }],
        readinessProbe: { periodSeconds: 10, httpGet: { scheme: 'HTTP', port: 8080, path: '/healthz' } },
        image: 'nginx:1.27', name: 'web',
      }],
      volumes: [{ name: 'data', emptyDir: { sizeLimit: '1Gi' } }],
    },
    metadata: { labels: { tier: 'web', app: `app-${i % 10}` }, uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`, namespace: 'bench', name: `pod-${i}`, creationTimestamp: '2026-01-01T00:00:00Z' },
    apiVersion: 'v1', kind: 'Pod',
  } as KObject;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function timeMs(fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

export interface CanonicalBenchRow { name: string; value: string; baseline: string; ratio: string }

function cached(obj: KObject, i: number): CachedObject {
  return { key: `/registry/x/bench/${i}`, kv: { key: `/registry/x/bench/${i}`, value: new Uint8Array(), createRevision: i + 1, modRevision: i + 1, version: 1 } as CachedObject['kv'], object: obj, attrs: { name: '', namespace: '', labels: {}, fields: {} }, encoded: new Map() };
}

function listRows(label: string, make: (i: number) => KObject, listKind: string): CanonicalBenchRow[] {
  const objects = Array.from({ length: N }, (_, i) => canonicalObject(make(i), String(i + 1)));
  const head = { kind: listKind, apiVersion: 'v1', metadata: { resourceVersion: String(N) } };
  const first: number[] = [];
  const whole: number[] = [];
  const again: number[] = [];
  const base: number[] = [];
  let bytes = 0;
  for (let r = 0; r < 7; r++) {
    const items = objects.map(cached);
    first.push(timeMs(() => { bytes = jsonListChunks(head, items, true).reduce((n, c) => n + c.byteLength, 0); }));
    again.push(timeMs(() => { jsonListChunks(head, items, true); }));
    // The same first encode with whole-object encodings (items keeping kind/apiVersion, as custom resource
    // lists and the code before typed lists did): what cutting off the type fields costs.
    const fresh = objects.map(cached);
    whole.push(timeMs(() => { jsonListChunks(head, fresh, false); }));
    base.push(timeMs(() => { JSON.stringify({ ...head, items: objects.map(withoutTypeMeta) }); }));
  }
  const b = median(base);
  return [
    { name: `LIST of ${N} ${label} as JSON, first encode (${(bytes / 1e6).toFixed(1)} MB)`, value: `${median(first).toFixed(1)} ms`, baseline: `${b.toFixed(1)} ms`, ratio: (median(first) / b).toFixed(2) },
    { name: `LIST of ${N} ${label} as JSON, first encode, items keeping kind/apiVersion`, value: `${median(whole).toFixed(1)} ms`, baseline: `${b.toFixed(1)} ms`, ratio: (median(whole) / b).toFixed(2) },
    { name: `LIST of ${N} ${label} as JSON, from the per-revision encodings`, value: `${median(again).toFixed(1)} ms`, baseline: `${b.toFixed(1)} ms`, ratio: (median(again) / b).toFixed(2) },
  ];
}

function writeRow(label: string, make: (i: number) => KObject): CanonicalBenchRow {
  const inputs = Array.from({ length: 2000 }, (_, i) => make(i));
  const per: number[] = [];
  const base: number[] = [];
  for (let r = 0; r < 9; r++) {
    per.push(timeMs(() => { for (const o of inputs) canonicalObject(o); }) * 1000 / inputs.length);
    base.push(timeMs(() => { for (const o of inputs) JSON.stringify(o); }) * 1000 / inputs.length);
  }
  return { name: `canonicalize one ${label} (per write)`, value: `${median(per).toFixed(1)} µs`, baseline: `${median(base).toFixed(1)} µs`, ratio: (median(per) / median(base)).toFixed(2) };
}

/** The read-path question: what canonicalizing every decoded object would add to decoding it. */
function readRow(label: string, make: (i: number) => KObject): CanonicalBenchRow {
  const texts = Array.from({ length: 2000 }, (_, i) => JSON.stringify(canonicalObject(make(i))));
  const withCanon: number[] = [];
  const parseOnly: number[] = [];
  for (let r = 0; r < 9; r++) {
    parseOnly.push(timeMs(() => { for (const t of texts) JSON.parse(t); }) * 1000 / texts.length);
    withCanon.push(timeMs(() => { for (const t of texts) canonicalObject(JSON.parse(t) as KObject, '1'); }) * 1000 / texts.length);
  }
  return { name: `decode one stored ${label} and canonicalize it (not done: reads only parse)`, value: `${median(withCanon).toFixed(1)} µs`, baseline: `${median(parseOnly).toFixed(1)} µs (JSON.parse)`, ratio: (median(withCanon) / median(parseOnly)).toFixed(2) };
}

export function runCanonicalBench(): CanonicalBenchRow[] {
  // Warm-up: plans and JIT.
  for (let i = 0; i < 2000; i++) { canonicalObject(configMap(i)); canonicalObject(pod(i)); }
  return [
    ...listRows('ConfigMaps', configMap, 'ConfigMapList'),
    ...listRows('Pods', pod, 'PodList'),
    writeRow('ConfigMap', configMap),
    writeRow('Pod', pod),
    readRow('Pod', pod),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const load = loadavg().map((x) => x.toFixed(1)).join(', ');
  const rows = runCanonicalBench();
  console.log(`Node ${process.version}, load average at start ${load}`);
  console.log('| metric | result | baseline (JSON.stringify, same run) | ratio |');
  console.log('|---|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.name} | ${r.value} | ${r.baseline} | ${r.ratio} |`);
}
