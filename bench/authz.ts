/**
 * RBAC authorization cost (`node --import tsx bench/authz.ts`): authorize() per request with 1,000 roles and
 * 1,000 bindings in the index, against the baseline of the same chain with AlwaysAllow (the system:masters
 * check + union + an empty allow). Target: ≤ 20 µs added per request. In-process, no HTTP; each figure is
 * the median of 5 runs of N calls after a warm-up. Prints a markdown table for BENCHMARKS.md.
 * `BENCH_QUICK=1` shrinks N for a smoke run.
 */
import type { KObject, UserInfo } from '../src/machinery/objects.ts';
import type { Attributes, Authorizer } from '../src/request/authorizer.ts';
import { buildAuthorizer } from '../src/authz/modes.ts';
import { privilegedGroups, unionAuthorizer } from '../src/authz/union.ts';
import { RbacIndex } from '../src/authz/rbac/index-store.ts';
import { rbacAuthorizer, authorizeWith } from '../src/authz/rbac/authorizer.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const N = QUICK ? 20_000 : 200_000;
const G = 'rbac.authorization.k8s.io';
const NAMESPACES = 50;

const RESOURCES = ['pods', 'configmaps', 'secrets', 'services', 'deployments', 'jobs', 'events', 'leases'];

function rules(i: number): unknown[] {
  // Five rules per role, the kinds of rules real roles hold (verb lists, several resources, one with names).
  return [
    { apiGroups: [''], resources: [RESOURCES[i % 8], RESOURCES[(i + 1) % 8]], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'], verbs: ['get', 'update', 'patch'] },
    { apiGroups: ['batch'], resources: ['jobs', 'cronjobs'], verbs: ['create', 'delete'] },
    { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: [`s-${i}`] },
    { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['*'] },
  ];
}

/** 500 ClusterRoles + 500 Roles (10 per namespace); 500 ClusterRoleBindings + 500 RoleBindings. */
function buildIndex(): RbacIndex {
  const ix = new RbacIndex();
  for (let i = 0; i < 500; i++) {
    ix.upsertClusterRole({ apiVersion: `${G}/v1`, kind: 'ClusterRole', metadata: { name: `cr-${i}` }, rules: rules(i) } as KObject);
    ix.upsertRole({ apiVersion: `${G}/v1`, kind: 'Role', metadata: { name: `r-${i}`, namespace: `ns-${i % NAMESPACES}` }, rules: rules(i) } as KObject);
  }
  // The bootstrap policy's bindings for every authenticated user.
  ix.upsertClusterRole({ metadata: { name: 'system:discovery' }, rules: [{ nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/version', '/healthz', '/livez', '/readyz'], verbs: ['get'] }] } as KObject);
  for (const n of ['system:discovery', 'system:basic-user', 'system:public-info-viewer']) {
    ix.upsertBinding({ metadata: { name: n }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: n === 'system:discovery' ? n : 'cr-0' }, subjects: [{ kind: 'Group', apiGroup: G, name: 'system:authenticated' }] } as KObject, 'ClusterRoleBinding');
  }
  for (let i = 0; i < 497; i++) {
    ix.upsertBinding({ metadata: { name: `crb-${i}` }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: `cr-${i}` }, subjects: [{ kind: 'User', apiGroup: G, name: `user-${i}` }, { kind: 'Group', apiGroup: G, name: `team-${i % 20}` }] } as KObject, 'ClusterRoleBinding');
  }
  for (let i = 0; i < 500; i++) {
    const namespace = `ns-${i % NAMESPACES}`;
    ix.upsertBinding({ metadata: { name: `rb-${i}`, namespace }, roleRef: { apiGroup: G, kind: 'Role', name: `r-${i}` }, subjects: [{ kind: 'User', apiGroup: G, name: `dev-${i}` }, { kind: 'ServiceAccount', name: `sa-${i}` }] } as KObject, 'RoleBinding');
  }
  return ix;
}

function attrs(user: UserInfo, verb: string, resource: string, namespace: string, o: Partial<Attributes> = {}): Attributes {
  return { user, verb, isResourceRequest: true, path: '', apiGroup: '', apiVersion: 'v1', namespace, resource, subresource: '', name: '', ...o };
}

const authed = (username: string, groups: string[] = []): UserInfo => ({ username, groups: [...groups, 'system:authenticated'] });

const CASES: { name: string; attrs: Attributes; expect: 'allow' | 'no-opinion' }[] = [
  { name: 'allowed by a RoleBinding (user, last rule)', attrs: attrs(authed('dev-137'), 'update', 'leases', 'ns-37', { apiGroup: 'coordination.k8s.io', name: 'l' }), expect: 'allow' },
  { name: 'allowed by a ClusterRoleBinding via a group', attrs: attrs(authed('someone', ['team-7']), 'patch', 'deployments', 'ns-3', { apiGroup: 'apps', subresource: 'scale', name: 'd' }), expect: 'allow' },
  { name: 'allowed: service account, RoleBinding', attrs: attrs(authed('system:serviceaccount:ns-12:sa-262', ['system:serviceaccounts', 'system:serviceaccounts:ns-12']), 'list', 'pods', 'ns-12'), expect: 'allow' },
  { name: 'discovery (non-resource, system:authenticated)', attrs: { ...attrs(authed('anyone'), 'get', '', ''), isResourceRequest: false, path: '/apis/apps' }, expect: 'allow' },
  { name: 'denied (bindings exist, no rule matches)', attrs: attrs(authed('dev-137'), 'delete', 'nodes', '', { name: 'n' }), expect: 'no-opinion' },
  { name: 'denied (no binding for the user)', attrs: attrs(authed('stranger'), 'get', 'secrets', 'ns-1', { name: 's' }), expect: 'no-opinion' },
];

async function timeAsync(a: Authorizer, at: Attributes, n: number): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await a.authorize(at);
  return Number(process.hrtime.bigint() - t0) / n / 1000;
}

function timeSync(fn: () => unknown, n: number): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return Number(process.hrtime.bigint() - t0) / n / 1000;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const ix = buildIndex();
  const rbac = unionAuthorizer([privilegedGroups(['system:masters']), rbacAuthorizer(ix)]);
  const baseline = await buildAuthorizer(['AlwaysAllow']);
  for (const c of CASES) {
    const d = await rbac.authorize(c.attrs);
    if (d.kind !== c.expect) throw new Error(`${c.name}: expected ${c.expect}, got ${JSON.stringify(d)}`);
  }
  const size = ix.size();
  console.log(`index: ${size.roles} Roles, ${size.clusterRoles} ClusterRoles, ${size.bindings} bindings; N=${N} calls per run, median of 5 runs`);
  const base: number[] = [];
  for (let r = 0; r < 5; r++) base.push(await timeAsync(baseline, CASES[0]!.attrs, N));
  const b = median(base);
  const rows: string[] = ['| request | RBAC chain µs/req | added vs AlwaysAllow µs | RBAC alone (sync) µs | target |', '|---|---|---|---|---|'];
  rows.push(`| baseline: AlwaysAllow chain | ${b.toFixed(3)} | – | – | – |`);
  for (const c of CASES) {
    await timeAsync(rbac, c.attrs, N / 4);
    const chain: number[] = [];
    const alone: number[] = [];
    for (let r = 0; r < 5; r++) {
      chain.push(await timeAsync(rbac, c.attrs, N));
      alone.push(timeSync(() => authorizeWith(ix, c.attrs), N));
    }
    const added = median(chain) - b;
    rows.push(`| ${c.name} | ${median(chain).toFixed(3)} | ${added.toFixed(3)} | ${median(alone).toFixed(3)} | ≤ 20 µs ${added <= 20 ? 'met' : 'MISSED'} |`);
  }
  console.log(rows.join('\n'));
}

await main();
