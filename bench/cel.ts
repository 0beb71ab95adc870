/**
 * Issue 7.4's CEL target: validating a custom resource with 10 `x-kubernetes-validations` rules ≤ 200 µs, rules
 * compiled once. Each validation gets a fresh object (decoded from JSON, as a request body would be), runs all
 * ten programs with kube's per-call cost limit and sums their runtime cost. The physical baseline is the same
 * ten checks written by hand in JavaScript over the same objects: the ratio says what CEL's safety costs.
 * Run: `node --import tsx bench/cel.ts` (`--per-rule` also prints each rule's time).
 */
import { loadavg } from 'node:os';
import { celTypeFromSchema, compileCel, PER_CALL_LIMIT, type CelSchema } from '../src/cel/index.ts';

const SCHEMA: CelSchema = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' }, kind: { type: 'string' },
    metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 63 } } },
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' }, maxReplicas: { type: 'integer' }, paused: { type: 'boolean' },
        image: { type: 'string', maxLength: 256 }, mode: { type: 'string', maxLength: 16 },
        ports: { type: 'array', maxItems: 16, items: { type: 'object', properties: { name: { type: 'string', maxLength: 15 }, port: { type: 'integer' } } } },
        env: { type: 'array', maxItems: 32, items: { type: 'object', properties: { name: { type: 'string', maxLength: 128 }, value: { type: 'string', maxLength: 256 } } } },
        resources: { type: 'object', properties: { cpu: { type: 'string', maxLength: 16 } } },
        labels: { type: 'object', maxProperties: 16, additionalProperties: { type: 'string', maxLength: 63 } },
      },
    },
  },
};

const RULES = [
  'self.spec.replicas <= self.spec.maxReplicas',
  "self.spec.image.startsWith('registry.example.com/')",
  'self.spec.ports.all(p, p.port > 0 && p.port < 65536)',
  'self.spec.ports.map(p, p.name).size() == self.spec.ports.size()',
  "self.metadata.name.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",
  "!has(self.spec.resources) || quantity(self.spec.resources.cpu).isLessThan(quantity('4'))",
  'self.spec.env.all(e, e.name.size() <= 64)',
  '!has(self.spec.paused) || !self.spec.paused || self.spec.replicas == 0',
  "self.spec.mode in ['fast', 'safe']",
  'self.spec.labels.all(k, k.size() < 64 && self.spec.labels[k].size() < 64)',
];

const OBJECT_JSON = JSON.stringify({
  apiVersion: 'example.com/v1', kind: 'App', metadata: { name: 'web-1' },
  spec: {
    replicas: 3, maxReplicas: 10, image: 'registry.example.com/web:1.2.3', mode: 'safe',
    ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }, { name: 'metrics', port: 9090 }],
    env: [{ name: 'LOG_LEVEL', value: 'info' }, { name: 'REGION', value: 'eu-west-1' }, { name: 'FEATURES', value: 'a,b,c' }],
    resources: { cpu: '500m' }, labels: { app: 'web', tier: 'frontend', team: 'payments' },
  },
});

type Obj = { metadata: { name: string }; spec: Record<string, unknown> & { ports: Array<{ name: string; port: number }>; env: Array<{ name: string }>; labels: Record<string, string> } };

/** The same checks in plain JavaScript (no cost accounting, no type adapter). */
function handWritten(o: Obj): boolean {
  const s = o.spec;
  const cpu = s.resources as { cpu: string } | undefined;
  return (s.replicas as number) <= (s.maxReplicas as number)
    && (s.image as string).startsWith('registry.example.com/')
    && s.ports.every((p) => p.port > 0 && p.port < 65536)
    && s.ports.map((p) => p.name).length === s.ports.length
    && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(o.metadata.name)
    && (!cpu || parseFloat(cpu.cpu) / (cpu.cpu.endsWith('m') ? 1000 : 1) < 4)
    && s.env.every((e) => e.name.length <= 64)
    && (s.paused === undefined || !s.paused || s.replicas === 0)
    && ['fast', 'safe'].includes(s.mode as string)
    && Object.entries(s.labels).every(([k, v]) => k.length < 64 && v.length < 64);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function measure(run: (o: Obj) => void, rounds: number, perRound: number): number {
  const perValidation: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const objs = Array.from({ length: perRound }, () => JSON.parse(OBJECT_JSON) as Obj);
    const t0 = process.hrtime.bigint();
    for (const o of objs) run(o);
    perValidation.push(Number(process.hrtime.bigint() - t0) / 1000 / perRound);
  }
  return median(perValidation);
}

function main(): void {
  const load0 = loadavg()[0]!;
  const { type, sizeHints } = celTypeFromSchema(SCHEMA, { name: 'self' });
  const t0 = process.hrtime.bigint();
  const programs = RULES.map((r) => compileCel(r, { profile: 'crd', variables: { self: type }, sizeHints }));
  const compileUs = Number(process.hrtime.bigint() - t0) / 1000;
  let cost = 0;
  const celValidate = (o: Obj): void => {
    cost = 0;
    for (const p of programs) {
      const r = p.evaluate({ self: o }, { costLimit: PER_CALL_LIMIT });
      if (r.value !== true) throw new Error(`rule failed: ${p.source}`);
      cost += r.cost;
    }
  };
  if (process.argv.includes('--per-rule')) {
    for (const p of programs) console.log(`${measure((o) => void p.evaluate({ self: o }, { costLimit: PER_CALL_LIMIT }), 9, 2000).toFixed(2)} µs  ${p.source}`);
  }
  // Warm up both paths so the JIT has settled.
  measure(celValidate, 5, 500);
  measure((o) => void handWritten(o), 5, 500);
  const celUs = measure(celValidate, 15, 2000);
  const jsUs = measure((o) => { if (!handWritten(o)) throw new Error('hand-written check failed'); }, 15, 2000);
  const estimated = programs.reduce((n, p) => n + p.estimatedCost.max, 0);
  const rows = [
    ['10 CEL rules per custom resource (compiled once), median', `${celUs.toFixed(1)} µs`, `${jsUs.toFixed(2)} µs`, (celUs / jsUs).toFixed(0) + '×', '≤ 200 µs', celUs <= 200 ? 'yes' : 'no'],
    ['compile 10 rules (first time, includes environment)', `${(compileUs / 1000).toFixed(1)} ms`, '', '', '', ''],
    ['runtime cost of one validation (kube units)', String(cost), '', '', `≤ ${PER_CALL_LIMIT} per rule`, 'yes'],
    ['estimated cost of the 10 rules (kube units)', String(estimated), '', '', '≤ 100,000,000 per CRD', estimated <= 100_000_000 ? 'yes' : 'no'],
  ];
  console.log(`Measured by \`node --import tsx bench/cel.ts\` on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, load average ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}.`);
  console.log('Baseline: the same ten checks hand-written in JavaScript over the same freshly decoded objects.\n');
  console.log('| measurement | value | baseline | ratio | target | meets |');
  console.log('|---|---:|---:|---:|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

main();
