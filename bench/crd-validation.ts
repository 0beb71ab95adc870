/**
 * Custom resource validation cost (`node --import tsx bench/crd-validation.ts`): one create-time validation of
 * a custom resource whose schema carries 10 CEL rules (`x-kubernetes-validations` at the root, on spec, on list
 * items and map values), through `buildCustomResourceVersion(...).validate` — OpenAPI value validation, list
 * types, embedded resources and the CEL rules — and the CEL rules alone, plus an update (transition rules with
 * oldSelf, ratcheting). Every call gets a freshly decoded object, as a request does (CEL caches conversions per
 * object). Target: ≤ 200 µs per validation (CPU time per call). Median of 5 runs; prints a markdown table for BENCHMARKS.md.
 * `BENCH_QUICK=1` shrinks N for a smoke run.
 */
import type { KObject } from '../src/machinery/objects.ts';
import { buildCustomResourceVersion } from '../src/apiextensions/schema/index.ts';
import { compileRules } from '../src/apiextensions/cel-rules/index.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const N = QUICK ? 500 : 5_000;
const RUNS = 5;

const crd: KObject = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
  metadata: { name: 'databases.bench.example.com', generation: 1 },
  spec: {
    group: 'bench.example.com', scope: 'Namespaced',
    names: { plural: 'databases', singular: 'database', kind: 'Database', listKind: 'DatabaseList' },
    versions: [{
      name: 'v1', served: true, storage: true, subresources: { status: {} },
      schema: { openAPIV3Schema: {
        type: 'object',
        'x-kubernetes-validations': [{ rule: "self.metadata.name.size() <= 63", message: 'name too long' }],
        properties: {
          spec: {
            type: 'object', required: ['engine', 'replicas'],
            'x-kubernetes-validations': [
              { rule: 'self.minReplicas <= self.replicas', message: 'replicas below minReplicas' },
              { rule: 'self.replicas <= self.maxReplicas', messageExpression: "'replicas above ' + string(self.maxReplicas)" },
              { rule: "self.engine != 'mysql' || self.version.startsWith('8.')", message: 'mysql needs version 8' },
              { rule: "!has(self.backup) || self.backup.schedule != ''", message: 'backup needs a schedule' },
              { rule: 'self.users.all(u, u.name != "root")', message: 'no root user' },
              { rule: 'self.engine == oldSelf.engine', message: 'engine is immutable' },
            ],
            properties: {
              engine: { type: 'string', enum: ['postgres', 'mysql'] },
              version: { type: 'string', maxLength: 16, pattern: '^[0-9]+(\\.[0-9]+)*$' },
              replicas: { type: 'integer', minimum: 0, maximum: 100 },
              minReplicas: { type: 'integer', default: 1 },
              maxReplicas: { type: 'integer', default: 10 },
              storage: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.endsWith('Gi') || self.endsWith('Ti')", message: 'storage in Gi or Ti' }] },
              backup: { type: 'object', properties: { schedule: { type: 'string', maxLength: 64 }, retain: { type: 'integer' } } },
              users: {
                type: 'array', maxItems: 20, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
                items: {
                  type: 'object', required: ['name'],
                  'x-kubernetes-validations': [{ rule: 'self.name.matches("^[a-z][a-z0-9_]*$")', message: 'bad user name' }],
                  properties: { name: { type: 'string', maxLength: 32 }, roles: { type: 'array', maxItems: 8, items: { type: 'string', maxLength: 32 } } },
                },
              },
              params: {
                type: 'object', maxProperties: 32,
                additionalProperties: { type: 'string', maxLength: 256, 'x-kubernetes-validations': [{ rule: 'self.size() > 0', message: 'empty parameter' }] },
              },
            },
          },
          status: { type: 'object', properties: { phase: { type: 'string' } } },
        },
      } },
    }],
  },
};

const text = JSON.stringify({
  apiVersion: 'bench.example.com/v1', kind: 'Database',
  metadata: { name: 'orders', namespace: 'shop', uid: '0b1c', resourceVersion: '12', labels: { app: 'shop' } },
  spec: {
    engine: 'postgres', version: '16.2', replicas: 3, minReplicas: 1, maxReplicas: 5, storage: '100Gi',
    backup: { schedule: '0 3 * * *', retain: 7 },
    users: [{ name: 'app', roles: ['read', 'write'] }, { name: 'report', roles: ['read'] }, { name: 'admin', roles: ['all'] }],
    params: { max_connections: '200', shared_buffers: '1GB', work_mem: '4MB' },
  },
});

const version = buildCustomResourceVersion(crd, 'v1');
const rules = compileRules(version.structural!, '').validator!;

function fresh(n: number): KObject[] {
  return Array.from({ length: n }, () => JSON.parse(text) as KObject);
}

/**
 * Median over RUNS of the CPU time (user + system, process.cpuUsage) per call: on a shared, loaded machine
 * wall-clock time mostly measures waiting for a core; CPU time measures the work. Wall-clock is kept too.
 */
function measure(fn: (o: KObject, old: KObject) => unknown): { cpu: number; wall: number } {
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const objs = fresh(N);
    const olds = fresh(N);
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < N; i++) fn(objs[i]!, olds[i]!);
    wall.push(Number(process.hrtime.bigint() - t0) / 1000 / N);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / N);
  }
  const mid = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(RUNS / 2)]!;
  return { cpu: mid(cpu), wall: mid(wall) };
}

// Sanity: the object is valid, and an invalid one is caught (so the figures measure real work).
const errs = version.validate(JSON.parse(text) as KObject, undefined);
if (errs.length) throw new Error(`bench object should be valid: ${errs.map(String).join('; ')}`);
const bad = JSON.parse(text) as KObject;
(bad['spec'] as Record<string, unknown>)['replicas'] = 50;
if (!version.validate(bad, undefined).some((e) => e.detail === 'replicas above 5')) throw new Error('rule did not fire');

// Warm-up.
for (const o of fresh(200)) version.validate(o, undefined);

const create = measure((o) => version.validate(o, undefined));
const celOnly = measure((o) => rules.validate(o, undefined));
const update = measure((o, old) => version.validate(o, old));
const updateChanged = measure((o, old) => {
  (o['spec'] as Record<string, unknown>)['replicas'] = 4;
  return version.validate(o, old);
});

const row = (name: string, m: { cpu: number; wall: number }) =>
  `| ${name} | ${m.cpu.toFixed(1)} µs | ${m.wall.toFixed(1)} µs | ${m.cpu <= 200 ? 'yes' : 'no'} |`;
console.log(`Node ${process.version}, N=${N} per run, median of ${RUNS} runs, load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)}`);
console.log('| validation of a custom resource with 10 CEL rules | CPU per call | wall per call | meets ≤ 200 µs (CPU) |');
console.log('|---|---|---|---|');
console.log(row('create: schema + list types + CEL (`validate`)', create));
console.log(row('create: the 10 CEL rules alone', celOnly));
console.log(row('update, unchanged object (ratcheting skips)', update));
console.log(row('update, one field changed (transition rule runs)', updateChanged));
