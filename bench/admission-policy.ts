/**
 * Issue 13 §4's ValidatingAdmissionPolicy target: with 100 bindings whose policies have 3 resource rules each, the
 * cost a matched create pays ≤ 200 µs. Two parts:
 *
 * 1. On a real server (keelson child process, memory store, default admission plugins): server CPU per ConfigMap
 *    create read from /proc, first with no policies (the baseline), then with 100 policies + 100 bindings that all
 *    match the create (1 validation each, then 3 validations each with a messageExpression), then with the
 *    bindings deleted (the baseline again). The added cost is the figure against the target.
 * 2. In-process, the plugin's dispatch alone (what `validate` runs once its hooks are cached), to say where the
 *    cost goes: all 100 match; one of 100 matches; 3 validations each; one policy with 100 param bindings.
 *
 * Run: `node --import tsx bench/admission-policy.ts` (`BENCH_QUICK=1` for a smoke run). The server runs from
 * dist/ when the bundle is fresh (`npm run build`), from the TypeScript sources otherwise (slower; said in the
 * output).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readKubeconfig, REPO_ROOT, startKeelson } from '../test/acceptance/keelson-process.ts';
import { client, median, serverCpuPerCall, type Client } from './http/server-cpu.ts';
import { builtinCatalog } from '../src/registry/resources/groups/index.ts';
import { ResourceMapper } from '../src/admission/policy/source.ts';
import type { KObject } from '../src/machinery/objects.ts';
import type { AdmissionAttributes } from '../src/registry/admission.ts';
import { compileValidatingPolicy, dispatchValidating, type CompiledValidatingPolicy, type DispatchDeps } from '../src/admission/policy/validating.ts';
import type { Namespaces, ParamSource, PolicyHook } from '../src/admission/policy/source.ts';
import type { Informer } from '../src/client/informer.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const N = QUICK ? 200 : 2_000;
const RUNS = 5;
/** Server part: creates per round, rounds per phase. */
const SERVER_N = QUICK ? 200 : 1_000;
const SERVER_ROUNDS = QUICK ? 1 : 3;

const OTHER = ['secrets', 'services', 'pods', 'endpoints', 'events', 'limitranges', 'podtemplates', 'resourcequotas', 'serviceaccounts'];

function policy(i: number, matches: boolean, validations: number, params = false): KObject {
  const resources = matches ? ['configmaps', OTHER[i % 9]!, OTHER[(i + 1) % 9]!] : [OTHER[i % 9]!, OTHER[(i + 1) % 9]!, OTHER[(i + 2) % 9]!];
  const v = [
    { expression: params ? "!has(object.data) || !(params.data.forbidden in object.data)" : `!has(object.data) || !('forbidden-${i}' in object.data)`, message: 'forbidden key' },
    { expression: 'object.metadata.name.size() <= 253', messageExpression: "'name too long: ' + object.metadata.name" },
    { expression: "!has(object.metadata.labels) || !('blocked' in object.metadata.labels)", reason: 'Forbidden' },
  ].slice(0, validations);
  return {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: `p-${i}`, uid: `u-${i}`, resourceVersion: '1' },
    spec: {
      failurePolicy: 'Fail',
      ...(params ? { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } } : {}),
      matchConstraints: {
        matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {},
        resourceRules: [
          { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: [resources[0]] },
          { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: [resources[1]] },
          { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: [resources[2]] },
        ],
      },
      validations: v,
    },
  };
}

function binding(i: number, policyName: string, params = false): KObject {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: `b-${i}` },
    spec: { policyName, validationActions: ['Deny'], ...(params ? { paramRef: { name: `limits-${i}`, namespace: 'bench', parameterNotFoundAction: 'Deny' } } : {}) },
  };
}

function attrs(i: number): AdmissionAttributes {
  return {
    operation: 'CREATE', kind: { group: '', version: 'v1', kind: 'ConfigMap' }, resource: { group: '', version: 'v1', resource: 'configmaps' }, subresource: '',
    requestKind: { group: '', version: 'v1', kind: 'ConfigMap' }, requestResource: { group: '', version: 'v1', resource: 'configmaps' }, requestSubResource: '',
    name: `cm-${i}`, namespace: 'bench',
    // A fresh object per create, as a decoded request body would be.
    object: JSON.parse(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-${i}","namespace":"bench","labels":{"app":"web"}},"data":{"a":"1","b":"2","c":"3"}}`) as KObject,
    oldObject: undefined, options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' }, dryRun: false,
    user: { username: 'admin', groups: ['system:masters', 'system:authenticated'] }, warnings: [], auditAnnotations: {}, reinvocation: { requested: false, running: false },
  };
}

const catalog = builtinCatalog();
const mapper = new ResourceMapper(() => catalog.all());
const NS: KObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench', labels: { 'kubernetes.io/metadata.name': 'bench' } }, spec: {}, status: { phase: 'Active' } };
const deps: DispatchDeps = {
  // Equivalents and kinds from the built-in catalog, as the plugin has them (matchPolicy Equivalent scans it).
  match: { namespaceLabels: async () => NS.metadata.labels!, equivalents: (r, sub) => mapper.equivalents(r, sub), kindFor: (r, sub) => mapper.kindFor(r, sub) },
  namespaces: { cached: () => NS, get: async () => NS } as unknown as Namespaces,
  authorizer: () => ({ name: 'allow', authorize: () => ({ kind: 'allow' }) }),
};

/** A ParamSource over a fixed set of ConfigMaps (what the plugin's informer holds). */
function paramSource(items: KObject[]): ParamSource {
  const byKey = new Map(items.map((o) => [`${o.metadata.namespace}/${o.metadata.name}`, o]));
  const informer = { hasSynced: () => true, get: (ns: string, n: string) => byKey.get(`${ns}/${n}`), list: () => items } as unknown as Informer;
  return { kind: { group: '', version: 'v1', kind: 'ConfigMap' }, namespaced: true, informer, started: Promise.resolve() };
}

function scenario(name: string, hooks: PolicyHook<CompiledValidatingPolicy>[]) {
  return { name, hooks };
}

const allScenarios = [
  scenario('100 bindings, all match (1 validation each)', Array.from({ length: 100 }, (_, i) => {
    const p = policy(i, true, 1);
    return { policy: p, bindings: [binding(i, `p-${i}`)], compiled: compileValidatingPolicy(p) };
  })),
  scenario('100 bindings, 1 matches', Array.from({ length: 100 }, (_, i) => {
    const p = policy(i, i === 50, 3);
    return { policy: p, bindings: [binding(i, `p-${i}`)], compiled: compileValidatingPolicy(p) };
  })),
  scenario('100 bindings, all match (3 validations each)', Array.from({ length: 100 }, (_, i) => {
    const p = policy(i, true, 3);
    return { policy: p, bindings: [binding(i, `p-${i}`)], compiled: compileValidatingPolicy(p) };
  })),
  (() => {
    const p = policy(0, true, 1, true);
    const params = Array.from({ length: 100 }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `limits-${i}`, namespace: 'bench' }, data: { forbidden: `k${i}` } }) as KObject);
    return scenario('1 policy, 100 bindings with ConfigMap params', [{ policy: p, bindings: Array.from({ length: 100 }, (_, i) => binding(i, 'p-0', true)), compiled: compileValidatingPolicy(p), params: paramSource(params) }]);
  })(),
];

async function measure(hooks: PolicyHook<CompiledValidatingPolicy>[]): Promise<number> {
  for (let i = 0; i < Math.min(N, 300); i++) await dispatchValidating(attrs(i), hooks, deps);
  const per: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const inputs = Array.from({ length: N }, (_, i) => attrs(i));
    const c0 = process.cpuUsage();
    for (const a of inputs) await dispatchValidating(a, hooks, deps);
    const c = process.cpuUsage(c0);
    per.push((c.user + c.system) / N);
  }
  return median(per);
}

// ---------------------------------------------------------------------------------------------------------
// Part 1: a real server.

const AR = '/apis/admissionregistration.k8s.io/v1';

/** True when bin/keelson.mjs will run the bundle (dist/ at least as new as every source file). */
function runsFromDist(): boolean {
  const newest = (dir: string): number => readdirSync(dir, { withFileTypes: true }).reduce((m, e) => {
    const p = join(dir, e.name);
    return Math.max(m, e.isDirectory() ? newest(p) : e.name.endsWith('.test.ts') ? 0 : statSync(p).mtimeMs);
  }, 0);
  const bundle = join(REPO_ROOT, 'dist/keelson.cjs');
  return existsSync(bundle) && statSync(bundle).mtimeMs >= newest(join(REPO_ROOT, 'src'));
}

/** A server-side policy: 3 resource rules (configmaps among them), `validations` validations, its own forbidden key. */
function serverPolicy(prefix: string, i: number, validations: number): KObject {
  const p = policy(i, true, validations);
  const v = (p['spec'] as { validations: Array<Record<string, unknown>> }).validations;
  v[0]!['expression'] = `!has(object.data) || !('${prefix}-forbidden-${i}' in object.data)`;
  return { ...p, metadata: { name: `${prefix}-${i}` } };
}

let created = 0;
const cmBody = (data: Record<string, string> = { a: '1', b: '2', c: '3' }) =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${created++}`, namespace: 'bench', labels: { app: 'web' } }, data });

async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A dry-run create carrying `key`: the status and message the server answers. */
async function probe(c: Client, key: string): Promise<{ status: number; message: string }> {
  const r = await c.call('POST', '/api/v1/namespaces/bench/configmaps?dryRun=All', cmBody({ [key]: 'x' }));
  return { status: r.status, message: r.status === 201 ? '' : String((JSON.parse(r.text) as { message?: string }).message ?? '') };
}

async function install(c: Client, prefix: string, validations: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const r = await c.call('POST', `${AR}/validatingadmissionpolicies`, serverPolicy(prefix, i, validations));
    if (r.status !== 201) throw new Error(`policy: ${r.status} ${r.text}`);
  }
  for (let i = 0; i < 100; i++) {
    const r = await c.call('POST', `${AR}/validatingadmissionpolicybindings`, { ...binding(i, `${prefix}-${i}`), metadata: { name: `${prefix}-${i}` } });
    if (r.status !== 201) throw new Error(`binding: ${r.status} ${r.text}`);
  }
  for (const i of [0, 99]) {
    await until(`${prefix}-${i} in force`, async () => (await probe(c, `${prefix}-forbidden-${i}`)).message.includes(`'${prefix}-${i}'`));
  }
}

async function uninstall(c: Client, prefix: string): Promise<void> {
  const r = await c.call('DELETE', `${AR}/validatingadmissionpolicybindings`);
  if (r.status !== 200) throw new Error(`deletecollection: ${r.status} ${r.text}`);
  await until('bindings gone', async () => (await probe(c, `${prefix}-forbidden-99`)).status === 201 && (await probe(c, `${prefix}-forbidden-0`)).status === 201);
}

interface ServerFigures { fromDist: boolean; base1: number; one: number; three: number; base2: number }

async function serverPart(): Promise<ServerFigures> {
  const fromDist = runsFromDist();
  const dir = mkdtempSync(join(tmpdir(), 'keelson-vap-bench-'));
  const proc = await startKeelson({ dataDir: dir, kubeconfig: join(dir, 'kc'), extraArgs: ['--storage=memory'] });
  const c = client(readKubeconfig(proc.kubeconfig));
  try {
    const ns = await c.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
    if (ns.status !== 201) throw new Error(`namespace: ${ns.status} ${ns.text}`);
    const phase = async () => {
      const per: number[] = [];
      for (let r = 0; r < SERVER_ROUNDS; r++) per.push(await serverCpuPerCall(proc.pid, SERVER_N, () => c.call('POST', '/api/v1/namespaces/bench/configmaps', cmBody())));
      return median(per);
    };
    const base1 = await phase();
    await install(c, 'one', 1);
    const one = await phase();
    await uninstall(c, 'one');
    await install(c, 'three', 3);
    const three = await phase();
    await uninstall(c, 'three');
    const base2 = await phase();
    return { fromDist, base1, one, three, base2 };
  } finally {
    c.close();
    await proc.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------

const load0 = loadavg();
const only = process.env.BENCH_ONLY;
if (only === undefined || only === 'server') {
  const f = await serverPart();
  const base = (f.base1 + f.base2) / 2;
  const row = (name: string, us: number) => `| ${name} | ${us.toFixed(0)} µs | +${(us - base).toFixed(0)} µs (×${(us / base).toFixed(2)}) | ${us - base <= 200 ? 'yes' : 'no'} |`;
  console.log(`Server: keelson child process (${f.fromDist ? 'dist bundle' : 'TypeScript sources via tsx: figures above the product\'s'}), memory store, ` +
    `server CPU per ConfigMap create, ${SERVER_N} sequential creates per round, median of ${SERVER_ROUNDS} rounds; load average ${load0.map((x) => x.toFixed(1)).join(', ')}`);
  console.log('');
  console.log('| server phase | CPU per create | added vs no policies | meets ≤ 200 µs added |');
  console.log('|---|---:|---:|---|');
  console.log(`| no policies (baseline, before / after) | ${f.base1.toFixed(0)} µs / ${f.base2.toFixed(0)} µs | – | – |`);
  console.log(row('100 policies × 3 resource rules, 100 bindings, all match, 1 validation each', f.one));
  console.log(row('100 policies × 3 resource rules, 100 bindings, all match, 3 validations each (1 messageExpression)', f.three));
  console.log('');
}
if (only !== 'server') {
  const scenarios = only === undefined ? allScenarios : [allScenarios[Number(only)]!];
  console.log(`In-process: the plugin's dispatch alone, N=${N} creates per run, median of ${RUNS} runs (CPU time of this process)`);
  console.log('');
  console.log('| dispatch scenario | CPU per create |');
  console.log('|---|---:|');
  for (const s of scenarios) console.log(`| ${s.name} | ${(await measure(s.hooks)).toFixed(1)} µs |`);
  console.log('');
}
console.log(`load average at the end: ${loadavg().map((x) => x.toFixed(1)).join(', ')}`);
