/**
 * API Priority and Fairness (`node --import tsx bench/apf.ts`).
 * 1. Classification and admission cost per request: FlowController.decide() + finish() with kube's v1.33
 *    bootstrap configuration (13 FlowSchemas, 8 levels) over a mix of users and verbs, against a no-op
 *    baseline (the same loop calling a function that hands back a ready admission). Target: ≤ 10 µs added.
 *    Median of 5 runs of N requests after a warm-up.
 * 2. The overload scenario at full size (test/support/apf-overload.ts: 16 listers re-listing 20k ConfigMaps of
 *    1 KiB, a fenced flooder, exempt admin reads and probes timed throughout): p50/p99 of exempt traffic against
 *    the 1 s target, the flooder's 429 share, lists per lister, the server's event-loop delay and RSS, with the
 *    same server's idle figures measured first in the same run as the baseline.
 * `BENCH_QUICK=1` shrinks both for a smoke run; `BENCH_APF_OVERLOAD=0` runs only the first part. Prints markdown
 * rows for BENCHMARKS.md.
 */
import { loadavg } from 'node:os';
import type { KObject, UserInfo } from '../src/machinery/objects.ts';
import type { RequestInfo } from '../src/request/context.ts';
import { FlowController } from '../src/flowcontrol/controller.ts';
import type { Admission } from '../src/flowcontrol/queue-set.ts';
import { MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS, SUGGESTED_FLOW_SCHEMAS, SUGGESTED_PRIORITY_LEVELS } from '../src/flowcontrol/bootstrap.ts';
import { percentile, runOverload } from '../test/support/apf-overload.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const N = QUICK ? 20_000 : 200_000;

const info = (verb: string, resource: string, ns: string, o: Partial<RequestInfo> = {}): RequestInfo => ({
  isResourceRequest: true, path: `/api/v1/namespaces/${ns}/${resource}`, verb, apiPrefix: 'api', apiGroup: '', apiVersion: 'v1', namespace: ns, resource,
  subresource: '', name: '', parts: [], ...o,
});
const user = (username: string, ...groups: string[]): UserInfo => ({ username, groups: [...groups, 'system:authenticated'] });

/** What a busy cluster sends: users, nodes, controllers, service accounts, probes, admins. */
const MIX: { info: RequestInfo; user: UserInfo }[] = [
  { info: info('get', 'configmaps', 'team-a', { name: 'c' }), user: user('alice') },
  { info: info('list', 'pods', 'team-b'), user: user('bob', 'devs') },
  { info: info('update', 'nodes', '', { name: 'n1', subresource: 'status' }), user: user('system:node:n1', 'system:nodes') },
  { info: info('update', 'leases', 'kube-system', { apiGroup: 'coordination.k8s.io', name: 'kcm' }), user: user('system:kube-controller-manager') },
  { info: info('watch', 'pods', ''), user: user('system:serviceaccount:kube-system:coredns', 'system:serviceaccounts', 'system:serviceaccounts:kube-system') },
  { info: info('create', 'events', 'apps'), user: user('system:serviceaccount:apps:web', 'system:serviceaccounts', 'system:serviceaccounts:apps') },
  { info: { ...info('get', '', ''), isResourceRequest: false, path: '/readyz', resource: '', namespace: '' }, user: user('system:anonymous') },
  { info: info('delete', 'secrets', 'x', { name: 's' }), user: user('admin', 'system:masters') },
];

function timeLoop(fn: (i: number) => void, n: number): number {
  const t = performance.now();
  for (let i = 0; i < n; i++) fn(i);
  return ((performance.now() - t) * 1000) / n;
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function classificationCost(): { base: number; apf: number } {
  const fc = new FlowController({ serverConcurrencyLimit: 600 });
  const uid = (o: KObject): KObject => ({ ...o, metadata: { ...o.metadata, uid: `u-${o.metadata.name}` } });
  fc.digest([...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS].map(uid), [...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS].map(uid));
  const query = new URLSearchParams();
  const deadline = performance.now() + 3_600_000;
  const apf = (i: number): void => {
    const r = MIX[i % MIX.length]!;
    const d = fc.decide(r, query, deadline);
    const a = d.admission as Admission;
    if (a.execute) a.finish();
  };
  // Baseline: the same loop shape, with a decision that is already made.
  const ready: Admission = { execute: true, waitedMs: 0, finish: () => {} };
  const noop = (r: { info: RequestInfo; user: UserInfo }): Admission => (r.user.username.length >= 0 ? ready : ready);
  const base = (i: number): void => {
    const a = noop(MIX[i % MIX.length]!);
    if (a.execute) a.finish();
  };
  timeLoop(apf, N / 4);
  timeLoop(base, N / 4);
  const apfRuns: number[] = [];
  const baseRuns: number[] = [];
  for (let k = 0; k < 5; k++) {
    baseRuns.push(timeLoop(base, N));
    apfRuns.push(timeLoop(apf, N));
  }
  fc.stop();
  return { base: median(baseRuns), apf: median(apfRuns) };
}

async function main(): Promise<void> {
  const c = classificationCost();
  const added = c.apf - c.base;
  console.log(`N=${N} requests per run over ${MIX.length} request kinds, median of 5 runs`);
  console.log('| measure | µs/request | added vs no-op | target |');
  console.log('|---|---|---|---|');
  console.log(`| no-op baseline | ${c.base.toFixed(3)} | – | – |`);
  console.log(`| classify + admit + finish (v1.33 bootstrap config) | ${c.apf.toFixed(3)} | ${added.toFixed(3)} (×${(c.apf / c.base).toFixed(0)}) | ≤ 10 µs ${added <= 10 ? 'met' : 'MISSED'} |`);
  if (process.env.BENCH_APF_OVERLOAD === '0') return;

  const scenario = QUICK
    ? { objects: 2000, objectBytes: 1024, listers: 16, floodConcurrency: 50, durationMs: 4000 }
    : { objects: 20_000, objectBytes: 1024, listers: 16, floodConcurrency: 50, durationMs: 15_000 };
  const common = { storage: 'sqlite' as const, fenceFlooder: true, maxRequestsInflight: 40, maxMutatingRequestsInflight: 20 };
  // Idle baseline: the same server and objects without listers or flood.
  const idle = await runOverload({ ...scenario, ...common, listers: 0, floodConcurrency: 0, durationMs: 3000 });
  const r = await runOverload({ ...scenario, ...common });
  const p99 = percentile(r.exemptMs, 99);
  const idleP99 = percentile(idle.exemptMs, 99);
  const f201 = r.floodStatuses['201'] ?? 0;
  const f429 = r.floodStatuses['429'] ?? 0;
  const lists = r.listsPerLister.reduce((a, b) => a + b, 0);
  console.log(`\noverload: ${scenario.listers} listers × ${scenario.objects} ConfigMaps of ${scenario.objectBytes} B (${(r.listBytes / 2 ** 20).toFixed(1)} MiB per list), flooder with ${scenario.floodConcurrency} creates in flight (Reject level of its own), ${scenario.durationMs / 1000} s, sqlite, 60 seats; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log('| measure | idle (same run) | overload | target |');
  console.log('|---|---:|---:|---|');
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  console.log(`| exempt p50 (admin + probes) | ${ms(percentile(idle.exemptMs, 50))} | ${ms(percentile(r.exemptMs, 50))} | – |`);
  console.log(`| exempt p99 (admin + probes) | ${ms(idleP99)} | ${ms(p99)} (×${(p99 / idleP99).toFixed(1)}) | ≤ 1 s ${p99 <= 1000 ? 'met' : 'MISSED'} |`);
  console.log(`| system:masters GET p99 | ${ms(percentile(idle.adminMs, 99))} | ${ms(percentile(r.adminMs, 99))} | ≤ 1 s |`);
  console.log(`| /readyz + /livez p99 | ${ms(percentile(idle.probeMs, 99))} | ${ms(percentile(r.probeMs, 99))} | ≤ 1 s |`);
  console.log(`| exempt samples | ${idle.exemptMs.length} | ${r.exemptMs.length} | – |`);
  console.log(`| flooder 201 / 429 (429 share) | – | ${f201} / ${f429} (${((100 * f429) / Math.max(1, f201 + f429)).toFixed(0)}%, ${r.floodRetryAfter} with Retry-After) | 429s |`);
  console.log(`| whole lists served (16 users), per user | – | ${lists}: ${r.listsPerLister.join(' ')} | every lister served |`);
  console.log(`| server event-loop delay max / p99 | ${ms(idle.loopDelayMaxMs)} / ${ms(idle.loopDelayP99Ms)} | ${ms(r.loopDelayMaxMs)} / ${ms(r.loopDelayP99Ms)} | – |`);
  console.log(`| RSS at start → max | ${(idle.startRssBytes / 2 ** 20).toFixed(0)} → ${(idle.maxRssBytes / 2 ** 20).toFixed(0)} MiB | ${(r.startRssBytes / 2 ** 20).toFixed(0)} → ${(r.maxRssBytes / 2 ** 20).toFixed(0)} MiB | bounded |`);
}

await main();
