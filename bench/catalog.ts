/**
 * Issue 4's targets: catalog load + OpenAPI generation at startup ≤ 150 ms, and validation + defaulting of a typical
 * Deployment ≤ 50 µs.
 *
 * - Catalog and OpenAPI are measured in a fresh child process (cold caches, modules already imported). At startup
 *   the server builds only the catalog; OpenAPI documents are generated on first request (or by the endpoint's
 *   warm-up after start) and cached by hash. So: the catalog build (the startup cost), then the cold generation of
 *   the `/openapi/v3` document of core/v1 (the largest one kubectl fetches) and of the whole `/openapi/v2`.
 *   Physical baseline: parsing kube-apiserver's own v2 document (the swagger.json fixture, read from disk
 *   beforehand) — what serving a pre-generated document costs. The fixture is kube's document without its prose
 *   (0.8 MB instead of 3.4 MB), so this baseline is smaller than figures measured on the full document.
 * - Validation + defaulting runs the Deployment strategy's `defaults` and `validate` (kube's apps validation and
 *   object meta) on a fresh copy of a typical Deployment each time. Baseline: the `structuredClone` that makes the
 *   copy, which every write pays anyway.
 * Run: `node --import tsx bench/catalog.ts`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { builtinCatalog } from '../src/registry/resources/groups/index.ts';
import type { KObject } from '../src/machinery/objects.ts';
import { swaggerV2, v3Document } from '../src/endpoints/openapi/documents.ts';
import { createProtobufSchemaSource } from '../src/endpoints/openapi/protobuf-source.ts';
import { kubeReference } from '../test/support/kube-reference.ts';

const REF_SWAGGER = kubeReference('openapi/swagger.json');
const OPTS = { patchContentTypes: ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'] };

function ms(from: bigint): number {
  return Number(process.hrtime.bigint() - from) / 1e6;
}

/** Child mode: one cold measurement, printed as JSON. */
function coldRun(): void {
  const refText = readFileSync(REF_SWAGGER, 'utf8');
  let t = process.hrtime.bigint();
  const catalog = builtinCatalog();
  const catalogMs = ms(t);
  const schemas = createProtobufSchemaSource();
  t = process.hrtime.bigint();
  const v3Bytes = JSON.stringify(v3Document(catalog, 'api/v1', { ...OPTS, schemas }) ?? {}).length;
  const v3Ms = ms(t);
  t = process.hrtime.bigint();
  const v2 = JSON.stringify(swaggerV2(catalog, { ...OPTS, schemas }));
  const v2Ms = ms(t);
  t = process.hrtime.bigint();
  JSON.parse(refText);
  const baselineMs = ms(t);
  process.stdout.write(JSON.stringify({ catalogMs, v3Ms, v2Ms, baselineMs, v2Bytes: v2.length, v3Bytes }));
}

const DEPLOYMENT: KObject = {
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web', tier: 'frontend' }, annotations: { 'example.com/owner': 'team-a' } },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web', tier: 'frontend' } },
      spec: {
        containers: [{
          name: 'web', image: 'nginx:1.27',
          ports: [{ containerPort: 80, name: 'http' }],
          env: [{ name: 'MODE', value: 'prod' }, { name: 'LOG', value: 'info' }],
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
          readinessProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 5 },
          volumeMounts: [{ name: 'cfg', mountPath: '/etc/web' }],
        }],
        volumes: [{ name: 'cfg', configMap: { name: 'web-config' } }],
      },
    },
  },
};

function perCallMicros(n: number, f: () => void): number {
  for (let i = 0; i < 2_000; i++) f();
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f();
  return Number(process.hrtime.bigint() - t) / 1e3 / n;
}

async function main(): Promise<void> {
  if (process.argv.includes('--child')) return coldRun();
  const runs = [1, 2, 3].map(() => JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child'], { encoding: 'utf8' })) as Record<string, number>);
  const med = (k: string) => runs.map((r) => r[k]!).sort((a, b) => a - b)[1]!;
  const def = builtinCatalog().lookup('apps', 'v1', 'deployments')!;
  const s = def.strategy!;
  const ctx = { dryRun: false, namespace: 'default' };
  const N = 20_000;
  const baseline = perCallMicros(N, () => { structuredClone(DEPLOYMENT); });
  let errors = 0;
  const full = perCallMicros(N, () => {
    const o = structuredClone(DEPLOYMENT);
    s.defaults?.(o);
    errors += (s.validate?.(o, ctx) ?? []).length;
  });
  if (errors) throw new Error(`the typical Deployment did not validate (${errors} errors)`);
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(', ')}`);
  console.log(`startup: catalog load ${med('catalogMs').toFixed(1)} ms (target ≤ 150 ms with OpenAPI, which is generated lazily)`);
  console.log(`first request: /openapi/v3/api/v1 ${med('v3Ms').toFixed(1)} ms (${(med('v3Bytes') / 1e6).toFixed(2)} MB), /openapi/v2 ${med('v2Ms').toFixed(1)} ms (${(med('v2Bytes') / 1e6).toFixed(2)} MB); baseline JSON.parse of kube's v2 document without prose ${med('baselineMs').toFixed(1)} ms (v2 ratio ${(med('v2Ms') / med('baselineMs')).toFixed(1)})`);
  console.log(`Deployment defaults + validation ${(full - baseline).toFixed(1)} µs per object (target ≤ 50 µs); baseline structuredClone ${baseline.toFixed(1)} µs (with the copy: ${full.toFixed(1)} µs)`);
}

await main();
