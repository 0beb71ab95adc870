import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestInfo } from '../request/context.ts';
import type { UserInfo } from '../machinery/objects.ts';
import { ClassificationCache, classificationKey, classify, compileFlowSchema, flowDistinguisher, nonResourceUrlMatches, sortFlowSchemas, type RequestDigest } from './classify.ts';
import { MANDATORY_FLOW_SCHEMAS, SUGGESTED_FLOW_SCHEMAS } from './bootstrap.ts';

const schemas = sortFlowSchemas([...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS].map(compileFlowSchema));

function res(verb: string, resource: string, opts: { group?: string; ns?: string; sub?: string; name?: string } = {}): RequestInfo {
  return {
    isResourceRequest: true, path: '/x', verb, apiPrefix: opts.group ? 'apis' : 'api', apiGroup: opts.group ?? '', apiVersion: 'v1',
    namespace: opts.ns ?? '', resource, subresource: opts.sub ?? '', name: opts.name ?? '', parts: [],
  };
}
function nonRes(verb: string, path: string): RequestInfo {
  return { isResourceRequest: false, path, verb, apiPrefix: '', apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '', parts: [] };
}
const u = (username: string, ...groups: string[]): UserInfo => ({ username, groups: [...groups, username === 'system:anonymous' ? 'system:unauthenticated' : 'system:authenticated'] });
const which = (info: RequestInfo, user: UserInfo): string => classify(schemas, { info, user })!.name;

void test('the bootstrap schemas are tried in precedence order, ties by name', () => {
  assert.deepEqual(schemas.map((s) => `${s.matchingPrecedence}:${s.name}`).slice(0, 4), ['1:exempt', '2:probes', '100:system-leader-election', '150:endpoint-controller']);
  const i = schemas.findIndex((s) => s.name === 'kube-controller-manager');
  assert.equal(schemas[i + 1]!.name, 'kube-scheduler');
  assert.equal(schemas.at(-1)!.name, 'catch-all');
});

void test('system:masters is exempt for everything; probes are exempt for everyone', () => {
  assert.equal(which(res('list', 'secrets'), u('admin', 'system:masters')), 'exempt');
  assert.equal(which(nonRes('get', '/metrics'), u('admin', 'system:masters')), 'exempt');
  assert.equal(which(nonRes('get', '/readyz'), u('system:anonymous')), 'probes');
  // "/livez" also covers its sub-checks (kube's prefix rule), but not other verbs.
  assert.equal(which(nonRes('get', '/livez/ping'), u('bob')), 'probes');
  assert.equal(which(nonRes('post', '/livez'), u('bob')), 'global-default');
});

void test('nodes, controllers, leader election and service accounts land where kube puts them', () => {
  const node = u('system:node:n1', 'system:nodes');
  assert.equal(which(res('update', 'nodes', { sub: 'status', name: 'n1' }), node), 'system-node-high');
  assert.equal(which(res('update', 'leases', { group: 'coordination.k8s.io', ns: 'kube-node-lease' }), node), 'system-node-high');
  assert.equal(which(res('list', 'pods'), node), 'system-nodes');
  const kcm = u('system:kube-controller-manager');
  assert.equal(which(res('update', 'leases', { group: 'coordination.k8s.io', ns: 'kube-system' }), kcm), 'system-leader-election');
  assert.equal(which(res('update', 'endpoints', { ns: 'default' }), kcm), 'endpoint-controller');
  assert.equal(which(res('list', 'pods'), kcm), 'kube-controller-manager');
  const sysSA = u('system:serviceaccount:kube-system:coredns', 'system:serviceaccounts', 'system:serviceaccounts:kube-system');
  assert.equal(which(res('get', 'configmaps', { ns: 'kube-system' }), sysSA), 'workload-leader-election');
  assert.equal(which(res('list', 'services'), sysSA), 'kube-system-service-accounts');
  const epSA = u('system:serviceaccount:kube-system:endpoint-controller', 'system:serviceaccounts');
  assert.equal(which(res('update', 'endpoints', { ns: 'x' }), epSA), 'endpoint-controller');
  // kube-systemX is another namespace: the `*` service account subject needs the exact namespace.
  assert.equal(which(res('list', 'pods'), u('system:serviceaccount:kube-systemx:a', 'system:serviceaccounts')), 'service-accounts');
  assert.equal(which(res('list', 'pods'), u('alice')), 'global-default');
  assert.equal(which(res('list', 'pods'), u('system:anonymous')), 'global-default');
});

void test('resource rules: sub-resources, groups, namespaces and clusterScope', () => {
  const fs = compileFlowSchema({
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name: 'x', uid: 'u1' },
    spec: {
      priorityLevelConfiguration: { name: 'p' }, matchingPrecedence: 50, distinguisherMethod: { type: 'ByNamespace' },
      rules: [{ subjects: [{ kind: 'User', user: { name: 'alice' } }], resourceRules: [{ verbs: ['get', 'list'], apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'], namespaces: ['team-a'] }] }],
    },
  });
  const alice = u('alice');
  const d = (info: RequestInfo): RequestDigest => ({ info, user: alice });
  assert.equal(fs.matches(d(res('get', 'deployments', { group: 'apps', ns: 'team-a' }))), true);
  assert.equal(fs.matches(d(res('get', 'deployments', { group: 'apps', ns: 'team-a', sub: 'scale' }))), true);
  assert.equal(fs.matches(d(res('get', 'deployments', { group: 'apps', ns: 'team-a', sub: 'status' }))), false);
  assert.equal(fs.matches(d(res('get', 'deployments', { group: 'apps', ns: 'team-b' }))), false);
  assert.equal(fs.matches(d(res('list', 'deployments', { group: 'apps' }))), false, 'cluster-wide needs clusterScope');
  assert.equal(fs.matches(d(res('delete', 'deployments', { group: 'apps', ns: 'team-a' }))), false);
  assert.equal(fs.matches(d(res('get', 'deployments', { group: 'extensions', ns: 'team-a' }))), false);
  assert.equal(fs.matches({ info: res('get', 'deployments', { group: 'apps', ns: 'team-a' }), user: u('bob') }), false);
  assert.equal(fs.matches(d(nonRes('get', '/healthz'))), false, 'a resource-only rule matches no non-resource request');
  assert.equal(flowDistinguisher(fs, d(res('get', 'deployments', { group: 'apps', ns: 'team-a' }))), 'team-a');
  assert.equal(fs.uid, 'u1');
});

void test('non-resource URLs: exact, `*`, and prefixes with or without the trailing star', () => {
  assert.equal(nonResourceUrlMatches(['/healthz'], '/healthz'), true);
  assert.equal(nonResourceUrlMatches(['/healthz'], '/healthz/etcd'), true);
  assert.equal(nonResourceUrlMatches(['/healthz'], '/healthzx'), false);
  assert.equal(nonResourceUrlMatches(['/apis/*'], '/apis/apps'), true);
  assert.equal(nonResourceUrlMatches(['/apis/*'], '/api'), false);
  assert.equal(nonResourceUrlMatches(['*'], '/anything'), true);
  assert.equal(nonResourceUrlMatches([], '/anything'), false);
});

void test('the classification cache answers what the rules answer, keyed by everything the rules read', () => {
  const cache = new ClassificationCache(schemas);
  const cases: RequestDigest[] = [
    { info: res('get', 'configmaps', { ns: 'a' }), user: u('alice') },
    { info: res('get', 'configmaps', { ns: 'a' }), user: u('alice', 'system:masters') },
    { info: res('update', 'nodes', { sub: 'status' }), user: u('system:node:n1', 'system:nodes') },
    { info: res('update', 'leases', { group: 'coordination.k8s.io', ns: 'kube-system' }), user: u('system:kube-controller-manager') },
    { info: nonRes('get', '/readyz'), user: u('system:anonymous') },
    { info: nonRes('get', '/api'), user: u('system:anonymous') },
  ];
  for (let round = 0; round < 2; round++) {
    for (const d of cases) assert.equal(cache.classify(d)?.name, classify(schemas, d)?.name);
  }
  // Groups and sub-resources change the key: a cached answer never leaks to a different request.
  assert.notEqual(classificationKey(cases[0]!), classificationKey(cases[1]!));
  assert.notEqual(cache.classify(cases[0]!)?.name, cache.classify(cases[1]!)?.name);
  assert.notEqual(classificationKey({ info: res('get', 'pods', { sub: 'log' }), user: u('x') }), classificationKey({ info: res('get', 'pods'), user: u('x') }));
});
