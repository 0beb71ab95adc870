/**
 * `node --import tsx bench/crd.ts`: CustomResourceDefinition targets of issue 7, against an in-process server
 * (memory store) over HTTPS on 127.0.0.1:
 *   - latency from the CRD's POST until it is Established and its resource answers a LIST (median and max of
 *     20 CRDs created one after another);
 *   - creating 100 CRDs (20 at a time) until every one is Established and served.
 * Polling is a tight request loop (no sleeps), so the figures include one request round trip of slack.
 * Prints a markdown table; `BENCH_QUICK=1` shrinks the counts (smoke run).
 */
import os from 'node:os';
import { startTestServer, type TestServer } from '../test/support/server.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const SINGLE = QUICK ? 5 : 20;
const MANY = QUICK ? 20 : 100;

function crd(i: number, prefix: string): Record<string, unknown> {
  const plural = `${prefix}${i}s`;
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.bench.example.com` },
    spec: {
      group: 'bench.example.com', scope: 'Namespaced', names: { plural, singular: `${prefix}${i}`, kind: `${prefix[0]!.toUpperCase()}${prefix.slice(1)}${i}` },
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer', default: 1 } } } } } },
        additionalPrinterColumns: [{ name: 'A', type: 'string', jsonPath: '.spec.a' }],
      }],
    },
  };
}

async function establishedAndServed(srv: TestServer, plural: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  let served = false;
  for (;;) {
    if (!served) served = (await srv.request('GET', `/apis/bench.example.com/v1/namespaces/default/${plural}?limit=1`)).status === 200;
    if (served) {
      const c = (await srv.request('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${plural}.bench.example.com`)).json();
      if ((c.status?.conditions ?? []).some((x: { type: string; status: string }) => x.type === 'Established' && x.status === 'True')) return;
    }
    if (Date.now() > deadline) throw new Error(`${plural} not established and served within 30 s`);
  }
}

async function main(): Promise<void> {
  const srv = await startTestServer({ authorizationMode: ['AlwaysAllow'] });
  const rows: string[] = [];
  try {
    const lat: number[] = [];
    for (let i = 0; i < SINGLE; i++) {
      const t0 = performance.now();
      const r = await srv.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd(i, 'single') });
      if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text}`);
      await establishedAndServed(srv, `single${i}s`);
      lat.push(performance.now() - t0);
    }
    lat.sort((a, b) => a - b);
    const median = lat[Math.floor(lat.length / 2)]!;
    const max = lat[lat.length - 1]!;
    rows.push(`| CRD created → Established and served (median of ${SINGLE}; max) | ≤ 100 ms | ${median.toFixed(1)} ms; max ${max.toFixed(1)} ms | ${median <= 100 ? 'yes' : 'no'} |`);

    const t0 = performance.now();
    const ids = Array.from({ length: MANY }, (_, i) => i);
    for (let k = 0; k < ids.length; k += 20) {
      await Promise.all(ids.slice(k, k + 20).map(async (i) => {
        const r = await srv.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd(i, 'many') });
        if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text}`);
      }));
    }
    for (const i of ids) await establishedAndServed(srv, `many${i}s`);
    const total = performance.now() - t0;
    rows.push(`| ${MANY} CRDs created (20 at a time) until all Established and served | ≤ 5 s | ${(total / 1000).toFixed(2)} s | ${total <= 5000 ? 'yes' : 'no'} |`);
  } finally {
    await srv.stop();
  }
  process.stdout.write(`Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}\n\n| metric | target | result | meets |\n|---|---|---|---|\n${rows.join('\n')}\n`);
}

await main();
